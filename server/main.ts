import { openDb, type Db } from "../db/client";
import { createWriter, isBusyError } from "../db/writer";
import { createApp } from "./app";
import { buildClient, createAssetStore, type ClientFile } from "./assets";
import { ConfigError, loadConfig, startupWarnings, type Config } from "./config";
import { runCommand, USAGE } from "./cli";
import { configSecrets, createLogger } from "./log";
import { createMailSender } from "./mail/sender";
import { openRateLimitStore, rateLimitDbPath } from "./http/rate-limit-store";
import { loadIpHashSecret } from "./leads/service";
import { createFileTransport, createSmtpTransport } from "./mail/transport";
import { withOfferEnd } from "./offer";
import { startRetention } from "./privacy/retention";
import { createRenderer } from "./render";
import { exitQuietlyWhenStdoutCloses } from "./stdout-pipe";

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
    return openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
  } catch (error) {
    if (!isBusyError(error)) throw error;
    console.error(`The database ${config.dbPath} is locked by another program (an open sqlite3 session in a transaction?) and its schema needs updating: start again once it is finished.`);
    process.exit(1);
  }
}

/** Entry point shared by `bun run server/main.ts` and the compiled executable (which passes its embedded bundle). */
export async function main(argv: string[], embeddedClient?: ClientFile[]): Promise<void> {
  const [command] = argv;
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  const loaded = configOrExit();

  if (command !== undefined) {
    exitQuietlyWhenStdoutCloses();
    const code = await runCommand(argv, loaded, (chunk) => process.stdout.write(chunk), (line) => console.error(line));
    if (code !== 0) process.exit(code);
    return;
  }

  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded) });
  for (const warning of startupWarnings(loaded)) log.warn(warning);
  const db = dbOrExit(loaded);
  const write = createWriter(db, { waitMs: loaded.dbBusyWaitMs });
  const now = () => new Date();
  // The default early-bird end is read from (or, on the first start, written to) the database.
  const config = await withOfferEnd(loaded, write, now());
  const assets = await createAssetStore(embeddedClient ?? (await buildClient()));
  const render = createRenderer({ config, assets, log, now });
  const transport = config.mail.smtpUrl !== undefined ? createSmtpTransport(config.mail.smtpUrl) : createFileTransport(config.mail.dir);
  const mailer = createMailSender({ db, write, config, log, transport, now });
  const rateLimits = openRateLimitStore(rateLimitDbPath(config.dataDir), { log, secret: loadIpHashSecret(config.ipHashSecret, config.dataDir) });
  const retention = await startRetention({ write, config, log, now });
  const app = createApp({ config, db, write, assets, log, render, mailer, rateLimits, now });
  app.listen({ port: config.port, hostname: config.host });
  const port = app.server?.port ?? config.port;
  log.info(`listening on http://localhost:${port}`, {
    data: config.dbPath,
    checkout: config.stripe ? "stripe" : "test",
    chat: config.anthropic ? "claude" : "offline",
    mail: mailer.describe,
    offerEndsAt: config.site.offerEndsAt?.toISOString() ?? null,
  });
  mailer.start();

  const shutdown = async (signal: string) => {
    log.info("shutting down", { signal });
    await app.stop();
    retention.stop();
    await mailer.stop();
    db.$client.close();
    rateLimits.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

if (import.meta.main) await main(process.argv.slice(2));
