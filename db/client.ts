import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import packageJson from "../package.json" with { type: "json" };
import { MIGRATIONS } from "./migrations";
import * as schema from "./schema";
import { OWN_SCHEMA, recordMigration, refuseNewerSchema, saveCopyBeforeMigrating } from "./versions";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };
export type Synchronous = "NORMAL" | "FULL";

/** How long opening waits for another process's lock (see openDb). */
const OPENING_WAIT_MS = 20_000;

/**
 * Opens the site's SQLite file and brings its schema up to date.
 * WAL lets the owner read with the sqlite3 CLI while the server writes: readers never wait for a
 * writer. `synchronous` is chosen in docs/owner/data.md ("Durability"): FULL survives power loss for every
 * acknowledged write, NORMAL survives a process crash but may lose the last transactions on power loss.
 *
 * Opening waits up to 20 s, synchronously, for another process's lock (nothing is served yet: on a
 * loaded 2-core machine, twenty processes starting at once took more than 5 s to take turns); then
 * the connection's busy_timeout becomes `busyTimeoutMs`, 0 unless given: SQLite's busy wait sleeps
 * on the calling thread, which in the server is the only one, so its writes wait through
 * `createWriter` (db/writer.ts) instead, without holding up other requests.
 *
 * `create: false` opens only a file that exists (a process working on another's data), and throws
 * rather than making the file or its folder again.
 *
 * A file whose schema is newer than this program's is refused (NewerSchemaError, db/versions.ts):
 * nothing is read or written with code that does not know its tables. Before migrating a file
 * that holds data, a copy of it is saved beside it (`site.db.before-<version>`) and `onSaved` told.
 */
export function openDb(
  path: string,
  options: {
    synchronous?: Synchronous;
    busyTimeoutMs?: number;
    create?: boolean;
    autoCheckpoint?: boolean;
    /** The program's version, recorded with each migration and naming the copy saved before it. */
    version?: string;
    onSaved?: (copy: string) => void;
  } = {},
): Db {
  const create = options.create ?? true;
  if (create && path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create, readwrite: true, strict: true });
  // First of all: switching a new file to WAL takes an exclusive lock, and another process starting
  // on the same folder at the same moment would otherwise get "database is locked" at once.
  sqlite.exec(`PRAGMA busy_timeout = ${OPENING_WAIT_MS}`);
  const deadline = Date.now() + OPENING_WAIT_MS;
  try {
    whileBusy(deadline, () => sqlite.exec("PRAGMA journal_mode = WAL"));
    sqlite.exec(`PRAGMA synchronous = ${options.synchronous ?? "FULL"}`);
    sqlite.exec("PRAGMA foreign_keys = ON");
    // With continuous replication on, Litestream alone checkpoints the write-ahead log, as its
    // documentation asks: a checkpoint of the site's could move pages into the database file before
    // Litestream has copied them, and it would have to start over with a whole new snapshot.
    if (options.autoCheckpoint === false) sqlite.exec("PRAGMA wal_autocheckpoint = 0");
    const version = options.version ?? packageJson.version;
    refuseNewerSchema(sqlite, path, version);
    // Only a file with data in it: a new one has nothing to go back to.
    if (path !== ":memory:" && hasData(sqlite) && pendingMigrations(sqlite).length > 0)
      options.onSaved?.(saveCopyBeforeMigrating(sqlite, path, version));
    whileBusy(deadline, () => migrate(sqlite, version));
    sqlite.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 0))}`);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return drizzle({ client: sqlite, schema });
}

/**
 * Runs `step` again while SQLite answers "database is locked" without waiting, until `deadline`.
 * The busy timeout does not always apply: on a new file, still in rollback mode, a process holding
 * a read lock that wants to write while another waits to commit gets SQLITE_BUSY at once (SQLite
 * refuses to wait into a deadlock). Both steps retried are safe to run again: switching to WAL, and
 * migrating (which reads what is pending inside its own transaction).
 */
function whileBusy<T>(deadline: number, step: () => T): T {
  for (;;) {
    try {
      return step();
    } catch (error) {
      const busy =
        error instanceof Error && /database is locked|SQLITE_BUSY/.test(`${(error as { code?: unknown }).code ?? ""} ${error.message}`);
      if (!busy || Date.now() > deadline) throw error;
      Bun.sleepSync(5 + Math.floor(Math.random() * 20));
    }
  }
}

/**
 * Applies the embedded migrations, keeping drizzle-kit's `__drizzle_migrations` bookkeeping. An
 * up-to-date file is only read, so a start-up does not need the write lock (the owner may hold it
 * from the sqlite3 CLI). Otherwise which migrations are pending is read again inside the write
 * transaction that applies them: a second process waits for the first to commit, then finds
 * nothing left to do.
 */
export function migrate(sqlite: Database, version: string = packageJson.version): number {
  if (pendingMigrations(sqlite).length === 0) return 0;
  const apply = sqlite.transaction((): number => {
    sqlite.exec(
      "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
    );
    const pending = pendingMigrations(sqlite);
    for (const m of pending) {
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim() !== "") sqlite.exec(statement);
      }
      sqlite
        .query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)")
        .run(createHash("sha256").update(m.sql).digest("hex"), m.when);
    }
    if (pending.length > 0) recordMigration(sqlite, version, OWN_SCHEMA, new Date());
    return pending.length;
  });
  return apply.immediate();
}

const hasData = (sqlite: Database) =>
  sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get() !== null;

function pendingMigrations(sqlite: Database) {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (table === null) return MIGRATIONS;
  const last = sqlite
    .query<{ created_at: number }, []>("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1")
    .get();
  return MIGRATIONS.filter((m) => last === null || Number(last.created_at) < m.when);
}
