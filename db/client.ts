import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { MIGRATIONS } from "./migrations";
import * as schema from "./schema";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };
export type Synchronous = "NORMAL" | "FULL";

/**
 * Opens the site's SQLite file and brings its schema up to date.
 * WAL lets the owner read with the sqlite3 CLI while the server writes; busy_timeout makes a writer
 * wait for such a reader's lock instead of failing. `synchronous` is chosen in the README
 * ("Durability"): FULL survives power loss for every acknowledged write, NORMAL survives a process
 * crash but may lose the last transactions on power loss.
 */
export function openDb(path: string, options: { synchronous?: Synchronous } = {}): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  // First of all: switching a new file to WAL takes an exclusive lock, and another process starting
  // on the same folder at the same moment would otherwise get "database is locked" at once.
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec(`PRAGMA synchronous = ${options.synchronous ?? "FULL"}`);
  sqlite.exec("PRAGMA foreign_keys = ON");
  migrate(sqlite);
  return drizzle({ client: sqlite, schema });
}

/**
 * Applies the embedded migrations, keeping drizzle-kit's `__drizzle_migrations` bookkeeping. Which
 * migrations are pending is read inside the same write transaction that applies them: a second
 * process waits for the first to commit, then finds nothing left to do.
 */
export function migrate(sqlite: Database): number {
  const apply = sqlite.transaction((): number => {
    sqlite.exec(
      "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
    );
    const last = sqlite.query<{ created_at: number }, []>(
      "SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1",
    ).get();
    const pending = MIGRATIONS.filter((m) => last === null || Number(last.created_at) < m.when);
    for (const m of pending) {
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim() !== "") sqlite.exec(statement);
      }
      sqlite
        .query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)")
        .run(createHash("sha256").update(m.sql).digest("hex"), m.when);
    }
    return pending.length;
  });
  return apply.immediate();
}
