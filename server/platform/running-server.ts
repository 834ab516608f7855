import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";

/**
 * The server running on a data folder, as its first process records it (DATA_DIR/server.json): a
 * new executable started on the same folder and port finds here whom it replaces. It listens
 * beside it on the shared port (SO_REUSEPORT), and once ready tells it to stop (SIGTERM), which
 * it does without refusing a request (http/drain.ts). Written once listening, removed at the end
 * by the process it names only.
 */
export type RunningServer = { pid: number; port: number; version: string };

const FILE = "server.json";

const RunningServerSchema = v.object({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
  version: v.string(),
});

export function recordRunningServer(dataDir: string, server: RunningServer): void {
  const path = join(dataDir, FILE);
  // Written whole then renamed: a successor never reads half a record.
  writeFileSync(`${path}.tmp`, `${JSON.stringify(server)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** The server recorded on this folder when its process is still alive; null otherwise. */
export function runningServer(dataDir: string): RunningServer | null {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  if (!v.is(RunningServerSchema, parsed)) return null;
  if (parsed.pid === process.pid || !isAlive(parsed.pid)) return null;
  return parsed;
}

/** Removes the record if it still names this process (a successor has written its own otherwise). */
export function forgetRunningServer(dataDir: string): void {
  const path = join(dataDir, FILE);
  try {
    const record: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (v.is(RunningServerSchema, record) && record.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // No record, or not readable: nothing of this process's to remove.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (_error) {
    // EPERM: alive, but another user's; not a process this one may replace.
    return false;
  }
}
