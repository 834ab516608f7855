import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../../server/owner/cli";
import { litestreamBinary } from "../../server/platform/backup/litestream";
import { createReplicator } from "../../server/platform/backup/replicator";
import { writeReplicationStatus } from "../../server/platform/backup/status";
import { createLogger } from "../../server/platform/log";
import { startupWarnings } from "../../server/platform/production-readiness";
import { loadConfig } from "../../server/platform/config";
import { startServer } from "../e2e/harness";
import { testConfig } from "../support/config";
import { PRODUCTION_READY_ENV } from "../support/production-env";

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

test("a server whose Litestream cannot be started says so in backup status, with the setting to fix, not 'is the server running?'", async () => {
  const config = testConfig({ BACKUP_URL: `file://${join(dir, "replica")}` }, dir);
  if (config.backup === null) throw new Error("BACKUP_URL was not read");
  const lines: string[] = [];
  const replicator = createReplicator({
    target: config.backup,
    dbPath: config.dbPath,
    dataDir: dir,
    binary: join(dir, "no-litestream-here"),
    log: createLogger("error", (line) => lines.push(line)),
    now: () => new Date(),
  });
  replicator.start();
  await replicator.stop();

  const said = await backupStatus(config);
  expect(said).toContain("Backups: on");
  expect(said).toContain("LITESTREAM_PATH");
  expect(said).not.toContain("is the server running");
  expect(lines.some((line) => line.includes("nothing is replicated"))).toBe(true);
});

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
    for (let i = 0; i < 200 && replicated.at === undefined; i++) {
      const line = first.output.find((l) => l.includes('"msg":"backup: replicated"'));
      if (line !== undefined) replicated = JSON.parse(line);
      else await Bun.sleep(100);
    }
    expect(replicated.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  } finally {
    await first.stop("SIGTERM");
  }
  const second = await startServer({ dataDir, env });
  try {
    const line = listeningLine(second.output);
    expect(line.backup).toBe(env.BACKUP_URL);
    expect(Date.parse(line.lastReplication)).toBeGreaterThanOrEqual(Date.parse(replicated.at ?? ""));
  } finally {
    await second.stop("SIGTERM");
  }
  const off = await startServer({ dataDir: join(dir, "off"), env: { WORKERS: "1" } });
  try {
    expect(listeningLine(off.output).backup).toBe("off");
    expect(listeningLine(off.output).lastReplication).toBeUndefined();
  } finally {
    await off.stop("SIGTERM");
  }
}, 60_000);

test("in production an unset BACKUP_URL is a start-up warning; set, it is not", () => {
  const ready = { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" };
  const unset = startupWarnings(loadConfig(ready));
  expect(unset.filter((w) => w.startsWith("BACKUP_URL is not set"))).toHaveLength(1);
  const set = startupWarnings(loadConfig({ ...ready, BACKUP_URL: "s3://site-backups/shop" }));
  expect(set.filter((w) => w.includes("BACKUP_URL"))).toEqual([]);
});
