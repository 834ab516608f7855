import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeS3, type FakeS3 } from "../support/fake-s3";
import { startServer, type RunningServer } from "../e2e/harness";
import { mailsTo, useSmtp } from "../support/smtp";

// The disaster drill, for real: the server replicates with Litestream while buyers pay and
// visitors sign up; it is killed outright, its data folder deleted, `restore` brings it back and
// the server starts again. Every acknowledged order, licence and lead is there, every key still
// verifies, and no e-mail goes out twice. Once to a folder (file://), once to a fake S3 on loopback
// (test/support/fake-s3.ts).

const ROOT = join(import.meta.dir, "..", "..");
const smtp = useSmtp();
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let s3: FakeS3;
beforeAll(() => {
  s3 = startFakeS3("site-backups");
});
afterAll(() => s3.stop());

async function buy(server: RunningServer, email: string): Promise<void> {
  const start = await fetch(`${server.baseUrl}/api/payment`, {
    method: "POST",
    headers: FORM,
    body: "locale=fr&acceptTerms=yes",
    redirect: "manual",
  });
  const cardPage = start.headers.get("location") ?? "";
  const card = new URLSearchParams({ email, name: "Camille", city: "Lyon", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  const paid = await fetch(`${server.baseUrl}${cardPage}`, { method: "POST", headers: FORM, body: card.toString(), redirect: "manual" });
  expect(paid.status).toBe(303);
}

async function signUp(server: RunningServer, email: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/leads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, source: "exit_popup", ip_hash: null, locale: "fr" }),
  });
  expect(response.status).toBe(201);
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

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await Bun.sleep(100);
  return check();
}

/** An owner command in its own process; not spawnSync, which would stall the fake S3 in this one. */
async function cli(args: string[], env: Record<string, string>) {
  const run = Bun.spawn({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "silent", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([run.exited, new Response(run.stdout).text(), new Response(run.stderr).text()]);
  return { code, out, err };
}

async function drill(name: string, backupEnv: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), `site-drill-${name}-`));
  const env = { ...backupEnv, SMTP_URL: smtp.url, DATA_DIR: dataDir };
  try {
    const first = await startServer({ dataDir, env });
    const buyers = [1, 2, 3].map((i) => `buyer${i}-${name}@example.com`);
    const visitors = [1, 2, 3].map((i) => `visitor${i}-${name}@example.com`);
    for (let i = 0; i < 3; i++) {
      await buy(first, buyers[i] ?? "");
      await signUp(first, visitors[i] ?? "");
    }
    const before = readRows(dataDir);
    expect(before.orders).toBe(3);
    const secret = readFileSync(join(dataDir, "ip-hash.secret"));
    // Every access e-mail and demo delivered, and the database's record of it replicated.
    expect(
      await until(() => buyers.every((b) => mailsTo(smtp, b).length === 1) && visitors.every((v) => mailsTo(smtp, v).length === 1), 20_000),
    ).toBe(true);
    const sentBefore = smtp.received.length;
    await Bun.sleep(3_000);
    const status = await cli(["backup", "status"], env);
    expect(status.out).toContain("Backups: on");
    expect(status.out).not.toContain("never");

    await first.stop("SIGKILL");
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

    const second = await startServer({ dataDir, env });
    try {
      for (const key of before.keys) {
        const verify = await fetch(`${second.baseUrl}/api/licenses/verify`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ key }),
        });
        expect(await verify.json()).toMatchObject({ valid: true });
      }
      await Bun.sleep(3_000);
      expect(smtp.received.length).toBe(sentBefore);
    } finally {
      await second.stop("SIGTERM");
    }
    expect(existsSync(join(dataDir, "site.db"))).toBe(true);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("replicated to a folder (file://): killed, data folder deleted, restored: every order, licence and lead back, keys verify, no e-mail twice", async () => {
  const replica = mkdtempSync(join(tmpdir(), "site-replica-"));
  try {
    await drill("file", { BACKUP_URL: `file://${replica}` });
  } finally {
    rmSync(replica, { recursive: true, force: true });
  }
}, 120_000);

test("replicated to S3-compatible storage (a fake S3 on loopback): the same drill, the IP-hash secret stored beside the replica", async () => {
  await drill("s3", {
    BACKUP_URL: "s3://site-backups/shop",
    BACKUP_S3_ENDPOINT: s3.url,
    BACKUP_S3_REGION: "us-east-1",
    BACKUP_S3_ACCESS_KEY_ID: "test-key-id",
    BACKUP_S3_SECRET_ACCESS_KEY: "test-secret-key",
  });
  expect(s3.unknown).toEqual([]);
  expect([...s3.objects.keys()].some((k) => k.startsWith("shop/site-files/"))).toBe(true);
}, 120_000);
