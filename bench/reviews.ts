// Landing page weight and throughput with 0 and with 500 published buyers' reviews (only the latest
// are in the page), and the time from a review's publication to new bytes on every process.
// Production settings (no sample reviews), two processes, the source server.
// Run: ./node_modules/.bin/bun run bench/reviews.ts [seconds]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../db/client";
import { bumpProofStamp } from "../server/shop/reviews/store";
import { generateOrderReference } from "../shared/order-reference";
import { PRODUCTION_READY_ENV } from "../test/support/production-env";
import { fmt, runLoad, startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
const seconds = Number(process.argv[2] ?? 10);
const REVIEWS = 500;
const dataDir = mkdtempSync(join(tmpdir(), "bench-reviews-"));
const server = await startBenchServer(
  [process.execPath, "run", join(root, "server/main.ts")],
  { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", DATA_DIR: dataDir, WORKERS: "2" },
  root,
);
const headers = { "accept-encoding": "br" };

async function measure(label: string) {
  const weight = (await (await fetch(`${server.base}/`, { headers, decompress: false })).arrayBuffer()).byteLength;
  const plain = (await (await fetch(`${server.base}/`)).text()).length;
  await runLoad({ concurrency: 10, seconds: 1, request: () => fetch(`${server.base}/`, { headers }) });
  const load = await runLoad({ concurrency: 50, seconds, request: () => fetch(`${server.base}/`, { headers }) });
  console.log(`${label}: / ${(weight / 1024).toFixed(1)} KiB brotli (${(plain / 1024).toFixed(1)} KiB HTML); ${fmt(load)}`);
}

/** ETags of `/` seen on new connections: with two processes, a few asks reach both. */
async function etags(): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < 8; i++) seen.add((await fetch(`${server.base}/`, { headers: { connection: "close" } })).headers.get("etag") ?? "");
  return seen;
}

try {
  await measure("0 published reviews");
  const before = [...(await etags())][0];
  const db = openDb(join(dataDir, "site.db"));
  const now = Date.now();
  const order = db.$client.query<{ id: number }, [string, string, string, number, number, number]>(
    "INSERT INTO orders (reference, provider, checkout_id, status, amount, currency, locale, customer_email, first_name, city, created_at, updated_at, paid_at) VALUES (?, 'stripe', ?, 'paid', 2999, 'EUR', 'fr', ?, 'Camille', 'Lyon', ?, ?, ?) RETURNING id",
  );
  const review = db.$client.query(
    "INSERT INTO reviews (order_id, locale, rating, text, display_name, name_style, city, status, consent_at, created_at, updated_at, published_at, decided_at) VALUES (?, ?, ?, ?, 'Camille D.', 'first-initial', 'Lyon', 'published', ?, ?, ?, ?, ?)",
  );
  const published = performance.now();
  db.$client.transaction(() => {
    for (let i = 0; i < REVIEWS; i++) {
      const id = order.get(generateOrderReference(), `cs_live_bench_${i}`, `reviewer${i}@example.com`, now, now, now)?.id;
      if (id === undefined) throw new Error("order not inserted");
      const at = now - (REVIEWS - i) * 60_000;
      review.run(
        id,
        ["fr", "en", "it", "es"][i % 4] ?? "fr",
        3 + (i % 3),
        `Avis numéro ${i} : l'application marche bien sur ma télé et mon téléphone.`,
        at,
        at,
        at,
        at,
        at,
      );
    }
    bumpProofStamp(db, new Date());
  })();
  db.$client.close();
  // Every process serves the new page: no ETag of before on new connections.
  for (;;) {
    const seen = await etags();
    if (!seen.has(before ?? "") && seen.size === 1) break;
    await Bun.sleep(20);
  }
  console.log(
    `${REVIEWS} reviews published in one transaction: new bytes on every process after ${Math.round(performance.now() - published)} ms`,
  );
  await measure(`${REVIEWS} published reviews`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
