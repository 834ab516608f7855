import { Database } from "bun:sqlite";

// Run as its own process (test/support/db-lock.ts, bench/db-lock.ts): holds the write lock of the
// SQLite file at argv[2] as an owner's `sqlite3` session after `BEGIN IMMEDIATE` does. Prints
// "locked" once it holds it, then lets go (ROLLBACK) when its standard input closes, or after
// argv[3] milliseconds when given.

const [path, holdMs] = process.argv.slice(2);
if (path === undefined) throw new Error("usage: hold-db-lock.ts FILE [MILLISECONDS]");
const db = new Database(path);
db.exec("PRAGMA busy_timeout = 10000");
db.exec("BEGIN IMMEDIATE");
console.log("locked");
if (holdMs !== undefined) await Bun.sleep(Number(holdMs));
else await Bun.stdin.text();
db.exec("ROLLBACK");
db.close();
console.log("released");
