// The site as the owner runs it, for the browser benches: the single executable (built first when
// dist/site is missing, or with --build), on a loopback port, with a fresh data folder.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { startBenchServer } from "./load";

const root = join(import.meta.dir, "..");

/** `--port=N` picks the port (else a random one), `--build` rebuilds the executable first. */
export async function startSite(args: string[]): Promise<{ base: string; stop: () => Promise<void> }> {
  const exe = join(root, "dist", "site");
  if (args.includes("--build") || !existsSync(exe)) await $`${process.execPath} run ${join(root, "scripts/build.ts")}`.quiet();
  const port = args.find((a) => a.startsWith("--port="))?.slice(7);
  const dataDir = mkdtempSync(join(tmpdir(), "bench-site-"));
  // NODE_ENV=test: the pages a visitor of a real shop gets, without development's sample purchases
  // (their notice would load React on the first screen) and without production's required settings.
  const server = await startBenchServer(
    [exe],
    { DATA_DIR: dataDir, NODE_ENV: "test", ...(port === undefined ? {} : { PORT: port }) },
    root,
  );
  return {
    base: server.base,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The machine's load, printed with every figure: other work on the same cores skews timings. */
export function loadAverage(): string {
  const [one, five, fifteen] = readFileSync("/proc/loadavg", "utf8").split(" ");
  return `load average ${one} ${five} ${fifteen} (${navigator.hardwareConcurrency} cores)`;
}
