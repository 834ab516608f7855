// Continuous replication, measured (run it alone: figures taken while the machine is loaded are
// not worth much; print `uptime` with them):
//  1. lag: a test purchase acknowledged -> its order present in the replica, as `litestream restore`
//     sees it (the restore's own time included: an upper bound), p50/p99 over ORDERS purchases;
//     and how long after that `backup status` (DATA_DIR/backup-status.json) shows a replication at
//     least as late as the purchase (it is written at most every 5 s, a late update delayed, not dropped);
//  2. the cost of replication on leads per second (20 concurrent clients, LEADS_SECONDS each way);
//  3. restore time (`site restore`) for a database of 100,000 orders.
// Usage: ./node_modules/.bin/bun run bench/backup.ts [ORDERS=30] [LEADS_SECONDS=5]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../db/client";
import { litestreamBinary, litestreamConfig } from "../server/platform/backup/litestream";
import { readStatusFile } from "../server/platform/backup/status";
import { generateOrderReference } from "../shared/order-reference";
import { startServer } from "../test/e2e/harness";

const ROOT = join(import.meta.dir, "..");
const ORDERS = Number(process.argv[2] ?? 30);
const LEADS_SECONDS = Number(process.argv[3] ?? 5);
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const binary = litestreamBinary(undefined);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/** Whether the replica, restored now, holds the order of `checkoutId`. */
function replicaHas(replica: string, checkoutId: string, scratch: string): boolean {
  const out = join(scratch, `probe-${Math.random().toString(36).slice(2)}.db`);
  const run = Bun.spawnSync({ cmd: [binary, "restore", "-o", out, `file://${replica}`], stdout: "ignore", stderr: "ignore" });
  if (run.exitCode !== 0) return false;
  const db = new Database(out, { readonly: true });
  const found = db.query("SELECT 1 FROM orders WHERE checkout_id = ? AND status = 'paid'").get(checkoutId) !== null;
  db.close();
  rmSync(out, { force: true });
  return found;
}

type Lags = { p50: number; p99: number; max: number };

async function lag(): Promise<{ replica: Lags; status: Lags }> {
  const replica = mkdtempSync(join(tmpdir(), "bench-replica-"));
  const scratch = mkdtempSync(join(tmpdir(), "bench-scratch-"));
  const server = await startServer({ env: { BACKUP_URL: `file://${replica}`, TRUST_PROXY: "true" } });
  const lags: number[] = [];
  const statusLags: number[] = [];
  try {
    for (let i = 0; i < ORDERS; i++) {
      const start = await fetch(`${server.baseUrl}/api/payment`, {
        method: "POST",
        headers: { ...FORM, "x-forwarded-for": `10.9.${i}.1` },
        body: "locale=fr&acceptTerms=yes",
        redirect: "manual",
      });
      const cardPage = start.headers.get("location") ?? "";
      const checkoutId = cardPage.split("/").pop() ?? "";
      const card = new URLSearchParams({
        email: `lag${i}@example.com`,
        name: "A",
        city: "Lyon",
        card: "4242 4242 4242 4242",
        expiry: "12/34",
        cvc: "123",
      });
      const paid = await fetch(`${server.baseUrl}${cardPage}`, {
        method: "POST",
        headers: FORM,
        body: card.toString(),
        redirect: "manual",
      });
      const acked = performance.now();
      const ackedAt = Date.now();
      if (paid.status !== 303) throw new Error(`payment ${i}: ${paid.status}`);
      while (!replicaHas(replica, checkoutId, scratch)) {
        if (performance.now() - acked > 30_000) throw new Error(`order ${i} not replicated after 30 s`);
        await Bun.sleep(50);
      }
      lags.push(performance.now() - acked);
      const found = performance.now();
      const shown = () => Date.parse(readStatusFile(server.dataDir)?.lastReplicatedAt ?? "") >= ackedAt;
      while (!shown()) {
        if (performance.now() - found > 30_000) throw new Error(`order ${i}: backup status not updated after 30 s`);
        await Bun.sleep(50);
      }
      statusLags.push(performance.now() - found);
    }
  } finally {
    await server.stop();
    rmSync(replica, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  const summary = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) });
  return { replica: summary(lags), status: summary(statusLags) };
}

async function leadsPerSecond(env: Record<string, string>): Promise<number> {
  const server = await startServer({ env: { ...env, TRUST_PROXY: "true", WORKERS: "1" } });
  let done = 0;
  let n = 0;
  const until = performance.now() + LEADS_SECONDS * 1000;
  try {
    await Promise.all(
      Array.from({ length: 20 }, async (_, client) => {
        while (performance.now() < until) {
          const i = n++;
          const response = await fetch(`${server.baseUrl}/api/leads`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": `10.${client}.${(i >> 8) & 255}.${i & 255}` },
            body: JSON.stringify({ email: `bench${i}@example.com`, source: "exit_popup", ip_hash: null, locale: "fr" }),
          });
          if (response.status === 201) done++;
        }
      }),
    );
  } finally {
    await server.stop();
  }
  return done / LEADS_SECONDS;
}

async function restoreTime(): Promise<{ ms: number; bytes: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-big-"));
  const replica = mkdtempSync(join(tmpdir(), "bench-big-replica-"));
  try {
    const dbPath = join(dataDir, "site.db");
    const db = openDb(dbPath, { synchronous: "NORMAL" });
    const insert = db.$client.query(
      "INSERT INTO orders (reference, provider, checkout_id, status, amount, currency, locale, customer_email, first_name, city, created_at, updated_at, paid_at) VALUES (?, 'stripe', ?, 'paid', 2999, 'EUR', 'fr', ?, 'Camille', 'Lyon', ?, ?, ?)",
    );
    const now = Date.now();
    db.$client.transaction(() => {
      for (let i = 0; i < 100_000; i++)
        insert.run(generateOrderReference(), `cs_live_${i.toString(36).padStart(8, "0")}`, `buyer${i}@example.com`, now, now, now);
    })();
    db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.$client.close();
    const bytes = Bun.file(dbPath).size;
    const config = join(dataDir, "ls.yml");
    await Bun.write(config, litestreamConfig(dbPath, { kind: "file", url: `file://${replica}`, path: replica }));
    const replicate = Bun.spawn({ cmd: [binary, "replicate", "-config", config], stdout: "ignore", stderr: "pipe" });
    // The database was checkpointed whole into its file: Litestream's snapshot alone carries it.
    let said = "";
    const reader = replicate.stderr.getReader();
    while (!said.includes('msg="snapshot written"')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`litestream ended before its snapshot: ${said}`);
      said += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    replicate.kill("SIGTERM");
    await replicate.exited;
    rmSync(dataDir, { recursive: true, force: true });
    const started = performance.now();
    const run = Bun.spawnSync({
      cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "restore"],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, BACKUP_URL: `file://${replica}`, LOG_LEVEL: "silent" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const ms = performance.now() - started;
    if (run.exitCode !== 0) throw new Error(`restore failed: ${run.stderr.toString()}`);
    if (!run.stdout.toString().includes("100000 orders")) throw new Error(`restore incomplete: ${run.stdout.toString()}`);
    return { ms, bytes };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(replica, { recursive: true, force: true });
  }
}

const lagged = await lag();
const ms = (l: Lags) => `p50 ${Math.round(l.p50)} ms, p99 ${Math.round(l.p99)} ms, max ${Math.round(l.max)} ms`;
console.log(`replication lag over ${ORDERS} purchases: ${ms(lagged.replica)}`);
console.log(`backup status behind the replica (after the order is in it): ${ms(lagged.status)}`);
const scratchReplica = mkdtempSync(join(tmpdir(), "bench-leads-replica-"));
const without = await leadsPerSecond({});
const withBackup = await leadsPerSecond({ BACKUP_URL: `file://${scratchReplica}` });
rmSync(scratchReplica, { recursive: true, force: true });
console.log(
  `leads per second: ${Math.round(without)} without replication, ${Math.round(withBackup)} with (${Math.round((100 * (without - withBackup)) / without)} % cost)`,
);
const restored = await restoreTime();
console.log(
  `restore of 100,000 orders (${(restored.bytes / 1e6).toFixed(1)} MB): ${Math.round(restored.ms)} ms (the whole command, process start included)`,
);
console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).trim()}`);
