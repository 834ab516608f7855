import { type Db, openDb } from "../../db/client";
import { NewerSchemaError } from "../../db/versions";
import { isBusyError } from "../../db/writer";
import { type Config, loadConfig } from "../platform/config";
import { ConfigError } from "../platform/config-error";
import type { BuildInfo } from "../platform/version";
import { VERSION } from "../platform/version";
import type { ClientFile } from "../site/client-build";
import type { Prebuilt } from "../site/prebuilt";

/**
 * What the compiled executable carries inside it (scripts/build.ts): the site's and the console's
 * client files, the pages rendered at build time, and `buildId`, new at each build, which names the
 * code that renders the pages it keeps in the data folder (site/pages/page-cache.ts), and `build`,
 * the version, commit and date `site version` says.
 */
export type Embedded = { client: ClientFile[]; console: ClientFile[]; prebuilt: Prebuilt | null; buildId: string; build: BuildInfo };

/** The configuration, or a message naming the variable to fix and exit code 1. */
export function configOrExit(): Config {
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
export function dbOrExit(config: Config, options: { create?: boolean; onSaved?: (copy: string) => void } = {}): Db {
  try {
    // With BACKUP_URL set, Litestream alone checkpoints (db/client.ts).
    return openDb(config.dbPath, {
      synchronous: config.sqliteSynchronous,
      autoCheckpoint: config.backup === null,
      version: VERSION,
      ...options,
    });
  } catch (error) {
    if (error instanceof NewerSchemaError) {
      console.error(error.describe());
      process.exit(1);
    }
    if (!isBusyError(error)) throw error;
    console.error(
      `The database ${config.dbPath} is locked by another program (an open sqlite3 session in a transaction?) and its schema needs updating: start again once it is finished.`,
    );
    process.exit(1);
  }
}
