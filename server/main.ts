import { join } from "node:path";
import { runCommand, USAGE } from "./owner/cli";
import { startWithEngineSettings } from "./platform/engine-settings";
import { createCompressor } from "./platform/http/compress";
import { RENDER_COMMAND, WORKER_COMMAND } from "./platform/processes";
import { exitQuietlyWhenStdoutCloses } from "./platform/stdout-pipe";
import { renderForFirstProcess } from "./roles/render-pages";
import { serve } from "./roles/serve";
import { configOrExit, type Embedded } from "./roles/start-up";
import { serveAsWorker } from "./roles/worker";

/**
 * Entry point shared by `bun run server/main.ts` and the compiled executable (which passes what it
 * embeds). It only dispatches: an owner's subcommand (server/owner/cli.ts), a worker or the page
 * renderer (started by the first process, server/roles/), or, with no argument, the server itself.
 */
export async function main(argv: string[], embedded?: Embedded): Promise<void> {
  const [command] = argv;
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  const config = configOrExit();

  // Compressed once: by the build for the executable; run from source, kept in node_modules/.cache.
  const compress = createCompressor(
    embedded !== undefined
      ? { made: embedded.prebuilt?.compressed }
      : { cacheDir: join(import.meta.dir, "..", "node_modules", ".cache", "site-compressed") },
  );
  if (command === WORKER_COMMAND) return serveAsWorker(config, Number(argv[1] ?? 0), compress, embedded);
  if (command === RENDER_COMMAND) return renderForFirstProcess(config, embedded, compress);
  if (command !== undefined) {
    exitQuietlyWhenStdoutCloses();
    const code = await runCommand(
      argv,
      config,
      (chunk) => process.stdout.write(chunk),
      (line) => console.error(line),
    );
    if (code !== 0) process.exit(code);
    return;
  }
  // How this program is started again: this executable, or Bun running this file.
  const self = embedded !== undefined ? [process.execPath] : [process.execPath, "run", import.meta.path];
  startWithEngineSettings(self);
  await serve(config, embedded, self, compress);
}

if (import.meta.main) await main(process.argv.slice(2));
