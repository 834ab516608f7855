import { existsSync } from "node:fs";
import { openDb } from "../db/client";
import { createApp } from "./app";
import { buildClient, createAssetStore, type ClientFile } from "./assets";
import { ConfigError, loadConfig, type Config } from "./config";
import { exportCsv, isExportName } from "./export-csv";
import { createLogger } from "./log";
import { createRenderer } from "./render";

const USAGE = `Usage:
  site                 start the web server (configuration from the environment, see README)
  site leads export    print the e-mail leads as CSV
  site orders export   print the orders as CSV
  site chats export    print the support-chat transcripts as CSV`;

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
  const [command, action] = argv;
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  const config = configOrExit();

  if (command !== undefined) {
    if (!isExportName(command) || action !== "export") {
      console.error(`Unknown command: ${argv.join(" ")}\n\n${USAGE}`);
      process.exit(2);
    }
    // Run from the wrong folder, an export must not quietly create an empty database and print nothing.
    if (!existsSync(config.dbPath)) {
      console.error(`No database at ${config.dbPath}: run this where the site runs, or set DATA_DIR to the folder that holds site.db.`);
      process.exit(1);
    }
    const db = openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
    exportCsv(db, command, (chunk) => process.stdout.write(chunk));
    db.$client.close();
    return;
  }

  const log = createLogger(config.logLevel);
  const db = openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
  const assets = await createAssetStore(embeddedClient ?? (await buildClient()));
  const render = createRenderer({ config, assets, log });
  const app = createApp({ config, db, assets, log, render, now: () => new Date() });
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: 1024 * 1024 });
  const port = app.server?.port ?? config.port;
  log.info(`listening on http://localhost:${port}`, {
    data: config.dbPath,
    checkout: config.stripe ? "stripe" : "test",
    chat: config.anthropic ? "claude" : "offline",
  });

  const shutdown = async (signal: string) => {
    log.info("shutting down", { signal });
    await app.stop();
    db.$client.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

if (import.meta.main) await main(process.argv.slice(2));
