// Replacing a running executable with a new one under load (docs/owner/deploy.md, "Upgrading"):
// wrk keeps 50 connections busy on the site while a second executable starts on the same port and
// data folder, takes over, and the first one drains and exits. Prints the requests, the failed ones
// (socket errors and non-2xx) and the longest answer during the whole run, swap included.
//   npm run build && ./node_modules/.bin/bun run bench/swap.ts [path/to/site] [seconds]

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Subprocess, spawn } from "bun";

const executable = process.argv[2] ?? join(import.meta.dir, "..", "dist", "site");
const seconds = Number(process.argv[3] ?? 20);
const work = mkdtempSync(join(tmpdir(), "site-swap-bench-"));
const dataDir = join(work, "data");

const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
const port = probe.port;
probe.stop(true);

// Two copies, as an owner has the old and the new executable side by side.
const old = join(work, "site-old");
const next = join(work, "site-new");
copyFileSync(executable, old);
copyFileSync(executable, next);
Bun.spawnSync(["chmod", "+x", old, next]);

const env = { PATH: process.env.PATH ?? "", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info" };

function start(path: string): { proc: Subprocess<"ignore", "pipe", "inherit">; line: (pattern: RegExp) => Promise<string> } {
  const proc = spawn({ cmd: [path], env, stdout: "pipe", stderr: "inherit", stdin: "ignore" });
  // Read all the time: a pipe nobody empties would stop the server at its next log line.
  const lines: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    const reader = proc.stdout.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = parts.pop() ?? "";
      for (const l of parts) if (!l.includes('"msg":"request"')) lines.push(l);
    }
  })();
  const line = async (pattern: RegExp) => {
    for (;;) {
      const found = lines.find((l) => pattern.test(l));
      if (found !== undefined) return found;
      if (proc.exitCode !== null) throw new Error(`${path} exited:\n${lines.join("\n")}`);
      await Bun.sleep(20);
    }
  };
  return { proc, line };
}

try {
  const first = start(old);
  await first.line(/"pages ready"/);
  await first.line(/worker listening/);
  const url = `http://127.0.0.1:${port}/en`;
  const wrk = spawn({ cmd: ["wrk", "-t2", "-c50", `-d${seconds}s`, "--latency", url], stdout: "pipe", stderr: "pipe" });
  // A third of the run on the old executable alone, then the swap.
  await Bun.sleep((seconds * 1000) / 3);
  const swapStarted = performance.now();
  const second = start(next);
  await second.line(/replaced the server running before/);
  const code = await first.proc.exited;
  const swapMs = Math.round(performance.now() - swapStarted);
  const report = await new Response(wrk.stdout).text();
  await wrk.exited;
  second.proc.kill("SIGTERM");
  await second.proc.exited;

  const requests = Number(/(\d+) requests in/.exec(report)?.[1] ?? Number.NaN);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const errors = socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0);
  const max = /Latency\s+\S+\s+\S+\s+(\S+)/.exec(report)?.[1];
  const p99 = /99%\s+(\S+)/.exec(report)?.[1];
  console.log(report.trim());
  console.log(
    JSON.stringify({
      connections: 50,
      seconds,
      requests,
      failed: errors + non2xx,
      socketErrors: socketErrors?.[0] ?? "none",
      non2xx,
      longestAnswer: max,
      p99,
      swapMs,
      oldExitCode: code,
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
