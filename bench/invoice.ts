// Time to make an invoice PDF (p50/p99) and its size, from a paid test-checkout order:
//   ./node_modules/.bin/bun run bench/invoice.ts
// Figures taken on a loaded machine are unreliable: report them with `uptime`'s load average.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../db/client";
import { loadConfig } from "../server/platform/config";
import { createLogger } from "../server/platform/log";
import { createCheckout } from "../server/shop/checkout/providers";
import { createPaperwork } from "../server/shop/paperwork/documents";
import { contentNow } from "../server/site/content/live";
import { prepareContent } from "../server/site/content/start";
import { writerFor } from "../server/wiring";
import { TERMS_VERSION } from "../shared/legal";

const RUNS = 200;
const dataDir = mkdtempSync(join(tmpdir(), "bench-invoice-"));
try {
  const loaded = loadConfig({ DATA_DIR: dataDir, VAT_SCHEME: "oss", SELLER_NAME: "Stream Shop SAS", LOG_LEVEL: "silent" });
  const db = openDb(loaded.dbPath, { synchronous: "NORMAL" });
  const write = writerFor(db, loaded);
  const config = loaded;
  await prepareContent({ db, write, config, log: createLogger("silent"), now: new Date() });
  const content = contentNow(db, config.site);
  const checkout = createCheckout({ config, db, write, now: () => new Date(), content }).testCheckout!;
  const consent = { acceptedAt: new Date(), termsVersion: TERMS_VERSION };
  const session = await checkout.createCheckout({
    locale: "fr",
    amount: 2999,
    currency: "EUR",
    successPath: "/s",
    cancelPath: "/",
    consent,
  });
  await checkout.pay(session.id, {
    email: "anna@example.com",
    name: "Anna Schmidt",
    city: "Berlin",
    country: "DE",
    card: "4242424242424242",
    expiry: "12/34",
    cvc: "123",
  });
  const paperwork = createPaperwork({ db, config, content });
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const file = await paperwork.invoiceOfOrder(1, "invoice");
    times.push(performance.now() - start);
    size = file?.content.length ?? 0;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(JSON.stringify({ runs: RUNS, p50ms: at(0.5), p99ms: at(0.99), bytes: size }));
  db.$client.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
