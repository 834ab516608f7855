// POST /api/stripe/webhook: orders fulfilled per second with valid signatures at 20 concurrent
// deliveries, duplicates mixed in (the same event redelivered, and a second success event for the
// same checkout), then the count of orders, which must equal the count of distinct checkouts (a
// duplicate never makes a second order). The real server runs as its own process with Stripe keys
// and the default SQLITE_SYNCHRONOUS=FULL; nothing reaches Stripe (completion events carry
// everything needed).
// Run: ./node_modules/.bin/bun run bench/webhook.ts [checkouts] [duplicate-share]
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import Stripe from "stripe";
import { PRODUCTION_READY_ENV } from "../test/support/production-env";
import { startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
const CHECKOUTS = Number(process.argv[2] ?? 3000);
const DUPLICATE_SHARE = Number(process.argv[3] ?? 0.3);
const CONCURRENCY = 20;
const SECRET = "whsec_bench_secret";
const benchRoot = join(root, "data");
mkdirSync(benchRoot, { recursive: true });
const dataDir = mkdtempSync(join(benchRoot, "bench-webhook-"));

const sdk = new Stripe("sk_test_bench");
const session = (id: string, i: number) => ({
  id,
  object: "checkout.session",
  mode: "payment",
  status: "complete",
  payment_status: "paid",
  amount_total: 2999,
  currency: "eur",
  // The mark of the site's own checkouts (PUBLIC_BASE_URL's origin): others make no order.
  metadata: { locale: ["fr", "en", "it", "es"][i % 4], site: new URL(PRODUCTION_READY_ENV.PUBLIC_BASE_URL).origin },
  payment_intent: `pi_bench_${i}`,
  customer_details: { email: `buyer${i}@example.com`, name: `Buyer ${i}`, address: { city: "Lyon" } },
});
const event = (id: string, type: string, object: unknown) => ({
  id,
  object: "event",
  api_version: "2026-10-28.endive",
  created: Math.floor(Date.now() / 1000),
  type,
  data: { object },
});

// Every delivery prepared and signed up front, so the clock measures the server only.
type Delivery = { payload: string; signature: string };
const deliveries: Delivery[] = [];
const sign = async (body: unknown): Promise<Delivery> => {
  const payload = JSON.stringify(body);
  return { payload, signature: await sdk.webhooks.generateTestHeaderStringAsync({ payload, secret: SECRET }) };
};
for (let i = 0; i < CHECKOUTS; i++) {
  const completed = await sign(event(`evt_bench_${i}`, "checkout.session.completed", session(`cs_bench_${i}`, i)));
  deliveries.push(completed);
  if (Math.random() < DUPLICATE_SHARE) {
    // Half the duplicates are the same event again, half a second success event for the checkout.
    deliveries.push(
      Math.random() < 0.5
        ? completed
        : await sign(event(`evt_bench_async_${i}`, "checkout.session.async_payment_succeeded", session(`cs_bench_${i}`, i))),
    );
  }
}
// Shuffle so duplicates arrive concurrently with their originals, in any order.
for (let i = deliveries.length - 1; i > 0; i--) {
  const j = Math.floor(Math.random() * (i + 1));
  [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
}

const server = await startBenchServer(
  [process.execPath, "run", join(root, "server/main.ts")],
  // A live-mode key (no call reaches Stripe: only signed webhooks are sent) and an SMTP server that
  // refuses at once, as production requires both; the access e-mails then wait in the outbox.
  {
    ...PRODUCTION_READY_ENV,
    DATA_DIR: dataDir,
    STRIPE_SECRET_KEY: "sk_live_bench",
    STRIPE_WEBHOOK_SECRET: SECRET,
    SMTP_URL: "smtp://127.0.0.1:1",
  },
  root,
);
const base = server.base;
try {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const d = deliveries[next++]!;
      const start = performance.now();
      const response = await fetch(`${base}/api/stripe/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": d.signature },
        body: d.payload,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - start);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;

  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  const count = (sql: string) => db.query<{ n: number }, []>(sql).get()?.n ?? 0;
  const orders = count("SELECT count(*) AS n FROM orders");
  const paid = count("SELECT count(*) AS n FROM orders WHERE status = 'paid'");
  const events = count("SELECT count(*) AS n FROM processed_events");
  db.close();

  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!.toFixed(1);
  console.log(`POST /api/stripe/webhook, ${CONCURRENCY} concurrent deliveries, SQLITE_SYNCHRONOUS=FULL, data on ${benchRoot}`);
  console.log(
    `  deliveries: ${deliveries.length} (${CHECKOUTS} distinct checkouts, ${deliveries.length - CHECKOUTS} duplicates)  statuses: ${JSON.stringify(statuses)}`,
  );
  console.log(
    `  ${(deliveries.length / seconds).toFixed(0)} deliveries/s, ${(CHECKOUTS / seconds).toFixed(0)} orders fulfilled/s, p50 ${pct(50)} ms, p99 ${pct(99)} ms, ${seconds.toFixed(2)} s`,
  );
  console.log(
    `  orders at the end: ${orders} (paid ${paid}), processed events ${events}; distinct checkouts ${CHECKOUTS} -> ${orders === CHECKOUTS && paid === CHECKOUTS ? "OK" : "MISMATCH"}`,
  );
  if (orders !== CHECKOUTS || paid !== CHECKOUTS) process.exitCode = 1;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
