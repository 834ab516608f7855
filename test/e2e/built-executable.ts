import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "bun";

// One build of the executable per test run, shared by the files that run it. `bun test --parallel`
// runs files in two worker processes, and scripts/build.ts starts by deleting dist/: two builds at
// once would pull the executable from under each other. A lock directory makes them take turns, and a
// stamp naming the run lets the second file use the first one's build instead of making its own.

const root = join(import.meta.dir, "..", "..");
const dist = join(root, "dist");
const lock = join(root, "dist.test-lock");
const stamp = join(dist, "test-run");
/** A lock older than any build is left over by a run that was killed: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/** A process as itself at this moment: its pid and its start time (a pid alone may be reused). */
function processId(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return `${pid}@${stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]}`;
  } catch {
    return null;
  }
}

/** This run: the `bun test` process whose workers run the files (the parent of a worker), or this one. */
function runId(): string {
  let parentIsTestRunner = false;
  try {
    const cmdline = readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").split("\0");
    parentIsTestRunner = cmdline.some((arg) => /(^|\/)bun(\.exe)?$/.test(arg)) && cmdline.includes("test");
  } catch {}
  return (parentIsTestRunner ? processId(process.ppid) : null) ?? processId(process.pid) ?? String(process.pid);
}

async function takeLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {}
      // The other worker is building (about 20 s alone): look again shortly.
      await Bun.sleep(250);
    }
  }
}

let built: Promise<string> | null = null;

/** The path of `dist/site`, built once for this test run. */
export function builtExecutable(): Promise<string> {
  built ??= (async () => {
    const run = runId();
    await takeLock();
    try {
      const done = existsSync(join(dist, "site")) && existsSync(stamp) && readFileSync(stamp, "utf8") === run;
      if (!done) {
        const build = spawn({ cmd: [process.execPath, "run", "scripts/build.ts"], cwd: root, stdout: "pipe", stderr: "pipe" });
        const [code, out, err] = await Promise.all([build.exited, new Response(build.stdout).text(), new Response(build.stderr).text()]);
        if (code !== 0) throw new Error(`npm run build failed (${code}):\n${out}\n${err}`);
        writeFileSync(stamp, run);
      }
      return join(dist, "site");
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  })();
  return built;
}
