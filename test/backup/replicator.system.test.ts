import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, openDb } from "../../db/client";
import { runCommand } from "../../server/owner/cli";
import { readClaim } from "../../server/platform/backup/claim";
import { ensureDatabaseId, readIdentity } from "../../server/platform/backup/identity";
import { litestreamBinary } from "../../server/platform/backup/litestream";
import { createReplicator, type Replicator } from "../../server/platform/backup/replicator";
import type { BackupTarget } from "../../server/platform/backup/settings";
import { readStatusFile, writeReplicationStatus } from "../../server/platform/backup/status";
import { loadConfig } from "../../server/platform/config";
import { createLogger } from "../../server/platform/log";
import { startupWarnings } from "../../server/platform/production-readiness";
import { startServer } from "../e2e/harness";
import { testConfig } from "../support/config";
import { endServer } from "../support/end-server";
import { PRODUCTION_READY_ENV } from "../support/production-env";
import { until } from "./support";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "site-replicator-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What `backup status` prints (standard output and error together); it always exits 0. */
async function backupStatus(config: Parameters<typeof runCommand>[1]): Promise<string> {
  let said = "";
  const add = (line: string) => {
    said += line;
  };
  expect(await runCommand(["backup", "status"], config, add, add)).toBe(0);
  return said;
}

/** A site's data folder with its database, and the replicator a server on it would run (real Litestream). */
function siteWith(dataDir: string, replica: string, options: { binary?: string; checkEveryMs?: number } = {}) {
  const config = testConfig({ BACKUP_URL: `file://${replica}` }, dataDir);
  const target: BackupTarget | null = config.backup;
  if (target === null) throw new Error("BACKUP_URL was not read");
  const db: Db = openDb(config.dbPath, { autoCheckpoint: false });
  const lines: string[] = [];
  const replicator = createReplicator({
    target,
    dbPath: config.dbPath,
    dataDir,
    binary: options.binary ?? litestreamBinary(undefined),
    log: createLogger("info", (line) => lines.push(line)),
    now: () => new Date(),
    identity: { read: () => readIdentity(db), ensureId: async () => ensureDatabaseId(db, new Date()) },
    checkpoint: () => db.$client.exec("PRAGMA wal_checkpoint(PASSIVE)"),
    checkEveryMs: options.checkEveryMs ?? 200,
  });
  const lead = (email: string) =>
    db.$client
      .query("INSERT INTO email_leads (email, source, locale, created_at) VALUES (?, 'landing_form', 'fr', ?)")
      .run(email, Date.now());
  return { config, db, lines, replicator, lead, target };
}

const said = (lines: string[], msg: string) => lines.some((line) => line.includes(`"msg":"${msg}`));
const replicated = (r: Replicator) => r.status().lastReplicatedAt !== null && r.status().running;

test("a server whose Litestream cannot be started says so in backup status, with the setting to fix, not 'is the server running?'", async () => {
  const { config, lines, replicator, db } = siteWith(dir, join(dir, "replica"), { binary: join(dir, "no-litestream-here") });
  replicator.start();
  expect(await until(() => replicator.status().lastError !== null, 10_000)).toBe(true);
  await replicator.stop();
  db.$client.close();

  const said = await backupStatus(config);
  expect(said).toContain("Backups: on");
  expect(said).toContain("LITESTREAM_PATH");
  expect(said).not.toContain("is the server running");
  expect(lines.some((line) => line.includes("nothing is replicated"))).toBe(true);
});

test("a database never writes into a replica another database holds; promoted, it takes the replica over and the other stops writing there; restore brings back the new primary's", async () => {
  const replica = join(dir, "replica");
  const a = siteWith(join(dir, "a"), replica);
  const b = siteWith(join(dir, "b"), replica);
  try {
    a.lead("a@example.com");
    a.replicator.start();
    expect(await until(() => replicated(a.replicator), 20_000)).toBe(true);
    const aId = readIdentity(a.db).id;
    expect((await readClaim(a.target))?.database).toBe(aId ?? "");

    b.lead("b@example.com");
    b.replicator.start();
    expect(await until(() => b.replicator.status().held !== null, 10_000)).toBe(true);
    expect(b.replicator.status().held).toContain(`belongs to another database (${aId}`);
    expect(b.replicator.status().held).toContain("site backup promote");
    expect(said(b.lines, "backup: not replicating")).toBe(true);
    // B never ran Litestream: no local state of its own, and the claim still names A alone.
    expect(existsSync(join(dir, "b", ".site.db-litestream"))).toBe(false);
    const status = await backupStatus(b.config);
    expect(status).toContain("Not replicating: the replica belongs to another database");

    let promoted = "";
    expect(
      await runCommand(
        ["backup", "promote"],
        b.config,
        (line) => (promoted += line),
        (line) => (promoted += line),
      ),
    ).toBe(0);
    expect(promoted).toContain(`The replica belonged to database ${aId}`);
    // Both look again every 200 ms here (10 s in a server): B starts, A stops without a last write.
    expect(await until(() => replicated(b.replicator) && a.replicator.status().held !== null, 20_000)).toBe(true);
    expect(a.replicator.status().held).toContain("belongs to another database");
    expect(said(a.lines, "backup: the replica was taken over by another database")).toBe(true);
    const bId = readIdentity(b.db).id;
    expect(await until(async () => (await readClaim(b.target))?.generations.some((g) => g.database === bId) === true, 10_000)).toBe(true);

    // A keeps taking writes; none reach the replica. The restore is B's database.
    a.lead("a-later@example.com");
    await a.replicator.stop();
    await b.replicator.stop();
    const c = testConfig({ BACKUP_URL: `file://${replica}` }, join(dir, "c"));
    let restored = "";
    expect(
      await runCommand(
        ["restore"],
        c,
        (line) => (restored += line),
        (line) => (restored += line),
      ),
    ).toBe(0);
    const leads = openDb(c.dbPath)
      .$client.query<{ email: string }, []>("SELECT email FROM email_leads ORDER BY email")
      .all()
      .map((r) => r.email);
    expect(leads).toEqual(["b@example.com"]);
  } finally {
    await a.replicator.stop();
    await b.replicator.stop();
    a.db.$client.close();
    b.db.$client.close();
  }
}, 90_000);

test("the status file keeps up: a replication shortly after another is written once the interval has passed, not dropped", async () => {
  const site = siteWith(join(dir, "data"), join(dir, "replica"));
  try {
    site.replicator.start();
    expect(await until(() => replicated(site.replicator), 20_000)).toBe(true);
    const first = site.replicator.status().lastReplicatedAt?.getTime() ?? 0;
    site.lead("later@example.com");
    // Litestream sends the new lead within a second or so: well inside the file's 5 s interval.
    expect(await until(() => (site.replicator.status().lastReplicatedAt?.getTime() ?? 0) > first, 10_000)).toBe(true);
    const latest = site.replicator.status().lastReplicatedAt?.getTime() ?? 0;
    // Written when the interval has passed (at most 5 s later), not left for the next replication
    // (Litestream may report a further segment meanwhile: the file then shows that one).
    const written = () => Date.parse(readStatusFile(site.config.dataDir)?.lastReplicatedAt ?? "") >= latest;
    expect(await until(written, 15_000)).toBe(true);
  } finally {
    await site.replicator.stop();
    site.db.$client.close();
  }
}, 60_000);

test("the last replication shown is the one Litestream reports, at its own time, and in the file within a second", async () => {
  // A stand-in for Litestream's output only (the replica is checked by the tests above with the
  // real one): two segments written 1.5 s apart, each line with the time Litestream wrote it.
  const fake = join(dir, "litestream");
  const line = (at: string) =>
    `echo "time=${at} level=INFO msg=\\"wal segment written\\" db=x replica=file position=0123456789abcdef/00000000:4120 elapsed=1ms sz=4120" >&2`;
  const first = new Date(Date.now() - 3_000).toISOString();
  writeFileSync(fake, `#!/bin/sh\n${line(first)}\nsleep 1.5\n${line("$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)")}\nsleep 60\n`, { mode: 0o755 });
  const site = siteWith(join(dir, "data"), join(dir, "replica"), { binary: fake });
  try {
    site.replicator.start();
    // Not the moment this process read the line (later, and later still when it is busy): Litestream's.
    expect(await until(() => site.replicator.status().lastReplicatedAt?.toISOString() === first, 20_000)).toBe(true);
    expect(await until(() => readStatusFile(site.config.dataDir)?.lastReplicatedAt === first, 5_000)).toBe(true);
    // The second segment, reported while the file was written less than a second before, is in it
    // once that second has passed (the deadline is a bound for a loaded machine, not the measure).
    expect(await until(() => (site.replicator.status().lastReplicatedAt?.getTime() ?? 0) > Date.parse(first), 10_000)).toBe(true);
    const second = site.replicator.status().lastReplicatedAt?.toISOString();
    expect(await until(() => readStatusFile(site.config.dataDir)?.lastReplicatedAt === second, 10_000)).toBe(true);
  } finally {
    await site.replicator.stop();
    site.db.$client.close();
  }
}, 60_000);

test("after a normal restart, backup status says the last replication (not never) and no start-up warning once replication works", async () => {
  const dataDir = join(dir, "data");
  const replica = join(dir, "replica");
  const first = siteWith(dataDir, replica);
  first.replicator.start();
  expect(await until(() => replicated(first.replicator), 20_000)).toBe(true);
  await first.replicator.stop();
  const before = readStatusFile(dataDir)?.lastReplicatedAt ?? "";
  expect(before).not.toBe("");
  // A write while nothing replicates: Litestream warns at its next start ("cannot determine last
  // wal position", "wal header mismatch") and begins a new generation, which works.
  first.lead("between@example.com");
  first.db.$client.close();

  const second = siteWith(dataDir, replica);
  try {
    second.replicator.start();
    const statusNow = () => backupStatus(second.config);
    expect(await statusNow()).toContain(`Last replication: ${before}`);
    expect(await until(() => said(second.lines, "backup: replicated"), 20_000)).toBe(true);
    const after = await statusNow();
    expect(after).not.toContain("never");
    expect(after).not.toContain("Last problem");
    expect(Date.parse(/Last replication: (\S+)/.exec(after)?.[1] ?? "")).toBeGreaterThan(Date.parse(before));
  } finally {
    await second.replicator.stop();
    second.db.$client.close();
  }
}, 60_000);

test("backup status without BACKUP_URL says backups are off here, and also what the status file a replicating server wrote says", async () => {
  const config = testConfig({}, dir);
  const status = () => backupStatus(config);
  expect(await status()).toBe("Backups: off in this environment (BACKUP_URL is not set).\n");
  writeReplicationStatus(dir, {
    enabled: true,
    target: "s3://backups.example/site",
    running: true,
    lastReplicatedAt: new Date("2026-11-20T08:30:00Z"),
    lastError: null,
    restarts: 0,
  });
  const said = await status();
  expect(said).toStartWith("Backups: off in this environment (BACKUP_URL is not set).\n");
  expect(said).toContain(
    `But ${join(dir, "backup-status.json")} says a server replicates to s3://backups.example/site, last replication: 2026-11-20T08:30:00.000Z.`,
  );
  expect(said).toContain("its BACKUP_URL");
});

test("a litestream beside the executable is the one run, unless LITESTREAM_PATH names another", () => {
  const beside = join(dir, "litestream");
  writeFileSync(beside, "#!/bin/sh\n", { mode: 0o755 });
  expect(litestreamBinary(undefined, dir)).toBe(beside);
  expect(litestreamBinary("/opt/litestream/bin/litestream", dir)).toBe("/opt/litestream/bin/litestream");
  expect(litestreamBinary(undefined, join(dir, "elsewhere"))).not.toBe(beside);
});

/** The start-up line ("listening on …") as logged. */
const listeningLine = (output: string[]) => JSON.parse(output.find((line) => line.includes('"msg":"listening on')) ?? "{}");

test("the start-up log says whether backups are on and when the last replication happened, and the first replication of the run", async () => {
  const dataDir = join(dir, "data");
  const env = { BACKUP_URL: `file://${join(dir, "replica")}`, WORKERS: "1" };
  const first = await startServer({ dataDir, env });
  let replicated: { at?: string } = {};
  try {
    expect(listeningLine(first.output)).toMatchObject({ backup: env.BACKUP_URL, lastReplication: "never" });
    expect(await until(() => first.output.some((l) => l.includes('"msg":"backup: replicated"')), 20_000)).toBe(true);
    replicated = JSON.parse(first.output.find((l) => l.includes('"msg":"backup: replicated"')) ?? "{}");
    expect(replicated.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  } finally {
    await first.stop("SIGTERM");
  }
  // Only their start-up line is read: how these two stop is not under test (a SIGTERM drains for a second).
  const second = await startServer({ dataDir, env });
  try {
    const line = listeningLine(second.output);
    expect(line.backup).toBe(env.BACKUP_URL);
    expect(Date.parse(line.lastReplication)).toBeGreaterThanOrEqual(Date.parse(replicated.at ?? ""));
  } finally {
    await endServer(second);
  }
  const off = await startServer({ dataDir: join(dir, "off"), env: { WORKERS: "1" } });
  try {
    expect(listeningLine(off.output).backup).toBe("off");
    expect(listeningLine(off.output).lastReplication).toBeUndefined();
  } finally {
    await endServer(off);
  }
}, 60_000);

test("in production an unset BACKUP_URL is a start-up warning; set, it is not", () => {
  const ready = { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" };
  const unset = startupWarnings(loadConfig(ready));
  expect(unset.filter((w) => w.startsWith("BACKUP_URL is not set"))).toHaveLength(1);
  const set = startupWarnings(loadConfig({ ...ready, BACKUP_URL: "s3://site-backups/shop" }));
  expect(set.filter((w) => w.includes("BACKUP_URL"))).toEqual([]);
});
