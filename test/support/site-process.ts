import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

export type SiteProcess = {
  /** Every line the server has written so far, stdout and stderr together. */
  output: string[];
  process: Subprocess<"ignore", "pipe", "pipe">;
};

/**
 * The real server (`bun run server/main.ts`) as a process of its own with exactly `env` (plus PATH
 * and HOME), collecting its output line by line. Ended by the kernel if the test run dies.
 */
export function spawnSite(env: Record<string, string>): SiteProcess {
  const output: string[] = [];
  const setpriv = Bun.which("setpriv");
  const proc = Bun.spawn({
    cmd: [...(setpriv === null ? [] : [setpriv, "--pdeathsig", "TERM", "--"]), process.execPath, "run", join(ROOT, "server/main.ts")],
    cwd: ROOT,
    // Pages made at their first request, not at start (1.3 s of CPU a server that asks for none).
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", PAGES_AT_START: "false", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  for (const stream of [proc.stdout, proc.stderr])
    void (async () => {
      const decoder = new TextDecoder();
      // A read may end mid-line: keep the unfinished end for the next.
      let rest = "";
      const reader = stream.getReader();
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
        rest = lines.pop() ?? "";
        output.push(...lines.filter(Boolean));
      }
    })();
  return { output, process: proc };
}
