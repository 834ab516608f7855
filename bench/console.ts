// The owner's console on a big shop: 100,000 orders and 200,000 device activations (plus 20,000
// leads). Measures, through the app (app.handle, the whole request: session check, queries,
// rendering), the overview and the order search by address, licence key and order number, and prints
// each one's p50 and p99 (target: p99 under 50 ms), asked as a browser asks (brotli accepted, so
// compressing the page is in the time). Then the console's first load on a phone: the bytes of the
// sign-in page and of what it and the overview load, as sent (brotli, and gzip for an older browser).
//   ./node_modules/.bin/bun run bench/console.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConsoleFiles, consoleBundleFrom } from "../server/owner/console/bundle";
import { issueRecoveryCodes } from "../server/owner/console/recovery-codes";
import { generateOrderReference } from "../shared/order-reference";
import { createTestSite } from "../test/support/app";
import { loadAverage } from "./site";

const ORDERS = 100_000;
const ACTIVATIONS = 200_000;
const LEADS = 20_000;
const RUNS = 200;
const DAY = 24 * 60 * 60 * 1000;

const dataDir = mkdtempSync(join(tmpdir(), "bench-console-"));
const site = await createTestSite({ dataDir });
try {
  const db = site.db.$client;
  const now = Date.now();
  const started = performance.now();
  db.run("BEGIN");
  const order = db.prepare(
    "INSERT INTO orders (reference, provider, checkout_id, payment_intent_id, status, amount, currency, locale, customer_email, first_name, city, created_at, updated_at, paid_at, refunded_at) VALUES (?, 'test', ?, ?, ?, 2999, 'EUR', 'fr', ?, 'Camille', 'Lyon', ?, ?, ?, ?)",
  );
  const license = db.prepare("INSERT INTO licenses (order_id, key, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)");
  const keys: string[] = [];
  for (let i = 1; i <= ORDERS; i++) {
    // Two years of sales, a few more lately; 4 % refunded, 6 % abandoned.
    const at = now - Math.floor(Math.random() ** 1.5 * 730 * DAY);
    const roll = Math.random();
    const status = roll < 0.06 ? "expired" : roll < 0.1 ? "refunded" : "paid";
    const paid = status === "expired" ? null : at + 60_000;
    order.run(
      generateOrderReference(),
      `cs_bench_${i}`,
      `pi_bench_${i}`,
      status,
      `buyer${i}@example${i % 50}.com`,
      at,
      at,
      paid,
      status === "refunded" ? at + 3 * DAY : null,
    );
    if (status !== "expired") {
      const key = Array.from({ length: 5 }, () => Math.random().toString(36).slice(2, 7).toUpperCase().padEnd(5, "X")).join("-");
      license.run(i, key, status === "refunded" ? "disabled" : "active", at, at);
      keys.push(key);
    }
  }
  const licenseCount = keys.length;
  const activation = db.prepare("INSERT INTO license_activations (license_id, instance_id, instance_name, created_at) VALUES (?, ?, ?, ?)");
  for (let i = 0; i < ACTIVATIONS; i++)
    activation.run(1 + Math.floor(Math.random() * licenseCount), `inst_${i}`, `Device ${i}`, now - i * 1000);
  const lead = db.prepare("INSERT INTO email_leads (email, source, locale, created_at) VALUES (?, 'exit_popup', 'fr', ?)");
  for (let i = 0; i < LEADS; i++) lead.run(`lead${i}@example.org`, now - i * 60_000);
  db.run("COMMIT");
  db.run("ANALYZE");
  console.log(
    `seeded ${ORDERS} orders, ${licenseCount} licences, ${ACTIVATIONS} activations, ${LEADS} leads in ${Math.round(performance.now() - started)} ms`,
  );

  const [code] = await site.write((tx) => issueRecoveryCodes(tx, new Date()));
  const signedIn = await site.request("/admin/sign-in/recovery", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `code=${code}`,
  });
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

  const asBrowser = { cookie, "accept-encoding": "gzip, deflate, br" };
  const measure = async (label: string, path: () => string) => {
    for (let i = 0; i < 10; i++) await (await site.request(path(), { headers: asBrowser })).arrayBuffer();
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const response = await site.request(path(), { headers: asBrowser });
      const body = await response.arrayBuffer();
      times.push(performance.now() - t0);
      if (response.status !== 200) throw new Error(`${label}: ${response.status}`);
      bytes = body.byteLength;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(1);
    console.log(`${label.padEnd(34)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  (${RUNS} runs, page ${(bytes / 1024).toFixed(1)} KB as sent)`);
  };
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)] as T;
  await measure("overview /admin", () => "/admin");
  await measure("orders, newest first", () => "/admin/orders");
  await measure("search by address prefix", () => `/admin/orders?q=buyer${1 + Math.floor(Math.random() * ORDERS)}%40`);
  await measure("search by domain-less prefix", () => "/admin/orders?q=buyer12");
  await measure("search by licence key", () => `/admin/orders?q=${pick(keys)}`);
  await measure("search by order number", () => `/admin/orders?q=%23${1 + Math.floor(Math.random() * ORDERS)}`);
  await measure("an order's page", () => `/admin/orders/${1 + Math.floor(Math.random() * ORDERS)}`);

  // First load on a phone: the sign-in page, then the overview with its chart (uPlot's chunk).
  // The files the console serves are the ones built here (same sources, same bytes), compressed as served.
  const bundle = await consoleBundleFrom(await buildConsoleFiles());
  const sent = async (path: string, encoding: string, withCookie: boolean) => {
    const response = await site.request(path, { headers: { "accept-encoding": encoding, ...(withCookie ? { cookie } : {}) } });
    if (response.headers.get("content-encoding") !== encoding) throw new Error(`${path} was not sent with ${encoding}`);
    return (await response.arrayBuffer()).byteLength;
  };
  const signIn = { br: await sent("/admin/sign-in", "br", false), gzip: await sent("/admin/sign-in", "gzip", false) };
  const overviewHtml = { br: await sent("/admin", "br", true), gzip: await sent("/admin", "gzip", true) };
  let scripts = 0;
  let gzipScripts = 0;
  const lines: string[] = [];
  for (const [path, file] of bundle.files()) {
    scripts += file.br?.byteLength ?? file.body.byteLength;
    gzipScripts += file.gzip?.byteLength ?? file.body.byteLength;
    lines.push(`  ${path}: ${file.body.byteLength} B, ${file.br?.byteLength ?? "-"} B brotli, ${file.gzip?.byteLength ?? "-"} B gzip`);
  }
  console.log("console files (all loaded by the overview; the sign-in page loads all but uPlot's chunk):");
  for (const line of lines) console.log(line);
  console.log(
    `first load on a phone, as sent: sign-in page ${signIn.br} B brotli / ${signIn.gzip} B gzip, overview ${overviewHtml.br} B brotli / ${overviewHtml.gzip} B gzip, scripts and styles ${scripts} B brotli / ${gzipScripts} B gzip`,
  );
  console.log(loadAverage());
} finally {
  await site.close();
  rmSync(dataDir, { recursive: true, force: true });
}
