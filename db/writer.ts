import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import type * as schema from "./schema";
import { asStorageUnavailable, StorageUnavailableError } from "./storage";

/** The database or a transaction on it: what a function that only reads and writes rows needs. */
export type DbWriter = BaseSQLiteDatabase<"sync", void, typeof schema>;

/** The transaction a write runs in. */
export type DbTransaction = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Another connection (the owner's `sqlite3`, a second server, the CLI) held the write lock for
 * longer than the write may wait. Nothing was written: the transaction never began, or was rolled
 * back whole. The HTTP layer answers 503 with `Retry-After`.
 */
export class DatabaseBusyError extends StorageUnavailableError {
  constructor(
    readonly waitedMs: number,
    options?: { cause?: unknown },
  ) {
    // About as long as it waited: no sooner is the lock likely to be gone.
    super("busy", {
      cause: options?.cause,
      retryAfterSeconds: Math.max(1, Math.round(waitedMs / 1000)),
      message: `The database is locked by another connection (waited ${Math.round(waitedMs)} ms)`,
    });
    this.name = "DatabaseBusyError";
  }
}

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY...), or our own error after waiting. */
export function isBusyError(error: unknown): boolean {
  if (error instanceof DatabaseBusyError) return true;
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

export type WriteOptions = {
  /** How long to wait for another connection's lock; the writer's own setting when omitted. */
  waitMs?: number;
};

/**
 * Runs `run` as one `BEGIN IMMEDIATE` transaction: committed whole, or not at all. `run` must be
 * synchronous (bun:sqlite is) and may run more than once, so it only reads and writes rows.
 */
export type Write = <T>(run: (tx: DbTransaction) => T, options?: WriteOptions) => Promise<T>;

/**
 * The one way the server writes. Its connection has a busy_timeout of 0 (db/client.ts): SQLite's
 * own busy wait sleeps on the only thread, so a lock held by another process froze every request,
 * pages included. Here a write that finds the lock taken gives the thread back, sleeps a few
 * milliseconds (jittered, doubling up to 100 ms) and tries again until `waitMs` has passed, then
 * throws DatabaseBusyError. `onWait` is told once, at the first refusal (the CLI says it is waiting).
 * A full, read-only or failing disk is not waited for: it throws StorageUnavailableError at once
 * (SQLite has rolled the transaction back), which every endpoint answers with 503 (db/storage.ts).
 */
export function createWriter(db: Db, settings: { waitMs: number; onWait?: () => void }): Write {
  return async (run, options = {}) => {
    const waitMs = options.waitMs ?? settings.waitMs;
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return db.transaction(
          (tx) => {
            const result = run(tx);
            // A promise would let the commit happen before the work it was meant to hold: roll back.
            if (result instanceof Promise) throw new TypeError("A write transaction must be synchronous");
            return result;
          },
          { behavior: "immediate" },
        );
      } catch (error) {
        if (!isBusyError(error)) throw asStorageUnavailable(error) ?? error;
        const waited = performance.now() - started;
        if (waited >= waitMs) throw new DatabaseBusyError(waited, { cause: error });
        if (attempt === 0) settings.onWait?.();
        await Bun.sleep(Math.min(backoffMs(attempt), waitMs - waited));
      }
    }
  };
}

/** 1-2 ms, then doubling to 50-100 ms: quick after a short lock, about ten tries a second under a long one. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(100, 2 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
