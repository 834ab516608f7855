// The CPU time of one server start, the figure a busy machine changes least: the server started
// with one process (WORKERS=1) until its log says "pages ready", then stopped with SIGTERM; the
// user+system time of the process and of the processes it waited for (the page renderer), read
// from the kernel when it exits. Median of N starts on an empty data folder (a first start:
// creates and migrates the database) and on the same folder again (a restart).
//   ./node_modules/.bin/bun run bench/start-cpu.ts [N, default 5] [--exe=dist/site] [--node-env=test]
// Without --exe: `bun run server/main.ts`, as the tests start it (--node-env=test: with the
// environment of `bun test`, which loads React's development build). Prints figures; asserts nothing.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const exe = args.find((a) => a.startsWith("--exe="))?.slice(6);
const nodeEnv = args.find((a) => a.startsWith("--node-env="))?.slice(11);
const command = exe !== undefined ? [exe] : [process.execPath, "run", join(root, "server/main.ts")];
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown CPU";

/** One start to "pages ready" and its stop: CPU ms (the process and its reaped children) and wall ms to the log line. */
async function start(dataDir: string): Promise<{ cpu: number; wall: number }> {
  const t0 = performance.now();
  const child = Bun.spawn(command, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: "http://localhost:3000",
      WORKERS: "1",
      LOG_LEVEL: "info",
      ...(nodeEnv !== undefined ? { NODE_ENV: nodeEnv } : {}),
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  let wall = 0;
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the server exited before its pages were ready:\n${text}`);
    text += decoder.decode(value, { stream: true });
    if (text.includes('"pages ready"')) {
      wall = performance.now() - t0;
      break;
    }
  }
  child.kill("SIGTERM");
  void reader.cancel();
  await child.exited;
  const usage = child.resourceUsage();
  return { cpu: usage === undefined ? Number.NaN : Number(usage.cpuTime.total) / 1000, wall };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const show = (xs: { cpu: number; wall: number }[]) =>
  `CPU median ${median(xs.map((x) => x.cpu)).toFixed(0)} ms (${xs.map((x) => x.cpu.toFixed(0)).join(", ")}); to "pages ready" median ${median(xs.map((x) => x.wall)).toFixed(0)} ms`;

console.log(`${cpuModel}, ${availableParallelism()} cores; load average at start: ${load()}`);
console.log(`${command.join(" ")}${nodeEnv !== undefined ? ` (NODE_ENV=${nodeEnv})` : ""}, ${runs} runs`);
const firsts: { cpu: number; wall: number }[] = [];
const restarts: { cpu: number; wall: number }[] = [];
const work = mkdtempSync(join(tmpdir(), "start-cpu-"));
try {
  for (let i = 0; i < runs; i++) {
    const dataDir = join(work, `data-${i}`);
    firsts.push(await start(dataDir));
    restarts.push(await start(dataDir));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`  first start (empty data folder): ${show(firsts)}`);
console.log(`  restart (same data folder):      ${show(restarts)}`);
console.log(`load average at end: ${load()}`);
