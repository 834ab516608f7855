import { openDb } from "../db/client";
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
    const code = runCommand(argv, loaded, (chunk) => process.stdout.write(chunk), (line) => console.error(line));
    if (code !== 0) process.exit(code);
    return;
  }

  const log = createLogger(loaded.logLevel, undefined, { secrets: configSecrets(loaded) });
  for (const warning of startupWarnings(loaded)) log.warn(warning);
  const now = () => new Date();
  const db = openDb(loaded.dbPath, { synchronous: loaded.sqliteSynchronous });
  // The default early-bird end is read from (or, on the first start, written to) the database.
  const config = withOfferEnd(loaded, db, now());
  const assets = await createAssetStore(embeddedClient ?? (await buildClient()));
  const render = createRenderer({ config, assets, log, now });
  const transport = config.mail.smtpUrl !== undefined ? createSmtpTransport(config.mail.smtpUrl) : createFileTransport(config.mail.dir);
  const mailer = createMailSender({ db, config, log, transport, now });
  const rateLimits = openRateLimitStore(rateLimitDbPath(config.dataDir), { log, secret: loadIpHashSecret(config.ipHashSecret, config.dataDir) });
  const app = createApp({ config, db, assets, log, render, mailer, rateLimits, now });
  const retention = startRetention({ db, config, log, now });
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
