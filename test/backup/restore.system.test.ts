import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db/client";
import { litestreamBinary, litestreamConfig } from "../../server/platform/backup/litestream";
import { untilInReplica } from "./support";

// `site restore` as the owner runs it, in its own process: into a folder whose database is to be
// replaced (--force), and on a machine where Litestream cannot be found.

const ROOT = join(import.meta.dir, "..", "..");
let dir: string;
let replica: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "site-restore-test-"));
  replica = join(dir, "replica");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function restore(args: string[], env: Record<string, string>) {
  return Bun.spawnSync({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "restore", ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "silent", BACKUP_URL: `file://${replica}`, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

const leadsIn = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .query<{ email: string }, []>("SELECT email FROM email_leads ORDER BY email")
      .all()
      .map((r) => r.email);
  } finally {
    db.close();
  }
};

/** A replica holding one lead, made by Litestream itself from a database of the site's schema. */
async function makeReplica(): Promise<void> {
  const source = join(dir, "source", "site.db");
  const db = openDb(source, { autoCheckpoint: false });
  db.$client
    .query("INSERT INTO email_leads (email, source, locale, created_at) VALUES ('replicated@example.com', 'landing_form', 'fr', ?)")
    .run(Date.now());
  const config = join(dir, "litestream.yml");
  writeFileSync(config, litestreamConfig(source, { kind: "file", url: `file://${replica}`, path: replica }));
  const child = Bun.spawn({ cmd: [litestreamBinary(undefined), "replicate", "-config", config], stdout: "ignore", stderr: "ignore" });
  const snapshots = () => {
    const generations = join(replica, "generations");
    if (!existsSync(generations)) return false;
    return readdirSync(generations).some(
      (g) => existsSync(join(generations, g, "snapshots")) && readdirSync(join(generations, g, "snapshots")).length > 0,
    );
  };
  // Until a restore of the replica, as it is, holds the lead.
  const holdsLead = (r: Database) => r.query("SELECT 1 FROM email_leads WHERE email = 'replicated@example.com'").get() !== null;
  expect(await untilInReplica({ BACKUP_URL: `file://${replica}` }, holdsLead, 20_000)).toBe(true);
  child.kill("SIGTERM");
  await child.exited;
  db.$client.close();
  expect(snapshots()).toBe(true);
}

test("restore --force keeps the replaced database whole, its last commits in the write-ahead log included, and leaves no temporary file", async () => {
  await makeReplica();
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  const dbPath = join(dataDir, "site.db");
  // A server killed outright: its last lead is only in site.db-wal.
  const killed = Bun.spawnSync({
    cmd: [process.execPath, "run", join(import.meta.dir, "write-then-die.ts"), dbPath, "only-here@example.com"],
  });
  expect(killed.signalCode).toBe("SIGKILL");
  expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);
  // An e-mail that server wrote as a file: the restored copy never sent one, and will number its
  // first e-mail 1 again.
  mkdirSync(join(dataDir, "mail"));
  writeFileSync(join(dataDir, "mail", "1.eml"), "the replaced database's e-mail");

  const result = restore(["--force"], { DATA_DIR: dataDir });
  expect({ code: result.exitCode, err: result.stderr.toString() }).toEqual({ code: 0, err: "" });
  expect(leadsIn(dbPath)).toEqual(["replicated@example.com"]);
  // Counted in words that agree with the numbers.
  expect(result.stdout.toString()).toMatch(/ in \d+ ms: 0 orders, 0 licences, 1 lead\.\n/);
  const kept = readdirSync(dataDir).find((name) => /^site\.db\.before-restore-[^-]+-[\d-]+T[\d-]+Z$/.test(name));
  expect(kept).toBeDefined();
  expect(leadsIn(join(dataDir, kept ?? ""))).toEqual(["only-here@example.com"]);
  expect(readdirSync(dataDir).filter((name) => name.includes("restoring"))).toEqual([]);
  // Its e-mail file is kept aside, where the next e-mail numbered 1 cannot overwrite it.
  expect(readdirSync(join(dataDir, "mail"))).toEqual([]);
  const mailKept = readdirSync(dataDir).find((name) => name.startsWith("mail.before-restore-"));
  expect(readFileSync(join(dataDir, mailKept ?? "", "1.eml"), "utf8")).toBe("the replaced database's e-mail");
  expect(result.stdout.toString()).toContain(`Kept in ${join(dataDir, mailKept ?? "")}: 1 e-mail file the restored copy does not know`);
  // No payment provider to reconcile with: the restore does not send the owner to one.
  expect(result.stdout.toString()).not.toContain("reconcile");
}, 60_000);

test("restore where Litestream cannot be found names the setting to fix, without a stack trace, and changes nothing", () => {
  const dataDir = join(dir, "data");
  const result = restore([], { DATA_DIR: dataDir, LITESTREAM_PATH: join(dir, "no-litestream-here") });
  expect(result.exitCode).toBe(1);
  const said = result.stderr.toString();
  expect(said).toContain("LITESTREAM_PATH");
  expect(said).toContain("was not changed");
  expect(said).not.toContain("    at ");
  expect(existsSync(join(dataDir, "site.db"))).toBe(false);
});

test("restore --to-time after the replica's last change gives the database as of that change; before its first, says where it begins", async () => {
  await makeReplica();
  const dataDir = join(dir, "data");
  const later = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const result = restore(["--to-time", later], { DATA_DIR: dataDir });
  expect({ code: result.exitCode, err: result.stderr.toString() }).toEqual({ code: 0, err: "" });
  expect(result.stdout.toString()).toContain("Nothing changed in the replica between");
  expect(leadsIn(join(dataDir, "site.db"))).toEqual(["replicated@example.com"]);

  const elsewhere = join(dir, "earlier");
  const early = restore(["--to-time", "2000-01-01T00:00:00Z"], { DATA_DIR: elsewhere });
  expect(early.exitCode).toBe(1);
  expect(early.stderr.toString()).toMatch(
    /^The replica begins at \d{4}-\d{2}-\d{2}T[\d:.]+Z: it holds nothing as it was at 2000-01-01T00:00:00\.000Z/,
  );
  expect(existsSync(join(elsewhere, "site.db"))).toBe(false);
}, 60_000);
