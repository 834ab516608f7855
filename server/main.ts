import { join } from "node:path";
import { startWithEngineSettings } from "./platform/engine-settings";
import { createCompressor } from "./platform/http/compress";
import { startTrace } from "./platform/start-trace";
import { RENDER_COMMAND, WORKER_COMMAND } from "./roles/processes";
import { configOrExit, type Embedded } from "./roles/start-up";

/**
 * Entry point shared by `bun run server/main.ts` and the compiled executable (which passes what it
 * embeds). It only dispatches: an owner's subcommand (server/owner/cli.ts), a worker or the page
 * renderer (started by the first process, server/roles/), or, with no argument, the server itself.
 * Each role's code is loaded only by the role that runs it: a server start does not evaluate the
 * owner's commands, nor a subcommand the server's.
 */
export async function main(argv: string[], embedded?: Embedded): Promise<void> {
  const [command] = argv;
  if (command === "help" || command === "--help" || command === "-h") {
    const { USAGE } = await import("./owner/cli");
    console.log(USAGE);
    return;
  }
  // Before the configuration: which build this is must be answerable even where it would not start.
  if (command === "version" || command === "--version" || command === "-v") {
    const { currentBuild, describeBuild } = await import("./platform/version");
    console.log(`site ${describeBuild(currentBuild(embedded?.build))}`);
    return;
  }
  const config = configOrExit();
  startTrace("configuration loaded");

  // Compressed once: by the build for the executable; run from source, kept in node_modules/.cache.
  const compress = createCompressor(
    embedded !== undefined
      ? { made: embedded.prebuilt?.compressed }
      : { cacheDir: join(import.meta.dir, "..", "node_modules", ".cache", "site-compressed") },
  );
  if (command === WORKER_COMMAND) {
    const { serveAsWorker } = await import("./roles/worker");
    return serveAsWorker(config, Number(argv[1] ?? 0), compress, embedded);
  }
  if (command === RENDER_COMMAND) {
    const { renderForFirstProcess } = await import("./roles/render-pages");
    return renderForFirstProcess(config, embedded, compress);
  }
  if (command !== undefined) {
    const [{ runCommand }, { exitQuietlyWhenStdoutCloses }] = await Promise.all([import("./owner/cli"), import("./platform/stdout-pipe")]);
    exitQuietlyWhenStdoutCloses();
    const code = await runCommand(
      argv,
      config,
      (chunk) => process.stdout.write(chunk),
      (line) => console.error(line),
      { confirm: process.stdin.isTTY ? askOnTerminal : undefined, self: selfCommand(embedded), build: embedded?.build },
    );
    if (code !== 0) process.exit(code);
    return;
  }
  const self = selfCommand(embedded);
  startWithEngineSettings(self);
  const { serve } = await import("./roles/serve");
  await serve(config, embedded, self, compress);
}

/** How this program is started again: this executable, or Bun running this file. */
function selfCommand(embedded: Embedded | undefined): string[] {
  return embedded !== undefined ? [process.execPath] : [process.execPath, "run", import.meta.path];
}

/** A yes-or-no question on the terminal: true only for "yes". */
async function askOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises");
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await terminal.question(question)).trim().toLowerCase() === "yes";
  } finally {
    terminal.close();
  }
}

if (import.meta.main) await main(process.argv.slice(2));
