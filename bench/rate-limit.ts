// The rate limiter (server/platform/http/rate-limit.ts): checks per second for a new client and for a
// returning one with 0, 50,000 and 200,000 clients already tracked, then two real server processes
// on one data folder, each sent leads from one client: together they must accept exactly the limit.
// Run: ./node_modules/.bin/bun run bench/rate-limit.ts
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createRateLimiter } from "../server/platform/http/rate-limit";
import { openRateLimitStore, rateLimitDbPath } from "../server/platform/http/rate-limit-store";
import { createLogger } from "../server/platform/log";
import { LEAD_RATE_LIMIT } from "../server/shop/leads/controller";
import { PRODUCTION_READY_ENV } from "../test/support/production-env";
import { startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
// On the same disk as the site's data (not a tmpfs), as in production.
const benchRoot = join(root, "data");
mkdirSync(benchRoot, { recursive: true });
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const CHECKS = 20_000;

function perCheck(run: (i: number) => void): { perSecond: number; micros: number } {
  const started = performance.now();
  for (let i = 0; i < CHECKS; i++) run(i);
  const micros = ((performance.now() - started) * 1000) / CHECKS;
  return { perSecond: 1e6 / micros, micros };
}

console.log(
  `One process, ${CHECKS} checks each, limit ${LEAD_RATE_LIMIT.limit} per ${LEAD_RATE_LIMIT.windowMs / 60_000} min, data on ${benchRoot}`,
);
for (const tracked of [0, 50_000, 200_000]) {
  const dataDir = mkdtempSync(join(benchRoot, "bench-rate-limit-"));
  const store = openRateLimitStore(rateLimitDbPath(dataDir), { log: createLogger("error"), secret: "bench-rate-limit-key" });
  try {
    const limiter = createRateLimiter(store, { name: "leads", ...LEAD_RATE_LIMIT });
    const now = Date.now();
    for (let i = 0; i < tracked; i++) limiter.take(address(i), now);
    const fresh = perCheck((i) => limiter.take(address(tracked + i), now));
    const returning = perCheck(() => limiter.take("192.0.2.1", now));
    const line = (r: { perSecond: number; micros: number }) => `${r.perSecond.toFixed(0).padStart(7)} checks/s (${r.micros.toFixed(1)} µs)`;
    console.log(`  ${String(tracked).padStart(7)} tracked: new client ${line(fresh)}, returning client ${line(returning)}`);
  } finally {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const dataDir = mkdtempSync(join(benchRoot, "bench-rate-limit-shared-"));
const env = { ...PRODUCTION_READY_ENV, DATA_DIR: dataDir, ALLOW_TEST_CHECKOUT: "true", TRUST_PROXY: "true" };
const cmd = [process.execPath, "run", join(root, "server/main.ts")];
const servers = [await startBenchServer(cmd, env, root), await startBenchServer(cmd, env, root)];
try {
  const sent = 4 * LEAD_RATE_LIMIT.limit;
  // All at once, half to each process, from one client address.
  const statuses = await Promise.all(
    Array.from({ length: sent }, (_, i) =>
      fetch(`${servers[i % 2]!.base}/api/leads`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.77" },
        body: JSON.stringify({ email: `shared-${i}@example.com`, source: "exit_popup", ip_hash: null }),
      }).then((r) => r.status),
    ),
  );
  const accepted = statuses.filter((s) => s === 201).length;
  console.log(
    `Two processes on one data folder, ${sent} leads at once from one client: ${accepted} accepted (limit ${LEAD_RATE_LIMIT.limit}), ${statuses.filter((s) => s === 429).length} refused with 429`,
  );
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dataDir, { recursive: true, force: true });
}
