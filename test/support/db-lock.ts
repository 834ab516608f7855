import { join } from "node:path";

/**
 * A write lock on a SQLite file held by another process, as the owner's `sqlite3` CLI holds it
 * after `BEGIN IMMEDIATE`. A child `bun` process rather than the `sqlite3` CLI itself: the CLI is
 * not installed everywhere the tests run, and the lock is SQLite's own file lock either way.
 */
export type HeldLock = {
  /** Lets go of the lock and resolves once the holder has ended. */
  release(): Promise<void>;
};

const SCRIPT = join(import.meta.dir, "hold-db-lock.ts");

export async function holdDbLock(path: string): Promise<HeldLock> {
  const holder = Bun.spawn({ cmd: [process.execPath, "run", SCRIPT, path], stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const reader = holder.stdout.getReader();
  let said = "";
  while (!said.includes("locked\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the lock holder ended before locking: ${await new Response(holder.stderr).text()}`);
    said += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    async release() {
      await holder.stdin.end();
      await holder.exited;
    },
  };
}
