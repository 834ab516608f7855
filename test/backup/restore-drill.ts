import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { readClaim } from "../../server/platform/backup/claim";
import { startServer } from "../e2e/harness";
import { endServer } from "../support/end-server";
import type { FakeS3 } from "../support/fake-s3";
import type { TestSmtp } from "../support/smtp";
import { buy, cli, processMentions, targetOf, until, untilInReplica } from "./support";

// The restore drill as an owner does it, with the live site's own settings: restore into another
// folder, start a server on the copy with the same BACKUP_URL, use it (a licence disabled, a sale
// made there), while the live site sells on. The copy must not write a byte into the live replica,
// so the next restore brings back the live shop: its later sale there, the licence still active.

// Run once per kind of replica, each from a test file of its own (drill.system.test.ts, drill-s3.system.test.ts)
// so that the two run side by side in the test tier rather than one after the other.

type Contents = Map<string, string>;

/** Every object of the replica (path below BACKUP_URL -> sha256), for a file:// or the fake S3 replica. */
function contents(kind: "file" | "s3", replica: string, s3: FakeS3 | undefined): Contents {
  const found: Contents = new Map();
  const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  if (kind === "s3") {
    for (const [key, bytes] of s3?.objects ?? [])
      if (key.startsWith(`${replica}/`)) found.set(key.slice(replica.length + 1), digest(bytes));
    return found;
  }
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.set(relative(replica, path), digest(readFileSync(path)));
    }
  };
  walk(replica);
  return found;
}

const generations = (c: Contents) =>
  [...new Set([...c.keys()].map((k) => /^generations\/([0-9a-f]{16})\//.exec(k)?.[1]).filter((g) => g !== undefined))].sort();
/** The files beside the replica, but for the claim (the live server lists its own generations in it). */
const siteFiles = (c: Contents) => [...c].filter(([k]) => k.startsWith("site-files/") && k !== "site-files/database.json").sort();

function readDb<T>(dataDir: string, read: (db: Database) => T): T {
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const paidEmails = (db: Database) =>
  db
    .query<{ email: string }, []>("SELECT customer_email AS email FROM orders WHERE status = 'paid' ORDER BY id")
    .all()
    .map((r) => r.email);
const unsent = (db: Database) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_outbox WHERE status <> 'sent'").get()?.n ?? 0;

/** The drill against one replica: `s3` is the fake S3 when the replica is there. */
export async function restoreDrill(
  kind: "file" | "s3",
  backupEnv: Record<string, string>,
  replica: string,
  { smtp, s3 }: { smtp: TestSmtp; s3?: FakeS3 },
) {
  const root = mkdtempSync(join(tmpdir(), `site-drill-copy-${kind}-`));
  const liveDir = join(root, "live");
  const copyDir = join(root, "copy");
  const laterDir = join(root, "later");
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  const env = { ...backupEnv, SMTP_URL: smtp.url, WORKERS: "1" };
  const first = `first-${kind}@example.com`;
  const second = `second-${kind}@example.com`;
  try {
    const live = await startServer({ dataDir: liveDir, env });
    try {
      await buy(live.baseUrl, first);
      // In the replica, its access e-mail recorded as sent.
      expect(await untilInReplica(env, (db) => paidEmails(db).includes(first) && unsent(db) === 0, 60_000)).toBe(true);

      const restored = await cli(["restore"], { ...env, DATA_DIR: copyDir });
      expect({ code: restored.code, err: restored.err }).toEqual({ code: 0, err: "" });
      expect(restored.out).toContain("1 order");
      expect(restored.out).toContain("site backup promote");
      const before = contents(kind, replica, s3);
      expect(generations(before).length).toBeGreaterThan(0);

      const copy = await startServer({ dataDir: copyDir, env });
      try {
        const started = JSON.parse(copy.output.find((line) => line.includes('"msg":"listening on')) ?? "{}");
        expect(started.notReplicating).toContain("site backup promote");
        // The replicator's decision, logged once it has looked at the database.
        expect(await until(() => copy.output.some((line) => line.includes('"msg":"backup: not replicating"')), 60_000)).toBe(true);
        const key = readDb(copyDir, (db) => db.query<{ key: string }, []>("SELECT key FROM licenses").get()?.key ?? "");
        expect((await cli(["licenses", "disable", key], { ...env, DATA_DIR: copyDir })).code).toBe(0);
        await buy(copy.baseUrl, `drill-${kind}@example.com`);
        const status = await cli(["backup", "status"], { ...env, DATA_DIR: copyDir });
        expect(status.out).toContain("Not replicating: this database was restored from");
        expect(status.out).toContain("site backup promote");

        await buy(live.baseUrl, second);
        expect(await untilInReplica(env, (db) => paidEmails(db).includes(second), 60_000)).toBe(true);
      } finally {
        await copy.stop("SIGTERM");
      }
      // The copy started no generation and changed none of the files beside the replica.
      const after = contents(kind, replica, s3);
      expect(generations(after)).toEqual(generations(before));
      expect(siteFiles(after)).toEqual(siteFiles(before));
      // The claim beside the replica still names the live database alone.
      const liveId = readDb(
        liveDir,
        (db) => db.query<{ value: string }, []>("SELECT value FROM site_settings WHERE key = 'database_id'").get()?.value,
      );
      const claim = await readClaim(targetOf(env));
      expect(claim?.database).toBe(liveId ?? "");
      expect(claim?.generations.map((g) => g.database)).toEqual(claim?.generations.map(() => liveId ?? ""));
      expect(readDb(copyDir, paidEmails)).toEqual([first, `drill-${kind}@example.com`]);
    } finally {
      // Its second sale is in the replica already: how it stops is not under test, and a SIGTERM
      // drains for up to 4 s after the test's kept-alive requests. Its Litestream ends with it, but
      // not in the same instant: one still running could write into the replica being restored.
      await endServer(live);
      expect(await until(() => !processMentions(liveDir), 10_000)).toBe(true);
    }

    const again = await cli(["restore"], { ...env, DATA_DIR: laterDir });
    expect({ code: again.code, err: again.err }).toEqual({ code: 0, err: "" });
    expect(again.out).toContain("2 orders");
    expect(readDb(laterDir, paidEmails)).toEqual([first, second]);
    expect(readDb(laterDir, (db) => db.query<{ status: string }, []>("SELECT status FROM licenses ORDER BY id").all())).toEqual([
      { status: "active" },
      { status: "active" },
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
