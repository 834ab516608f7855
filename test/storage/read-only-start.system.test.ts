import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { openDb } from "../../db/client";
import { mountSmallDisk, type SmallDisk } from "../support/tmpfs";

// A server started on a data folder it cannot write says so in one line naming DATA_DIR and exits
// non-zero, rather than listening with a database it cannot write or printing a stack trace.

const ROOT = join(import.meta.dir, "..", "..");
let disk: SmallDisk | undefined;
afterEach(() => {
  disk?.unmount();
  disk = undefined;
});

async function startOn(dataDir: string) {
  const proc = Bun.spawn({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts")],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // Pages made at their first request: the start itself is under test, not its pages.
      PAGES_AT_START: "false",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  clearTimeout(killer);
  return { code, stdout, stderr: stderr.trim() };
}

test("a server started on an empty read-only data folder says so in one line naming DATA_DIR and exits non-zero", async () => {
  disk = mountSmallDisk({ readOnly: true });
  const started = await startOn(disk.dir);
  expect(started.code).not.toBe(0);
  expect(started.stdout).not.toContain("listening");
  expect(started.stderr.split("\n")).toHaveLength(1);
  expect(started.stderr).toContain(`DATA_DIR ${disk.dir} is not writable`);
  expect(started.stderr).toContain("read-only");
});

test("a server started on a data folder with its database, remounted read-only, refuses in one line rather than listening", async () => {
  disk = mountSmallDisk();
  openDb(join(disk.dir, "site.db")).$client.close();
  const remounted = Bun.spawnSync(["mount", "-o", "remount,ro", disk.dir]);
  expect(remounted.exitCode).toBe(0);
  const started = await startOn(disk.dir);
  expect(started.code).not.toBe(0);
  expect(started.stdout).not.toContain("listening");
  expect(started.stderr.split("\n")).toHaveLength(1);
  expect(started.stderr).toContain(`DATA_DIR ${disk.dir} is not writable`);
});
