// POST /api/leads: leads per second and p50/p99 latency at 50 concurrent clients on loopback, with
// SQLITE_SYNCHRONOUS=FULL and =NORMAL, so the durability choice (docs/leads.md) has its price in
// figures. Each request is a new address from its own client address (TRUST_PROXY, X-Forwarded-For),
// so every one is a real insert and none is rate-limited.
// Run: ./node_modules/.bin/bun run bench/leads.ts [seconds] [rounds]

import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PRODUCTION_READY_ENV } from "../test/support/production-env";
import { fmt, type LoadResult, runLoad, startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 2);
const CONCURRENCY = 50;
// On the same disk as the site's data (not a tmpfs), or fsync would cost nothing.
const benchRoot = join(root, "data");
mkdirSync(benchRoot, { recursive: true });

async function benchOne(synchronous: "FULL" | "NORMAL", run: number): Promise<LoadResult> {
  const dataDir = mkdtempSync(join(benchRoot, `bench-leads-${synchronous.toLowerCase()}-`));
  const server = await startBenchServer(
    [process.execPath, "run", join(root, "server/main.ts")],
    { ...PRODUCTION_READY_ENV, DATA_DIR: dataDir, ALLOW_TEST_CHECKOUT: "true", TRUST_PROXY: "true", SQLITE_SYNCHRONOUS: synchronous },
    root,
  );
  const base = server.base;
  try {
    let n = 0;
    const send = () => {
      const id = n++;
      return fetch(`${base}/api/leads`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}` },
        body: JSON.stringify({ email: `bench-${run}-${id}@example.com`, source: "exit_popup", ip_hash: null }),
      });
    };
    await runLoad({ concurrency: 10, seconds: 1, request: send, ok: (r) => r.status === 201 }); // warm-up
    const result = await runLoad({ concurrency: CONCURRENCY, seconds, request: send, ok: (r) => r.status === 201 });
    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    const stored = db.query<{ n: number }, []>("SELECT count(*) AS n FROM email_leads").get()?.n ?? 0;
    db.close();
    const acked = result.statuses[201] ?? 0;
    if (stored < acked) throw new Error(`${synchronous}: ${acked} acknowledged but only ${stored} stored`);
    return result;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`POST /api/leads, ${CONCURRENCY} concurrent clients, ${seconds}s per run, ${rounds} round(s), data on ${benchRoot}`);
const results: Record<string, LoadResult[]> = { FULL: [], NORMAL: [] };
for (let round = 0; round < rounds; round++) {
  for (const synchronous of ["FULL", "NORMAL"] as const) {
    const result = await benchOne(synchronous, round);
    results[synchronous]!.push(result);
    console.log(`  synchronous=${synchronous.padEnd(6)} ${fmt(result).replace("req/s", "leads/s")}`);
  }
}
for (const [synchronous, list] of Object.entries(results)) {
  const best = list.reduce((a, b) => (b.rps > a.rps ? b : a));
  console.log(`best synchronous=${synchronous.padEnd(6)} ${fmt(best).replace("req/s", "leads/s")}`);
}
