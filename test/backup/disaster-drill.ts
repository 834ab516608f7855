import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../e2e/harness";
import { endServer } from "../support/end-server";
import { mailsTo, type TestSmtp } from "../support/smtp";
import { buy, cli, processMentions, until, untilInReplica } from "./support";

// The disaster drill, for real: the server replicates with Litestream while buyers pay and
// visitors sign up; it is killed outright, its data folder deleted, `restore` brings it back,
// `backup promote` makes the copy the primary and the server starts again, replicating. Every
// acknowledged order, licence and lead is there, every key still verifies, and no e-mail goes out
// twice. Once to a folder (file://), once to a fake S3 on loopback
// (test/support/fake-s3.ts), each from a test file of its own (replication.system.test.ts,
// replication-s3.system.test.ts) so that the two run side by side in the test tier.

async function signUp(server: RunningServer, email: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/leads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, source: "exit_popup", ip_hash: null, locale: "fr" }),
  });
  expect(response.status).toBe(201);
}

function readOutbox(dataDir: string) {
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    return { unsent: db.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_outbox WHERE status <> 'sent'").get()?.n ?? -1 };
  } finally {
    db.close();
  }
}

function readRows(dataDir: string) {
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    const orders = db.query<{ id: number; status: string }, []>("SELECT id, status FROM orders WHERE status = 'paid' ORDER BY id").all();
    const keys = db
      .query<{ key: string }, []>("SELECT key FROM licenses ORDER BY key")
      .all()
      .map((r) => r.key);
    const leads = db
      .query<{ email: string }, []>("SELECT email FROM email_leads ORDER BY email")
      .all()
      .map((r) => r.email);
    return { orders: orders.length, keys, leads };
  } finally {
    db.close();
  }
}

/** The drill against one replica, with `smtp` as the site's mail server. */
export async function disasterDrill(name: string, backupEnv: Record<string, string>, smtp: TestSmtp) {
  const dataDir = mkdtempSync(join(tmpdir(), `site-drill-${name}-`));
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  const env = { ...backupEnv, SMTP_URL: smtp.url, DATA_DIR: dataDir, WORKERS: "1" };
  try {
    const first = await startServer({ dataDir, env });
    const buyers = [1, 2, 3].map((i) => `buyer${i}-${name}@example.com`);
    const visitors = [1, 2, 3].map((i) => `visitor${i}-${name}@example.com`);
    for (let i = 0; i < 3; i++) {
      await buy(first.baseUrl, buyers[i] ?? "");
      await signUp(first, visitors[i] ?? "");
    }
    const before = readRows(dataDir);
    expect(before.orders).toBe(3);
    const secret = readFileSync(join(dataDir, "ip-hash.secret"));
    // Every access e-mail and demo delivered, and the database's record of it replicated.
    expect(
      await until(() => buyers.every((b) => mailsTo(smtp, b).length === 1) && visitors.every((v) => mailsTo(smtp, v).length === 1), 60_000),
    ).toBe(true);
    const sentBefore = smtp.received.length;
    // The replica holds every order, and every message recorded as sent (what a restore gets back).
    const inReplica = (db: Database) =>
      db.query<{ n: number }, []>("SELECT count(*) AS n FROM orders WHERE status = 'paid'").get()?.n === 3 &&
      db.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_outbox WHERE status <> 'sent'").get()?.n === 0 &&
      db.query<{ n: number }, []>("SELECT count(*) AS n FROM email_leads").get()?.n === 3;
    expect(await untilInReplica(env, inReplica, 60_000)).toBe(true);
    const status = await cli(["backup", "status"], env);
    expect(status.out).toContain("Backups: on");
    expect(status.out).not.toContain("never");

    await first.stop("SIGKILL");
    // The kernel ends the server's Litestream with it, but not in the same instant: one still
    // running could write into the folder about to be deleted.
    expect(await until(() => !processMentions(dataDir), 10_000)).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });

    const restored = await cli(["restore"], env);
    expect({ code: restored.code, err: restored.err }).toEqual({ code: 0, err: "" });
    expect(restored.out).toContain("3 orders");
    expect(readRows(dataDir)).toEqual(before);
    expect(readFileSync(join(dataDir, "ip-hash.secret"))).toEqual(secret);
    // A second restore would replace the database: refused without --force.
    const again = await cli(["restore"], env);
    expect(again.code).toBe(1);
    expect(again.err).toContain("--force");

    // The shop's own database lost, its restored copy becomes the primary: the owner says so.
    const promoted = await cli(["backup", "promote"], env);
    expect({ code: promoted.code, err: promoted.err }).toEqual({ code: 0, err: "" });
    expect(promoted.out).toContain("is now the primary");

    const second = await startServer({ dataDir, env });
    try {
      expect(await until(() => second.output.some((line) => line.includes('"msg":"backup: replicated"')), 60_000)).toBe(true);
      for (const key of before.keys) {
        const verify = await fetch(`${second.baseUrl}/api/licenses/verify`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ key }),
        });
        expect(await verify.json()).toMatchObject({ valid: true });
      }
      // Nothing is left to send in the restored outbox. A new sign-up's e-mail shows the sender has
      // made a pass since it started: a duplicate of an old message would have gone out with it.
      expect(readOutbox(dataDir)).toEqual({ unsent: 0 });
      const newcomer = `newcomer-${name}@example.com`;
      await signUp(second, newcomer);
      expect(await until(() => mailsTo(smtp, newcomer).length === 1, 60_000)).toBe(true);
      expect(smtp.received.length).toBe(sentBefore + 1);
    } finally {
      await endServer(second);
    }
    expect(existsSync(join(dataDir, "site.db"))).toBe(true);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
