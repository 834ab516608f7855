import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../../server/owner/cli";
import { litestreamBinary } from "../../server/platform/backup/litestream";
import { createReplicator } from "../../server/platform/backup/replicator";
import { createLogger } from "../../server/platform/log";
import { testConfig } from "../support/config";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "site-replicator-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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

  let said = "";
  const code = await runCommand(
    ["backup", "status"],
    config,
    (line) => {
      said += line;
    },
    (line) => {
      said += line;
    },
  );
  expect(code).toBe(0);
  expect(said).toContain("Backups: on");
  expect(said).toContain("LITESTREAM_PATH");
  expect(said).not.toContain("is the server running");
  expect(lines.some((line) => line.includes("nothing is replicated"))).toBe(true);
});

test("a litestream beside the executable is the one run, unless LITESTREAM_PATH names another", () => {
  const beside = join(dir, "litestream");
  writeFileSync(beside, "#!/bin/sh\n", { mode: 0o755 });
  expect(litestreamBinary(undefined, dir)).toBe(beside);
  expect(litestreamBinary("/opt/litestream/bin/litestream", dir)).toBe("/opt/litestream/bin/litestream");
  expect(litestreamBinary(undefined, join(dir, "elsewhere"))).not.toBe(beside);
});
