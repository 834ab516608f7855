import { basename, join } from "node:path";
import { openDb, type Db } from "../db/client";
import { createWriter, isBusyError } from "../db/writer";
import { createApp } from "./app";
import { assetStoreFrom, buildClient, createAssetStore, type AssetStore, type ClientFile } from "./site/assets";
import { ConfigError, loadConfig, startupWarnings, type Config } from "./platform/config";
import { runCommand, USAGE } from "./owner/cli";
import { configSecrets, createLogger, type Logger } from "./platform/log";
import type { MailSender } from "./shop/mail/sender";
import { createMailSender } from "./shop/mail/sender";
import { createCompressor, type Compress } from "./platform/http/compress";
import { openRateLimitStore, rateLimitDbPath } from "./platform/http/rate-limit-store";
import { listenShared } from "./platform/http/listen";
import { loadIpHashSecret } from "./shop/leads/service";
import { createFileTransport, createSmtpTransport } from "./shop/mail/transport";
import { withOfferEnd } from "./site/offer";
import { staticPageRefs } from "./site/pages/controller";
import { createStaticPages, type PrebuiltPage } from "./site/pages/static-pages";
import type { Prebuilt } from "./site/prebuilt";
import { startRetention } from "./shop/privacy/retention";
import {
  receiveRenderRequest,
  receiveWorkerStart,
  RENDER_COMMAND,
  renderPagesApart,
  sendRenderedPages,
  startWorkers,
  wakeMailerOfFirstProcess,
  whenFirstProcessGone,
  WORKER_COMMAND,
} from "./platform/processes";
import { createDocumentRenderer, createRenderer } from "./site/render";
import { startWithEngineSettings } from "./platform/engine-settings";
import { exitQuietlyWhenStdoutCloses } from "./platform/stdout-pipe";
import { unwritableDataDir } from "./platform/storage-check";
import { replicatorFor } from "./platform/backup/start";
import { describeTarget } from "./platform/backup/settings";

/** What the compiled executable carries inside it (scripts/build.ts). */
export type Embedded = { client: ClientFile[]; prebuilt: Prebuilt | null };

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The database, opened and migrated. Start-up waits 5 s for another program's lock, and only when
 * there are migrations to apply (an up-to-date file is only read): past that, a message rather
 * than a stack trace.
 */
function dbOrExit(config: Config): Db {
  try {
    // With BACKUP_URL set, Litestream alone checkpoints (db/client.ts).
    return openDb(config.dbPath, { synchronous: config.sqliteSynchronous, autoCheckpoint: config.backup === null });
  } catch (error) {
    if (!isBusyError(error)) throw error;
    console.error(
      `The database ${config.dbPath} is locked by another program (an open sqlite3 session in a transaction?) and its schema needs updating: start again once it is finished.`,
    );
    process.exit(1);
  }
}

/** Writes wait for another connection's lock at most DB_BUSY_WAIT_MS (db/writer.ts); the writer keeps no state. */
const writerFor = (db: Db, config: Config) => createWriter(db, { waitMs: config.dbBusyWaitMs });

/** Entry point shared by `bun run server/main.ts` and the compiled executable (which passes what it embeds). */
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
  if (command === WORKER_COMMAND) return serveAsWorker(config, Number(argv[1] ?? 0), compress);
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

/** The site's server parts on one process; the assets and pages are made or handed over by the caller. */
function siteOn(
  config: Config,
  log: Logger,
  db: Db,
  assets: AssetStore,
  pages: readonly PrebuiltPage[],
  compress: Compress,
  mailer: Pick<MailSender, "wake">,
) {
  const write = writerFor(db, config);
  const now = () => new Date();
  const documents = createDocumentRenderer({ config, assets, now });
  const staticPages = createStaticPages({ documents, log, config, prebuilt: pages, compress });
  const render = createRenderer({ config, assets, log, now });
  const rateLimits = openRateLimitStore(rateLimitDbPath(config.dataDir), {
    log,
    secret: loadIpHashSecret(config.ipHashSecret, config.dataDir),
  });
  const app = createApp({ config, db, write, assets, log, render, staticPages, mailer, rateLimits, now });
  return { staticPages, rateLimits, app };
}

async function serve(loaded: Config, embedded: Embedded | undefined, self: string[], compress: Compress): Promise<void> {
  const unwritable = unwritableDataDir(loaded.dataDir, [basename(loaded.dbPath), `${basename(loaded.dbPath)}-wal`, "rate-limits.db"]);
  if (unwritable !== null) {
    console.error(unwritable);
    process.exit(1);
  }
  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded) });
  for (const warning of startupWarnings(loaded)) log.warn(warning);
  // Migrations run here, before any worker opens the database.
  const db = dbOrExit(loaded);
  const now = () => new Date();
  // The default early-bird end is read from (or, on the first start, written to) the database.
  const config = await withOfferEnd(loaded, writerFor(db, loaded), now(), db).catch((error: unknown) => {
    // Only the very first start writes here (the offer's start date); later ones only read it.
    if (!isBusyError(error)) throw error;
    console.error(
      `The database ${loaded.dbPath} is locked by another program (an open sqlite3 session in a transaction?) and this first start must record its date: start again once it is finished.`,
    );
    process.exit(1);
  });
  const retention = await startRetention({ write: writerFor(db, config), config, log, now });
  const assets = await createAssetStore(embedded?.client ?? (await buildClient()), compress);
  const transport = config.mail.smtpUrl !== undefined ? createSmtpTransport(config.mail.smtpUrl) : createFileTransport(config.mail.dir);
  const mailer = createMailSender({ db, write: writerFor(db, config), config, log, transport, now });
  const site = siteOn(config, log, db, assets, embedded?.prebuilt?.pages ?? [], compress, mailer);
  const server = listenShared(site.app, config, config.workers > 1 ? "first" : "alone");
  log.info(`listening on http://localhost:${server.port}`, {
    data: config.dbPath,
    checkout: config.stripe ? "stripe" : "test",
    chat: config.anthropic ? "claude" : "offline",
    mail: mailer.describe,
    processes: config.workers,
    offerEndsAt: config.site.offerEndsAt?.toISOString() ?? null,
    backup: config.backup !== null ? describeTarget(config.backup) : "off",
  });
  mailer.start();
  const replicator = replicatorFor(config, log, now);
  replicator.start();
  // Someone who started the site in a terminal gets the address in plain words, above the JSON log.
  if (process.stderr.isTTY)
    process.stderr.write(
      `\n  ${config.site.name} is running: open http://localhost:${server.port}  (Ctrl-C stops it; below, the server's log)\n\n`,
    );
  // Started now, so that they load while this process renders the pages they will be handed.
  const workers =
    config.workers > 1 ? startWorkers({ count: config.workers, command: self, log, onWakeMailer: () => mailer.wake() }) : null;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    await Promise.all([site.app.stop(), workers?.stop()]);
    retention.stop();
    await mailer.stop();
    await replicator.stop();
    db.$client.close();
    site.rateLimits.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  // Every page the same for all visitors, rendered and compressed now rather than by a visitor's
  // request. The executable brings them made at build time when its settings give the same pages;
  // otherwise (the offer's end is only known once the site has started) a short-lived process
  // renders them, and this one only takes them.
  const started = performance.now();
  const refs = staticPageRefs(config);
  const unmade = site.staticPages.unmade(refs);
  const apart = unmade === 0 ? null : await renderPagesApart({ command: self, urls: assets.urls, log });
  if (apart !== null) site.staticPages.adopt(apart);
  const made = await site.staticPages.warm(refs);
  log.info("pages ready", { ...made, renderedApart: apart?.length ?? 0, ms: Math.round(performance.now() - started) });

  workers?.begin({ port: server.port, assets: { urls: assets.urls, files: assets.entries() }, pages: site.staticPages.finished() });
}

/**
 * The page renderer: renders and compresses the pages the same for every visitor, with the first
 * process's configuration and client files, hands them over and is stopped. It reads the database
 * (the offer's end) and writes nothing.
 */
async function renderForFirstProcess(loaded: Config, embedded: Embedded | undefined, compress: Compress): Promise<void> {
  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded), fields: { process: RENDER_COMMAND } });
  whenFirstProcessGone(() => process.exit(0));
  const urls = await receiveRenderRequest();
  const db = dbOrExit(loaded);
  const config = await withOfferEnd(loaded, writerFor(db, loaded), new Date(), db);
  db.$client.close();
  const documents = createDocumentRenderer({ config, assets: assetStoreFrom({ urls, files: [] }), now: () => new Date() });
  const staticPages = createStaticPages({ documents, log, config, prebuilt: embedded?.prebuilt?.pages ?? [], compress });
  await staticPages.warm(staticPageRefs(config));
  sendRenderedPages(staticPages.finished());
}

/** A second (third…) process: serves the first process's pages and files on its port, sends no e-mail. */
async function serveAsWorker(loaded: Config, worker: number, compress: Compress): Promise<void> {
  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded), fields: { worker } });
  const stopped = new Promise<string>((resolve) => {
    // Ctrl-C in a terminal reaches every process of the group; the first process also sends SIGTERM.
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
    whenFirstProcessGone(() => resolve("first process gone"));
  });
  const start = await Promise.race([receiveWorkerStart(), stopped.then(() => null)]);
  if (start === null) process.exit(0);

  const db = dbOrExit(loaded);
  // The first process recorded the first start before starting this one: this only reads it.
  const config = await withOfferEnd(loaded, writerFor(db, loaded), new Date(), db);
  const site = siteOn(config, log, db, assetStoreFrom(start.assets), start.pages, compress, { wake: wakeMailerOfFirstProcess });
  const server = listenShared(site.app, { ...config, port: start.port }, "join");
  log.info("worker listening", { port: server.port, pages: start.pages.length });

  log.info("worker stopping", { reason: await stopped });
  await site.app.stop();
  db.$client.close();
  site.rateLimits.close();
  process.exit(0);
}

if (import.meta.main) await main(process.argv.slice(2));
