import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/harness";

// Every lead that got a 201 is in the table, even when the server process dies mid-way.

const ROOT = join(import.meta.dir, "..", "..");
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function tempDataDir() {
  const dir = mkdtempSync(join(tmpdir(), "site-crash-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string, synchronous: string): Promise<RunningServer> {
  // Behind a "proxy" so that each simulated visitor has its own address and stays under the rate limit.
  // WORKERS=1: what a SIGKILL leaves in the file is under test, not workers (processes.system.test.ts), and
  // each worker costs a second of CPU at each of this file's five starts.
  const server = await startServer({ dataDir, env: { TRUST_PROXY: "true", SQLITE_SYNCHRONOUS: synchronous, WORKERS: "1" } });
  cleanup.push(() => server.stop("SIGKILL"));
  return server;
}

/** Sends leads from `clients` concurrent visitors until the server stops answering; returns the acknowledged addresses. */
async function sendUntilDead(server: RunningServer, clients: number, killAfterAcks: number) {
  const acknowledged: string[] = [];
  let next = 0;
  let killed = false;
  const visitor = async () => {
    for (;;) {
      const n = next++;
      const email = `crash-${n}@example.com`;
      try {
        const res = await fetch(`${server.baseUrl}/api/leads`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
          body: JSON.stringify({ email, source: "exit_popup", ip_hash: null }),
        });
        if (res.status === 201) acknowledged.push(email);
        else if (!killed) throw new Error(`unexpected status ${res.status}: ${await res.text()}`);
      } catch (error) {
        if (killed) return; // the connection died with the server: this one was never acknowledged
        throw error;
      }
      if (!killed && acknowledged.length >= killAfterAcks) {
        killed = true;
        server.process.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, visitor));
  await server.process.exited;
  return { acknowledged, sent: next };
}

for (const synchronous of ["FULL", "NORMAL"] as const) {
  test(`with synchronous=${synchronous}, every lead acknowledged before a SIGKILL is in the table after a restart`, async () => {
    const dataDir = tempDataDir();
    const first = await start(dataDir, synchronous);
    // 120 acknowledged from 25 visitors at once: the kill lands with writes on their way (each lead
    // also queues its demo e-mail, rendered by the server: the CPU of this test).
    const { acknowledged } = await sendUntilDead(first, 25, 120);
    expect(first.process.signalCode).toBe("SIGKILL");
    expect(acknowledged.length).toBeGreaterThanOrEqual(120);

    // Start again on the same file: migrations and WAL recovery run, then it serves as before.
    const second = await start(dataDir, synchronous);
    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    cleanup.push(() => db.close());
    const stored = new Set(
      db
        .query<{ email: string }, []>("SELECT email FROM email_leads")
        .all()
        .map((r) => r.email),
    );
    const lost = acknowledged.filter((email) => !stored.has(email));
    expect(lost).toEqual([]);
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM email_leads WHERE email LIKE 'crash-%'").get()?.n).toBe(stored.size);
    const integrity = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get();
    expect(integrity?.integrity_check).toBe("ok");

    const after = await fetch(`${second.baseUrl}/api/leads`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.1" },
      body: JSON.stringify({ email: "after-restart@example.com", source: "exit_popup", ip_hash: null }),
    });
    expect(after.status).toBe(201);
  }, 90_000);
}

test("the owner can export the leads as CSV while the server is running", async () => {
  const dataDir = tempDataDir();
  const server = await start(dataDir, "FULL");
  for (const email of ["one@example.com", "two@example.com"]) {
    const res = await fetch(`${server.baseUrl}/api/leads`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, source: "exit_popup", ip_hash: null, locale: "en" }),
    });
    expect(res.status).toBe(201);
  }
  const exported = Bun.spawnSync({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "leads", "export"],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
  });
  expect(exported.exitCode).toBe(0);
  const lines = exported.stdout.toString().trim().split("\r\n");
  expect(lines[0]).toBe("id,email,source,locale,ip_hash,created_at,unsubscribed_at");
  expect(lines.slice(1).map((l) => l.split(",").slice(1, 4).join(","))).toEqual([
    "one@example.com,exit_popup,en",
    "two@example.com,exit_popup,en",
  ]);
  // The server kept working while the export read the file.
  expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
}, 90_000);
