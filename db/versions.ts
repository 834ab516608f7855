import type { Database } from "bun:sqlite";
import { Database as SqliteDatabase } from "bun:sqlite";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { MIGRATIONS } from "./migrations";

// Which schema a database file has and which version of the program wrote it, and the copies
// saved beside it before each migration. An executable older than its database refuses to start
// (its code would read columns that changed meaning, or miss tables), and names the copy to roll
// back with (`site rollback`).

/** The schema this program brings: the number of its migrations. */
export const OWN_SCHEMA = MIGRATIONS.length;

/** How many copies saved before a migration are kept beside the database (the newest). */
export const SAVED_COPIES_KEPT = 3;

/**
 * Which version migrated the database, one row per migration run (drizzle-kit's own bookkeeping,
 * `__drizzle_migrations`, knows only the migrations' hashes and dates).
 */
const VERSIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS __site_versions (version TEXT NOT NULL, schema INTEGER NOT NULL, migrated_at INTEGER NOT NULL)";

export type RecordedSchema = {
  /** Migrations applied to the file (its schema number); 0 for a new, empty file. */
  schema: number;
  /** The version of the program that applied the last of them, when one recorded it. */
  writtenBy: string | null;
};

const hasTable = (sqlite: Database, name: string) =>
  sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;

export function recordedSchema(sqlite: Database): RecordedSchema {
  if (!hasTable(sqlite, "__drizzle_migrations")) return { schema: 0, writtenBy: null };
  const count = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()?.n ?? 0;
  // A migration newer than every one this program knows counts too, whatever the number of rows.
  const last = MIGRATIONS.at(-1)?.when ?? 0;
  const newer =
    sqlite.query<{ n: number }, [number]>("SELECT count(*) AS n FROM __drizzle_migrations WHERE created_at > ?").get(last)?.n ?? 0;
  const writtenBy = hasTable(sqlite, "__site_versions")
    ? (sqlite.query<{ version: string }, []>("SELECT version FROM __site_versions ORDER BY rowid DESC LIMIT 1").get()?.version ?? null)
    : null;
  return { schema: Math.max(count, newer > 0 ? OWN_SCHEMA + newer : 0), writtenBy };
}

/** Records, in the migration's own transaction, that `version` brought the file to `schema`. */
export function recordMigration(sqlite: Database, version: string, schema: number, at: Date): void {
  sqlite.exec(VERSIONS_TABLE);
  sqlite.query("INSERT INTO __site_versions (version, schema, migrated_at) VALUES (?, ?, ?)").run(version, schema, at.getTime());
}

/** The database's schema is newer than this program's: it must not run on it. */
export class NewerSchemaError extends Error {
  constructor(
    readonly dbPath: string,
    readonly found: RecordedSchema,
    readonly version: string,
  ) {
    super(`${dbPath} has schema ${found.schema}, newer than this program's ${OWN_SCHEMA}`);
    this.name = "NewerSchemaError";
  }

  /** What the owner reads: both versions, and the copy to roll back with. */
  describe(): string {
    const by = this.found.writtenBy !== null ? `version ${this.found.writtenBy}` : "a newer version";
    const copy = copyToRollBackTo(this.dbPath);
    const way =
      copy !== null
        ? `To go back to ${this.version}, stop every server of this site and run \`site rollback\` with this executable: it restores ${copy.path}, the copy saved on ${copy.savedAt.toISOString()} before ${copy.version} migrated it (what was written since is kept aside, not lost).`
        : `No copy saved before that migration is left beside it: restore a backup made before it (\`site restore --to-time\`), or run ${by} again.`;
    return `This executable is version ${this.version} (database schema ${OWN_SCHEMA}); ${this.dbPath} was migrated by ${by} to schema ${this.found.schema}, which this version cannot run safely. Nothing was changed. Run ${by} (or newer) again, or roll back. ${way}`;
  }
}

/** Throws NewerSchemaError when the file's schema is newer than this program's. */
export function refuseNewerSchema(sqlite: Database, dbPath: string, version: string): void {
  const found = recordedSchema(sqlite);
  if (found.schema > OWN_SCHEMA) throw new NewerSchemaError(dbPath, found, version);
}

export type SavedCopy = { path: string; version: string; savedAt: Date };

const COPY_PREFIX = ".before-";
/** What follows the prefix in a copy's name: a version (0.2.0, 1.0.0-rc.1), as package.json holds it. */
const VERSION_NAME = /^\d+\.\d+\.\d+[A-Za-z0-9.+_-]*$/;

/** The copies saved beside `dbPath` before a migration, newest first. */
export function savedCopies(dbPath: string): SavedCopy[] {
  const dir = dirname(dbPath);
  const prefix = `${basename(dbPath)}${COPY_PREFIX}`;
  if (!existsSync(dir)) return [];
  return (
    readdirSync(dir)
      // A version number only: `site restore --force` keeps its own `site.db.before-restore-<time>`, never pruned here.
      .filter((name) => name.startsWith(prefix) && VERSION_NAME.test(name.slice(prefix.length)))
      .map((name) => ({ path: join(dir, name), version: name.slice(prefix.length), savedAt: statSync(join(dir, name)).mtime }))
      .sort((a, b) => b.savedAt.getTime() - a.savedAt.getTime())
  );
}

/** The newest saved copy this program can run (its schema not newer than this program's); null when none. */
export function copyToRollBackTo(dbPath: string): (SavedCopy & { schema: number }) | null {
  for (const copy of savedCopies(dbPath)) {
    let schema: number;
    try {
      const sqlite = new SqliteDatabase(copy.path, { readonly: true });
      try {
        schema = recordedSchema(sqlite).schema;
      } finally {
        sqlite.close();
      }
    } catch {
      continue;
    }
    if (schema <= OWN_SCHEMA) return { ...copy, schema };
  }
  return null;
}

/**
 * A consistent copy of the database (`VACUUM INTO` reads one snapshot, whatever the write-ahead log
 * holds) beside it as `site.db.before-<version>`, made before `version` migrates it; the oldest
 * copies past SAVED_COPIES_KEPT are removed. Written under another name and renamed: a copy that
 * exists is whole.
 */
export function saveCopyBeforeMigrating(sqlite: Database, dbPath: string, version: string): string {
  const target = `${dbPath}${COPY_PREFIX}${version.replace(/[^A-Za-z0-9._+-]/g, "_")}`;
  const partial = `${target}.${process.pid}.tmp`;
  rmSync(partial, { force: true });
  sqlite.query("VACUUM INTO ?").run(partial);
  renameSync(partial, target);
  for (const old of savedCopies(dbPath).slice(SAVED_COPIES_KEPT)) rmSync(old.path, { force: true });
  return target;
}
