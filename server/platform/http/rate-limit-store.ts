import { Database } from "bun:sqlite";
import { createHmac } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorText } from "../../../shared/error-text";
import type { Logger } from "../log";

/**
 * The rate limiters' counters, in a SQLite file of their own beside the site's database
 * (`DATA_DIR/rate-limits.db`), so that every server process on one data folder counts the same
 * clients. Not in `site.db`: a check is a write, and there it would wait for the site's write lock
 * and pay its fsync (synchronous FULL) on every request; here a commit is not synced (NORMAL: a
 * power cut may forget the last counts, never corrupts the file). The file holds nothing worth
 * keeping and may be deleted while the server is stopped. Its table is created here, not by the
 * site's migrations, for the same reason.
 *
 * Keys name client addresses, and the site stores no visitor's IP address (docs/product.md, "Leads
 * and privacy"): a key is stored as its HMAC under the site's IP-hash secret, never as it is.
 */
export type RateLimitStore = {
  /**
   * Counts one call for `key` in a fixed window of `windowMs` and answers the count so far (at most
   * `limit + 1`: a refused call is not counted) and when the window ends. O(log n) in the number of
   * tracked keys; every PRUNE_EVERY calls it also looks at the next PRUNE_BATCH keys in key order
   * and drops the expired ones, so the table is swept over and over and holds little more than the
   * clients of the current windows. null when the file cannot be written (locked past
   * busy_timeout, disk full): logged, not thrown.
   */
  hit(key: string, limit: number, windowMs: number, now: number): { count: number; resetAt: number } | null;
  /** How many keys are tracked, expired ones not yet dropped included. */
  size(): number;
  close(): void;
};

/** A sweep looks at 256 keys every 64 hits: 4 keys a hit, faster than hits add keys (one at most). */
const PRUNE_EVERY = 64;
const PRUNE_BATCH = 256;

export const rateLimitDbPath = (dataDir: string) => join(dataDir, "rate-limits.db");

export function openRateLimitStore(path: string, options: { log: Logger; secret: string }): RateLimitStore {
  const { log, secret } = options;
  const stored = (key: string) => createHmac("sha256", secret).update(key).digest("base64url").slice(0, 32);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  // A check holds the write lock for microseconds: waiting longer than this means something is
  // wrong, and the whole server waits meanwhile (bun:sqlite is synchronous).
  db.exec("PRAGMA busy_timeout = 500");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL) WITHOUT ROWID");

  // One statement, so the read and the write are one atomic step whichever process runs it.
  const upsert = db.query<{ count: number; reset_at: number }, [string, number, number, number]>(
    `INSERT INTO rate_limits (key, count, reset_at) VALUES (?1, 1, ?2 + ?3)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN reset_at <= ?2 THEN 1 WHEN count <= ?4 THEN count + 1 ELSE count END,
       reset_at = CASE WHEN reset_at <= ?2 THEN ?2 + ?3 ELSE reset_at END
     RETURNING count, reset_at`,
  );
  // No index on reset_at to find expired keys: it would be rewritten by every check (three times
  // the cost of one); the sweep walks the primary key instead.
  const nextBatch = db.query<{ last: string | null; n: number }, [string, number]>(
    "SELECT max(key) AS last, count(*) AS n FROM (SELECT key FROM rate_limits WHERE key > ?1 ORDER BY key LIMIT ?2)",
  );
  const dropExpired = db.query<never, [string, string, number]>("DELETE FROM rate_limits WHERE key > ?1 AND key <= ?2 AND reset_at <= ?3");
  const count = db.query<{ n: number }, []>("SELECT count(*) AS n FROM rate_limits");
  let hits = 0;
  let cursor = "";
  const sweep = (now: number) => {
    const batch = nextBatch.get(cursor, PRUNE_BATCH);
    const last = batch?.last ?? null;
    if (last !== null) dropExpired.run(cursor, last, now);
    // Past the last key: the next sweep starts again from the first.
    cursor = last === null || (batch?.n ?? 0) < PRUNE_BATCH ? "" : last;
  };

  return {
    hit(key, limit, windowMs, now) {
      try {
        if (++hits % PRUNE_EVERY === 0) sweep(now);
        const row = upsert.get(stored(key), now, windowMs, limit);
        return row === null ? null : { count: row.count, resetAt: row.reset_at };
      } catch (error) {
        log.warn("rate limit not counted", { error: errorText(error) });
        return null;
      }
    },
    size: () => count.get()?.n ?? 0,
    close: () => db.close(),
  };
}
