import { errorText } from "../shared/error-text";

/**
 * The storage under the database failed rather than the request: the file system is full, read-only
 * or failing, or the file cannot be opened. SQLite rolls the transaction back whole, so nothing was
 * written; the HTTP layer answers 503 with Retry-After (as for a lock held too long, db/writer.ts),
 * and the owner reads the reason in the log.
 */
export type StorageFailure = "busy" | "full" | "read-only" | "io" | "cannot-open";

/** SQLite's primary result codes for each failure; bun:sqlite reports extended codes (SQLITE_IOERR_WRITE...) by name. */
const FAILURE_OF_CODE: ReadonlyArray<readonly [string, StorageFailure]> = [
  ["SQLITE_BUSY", "busy"],
  ["SQLITE_FULL", "full"],
  ["SQLITE_READONLY", "read-only"],
  ["SQLITE_IOERR", "io"],
  ["SQLITE_CANTOPEN", "cannot-open"],
];

/** File-system errors from Node's fs (the mail folder, secrets beside the database). */
const FAILURE_OF_ERRNO: Readonly<Record<string, StorageFailure>> = {
  ENOSPC: "full",
  EDQUOT: "full",
  EROFS: "read-only",
  EACCES: "read-only",
  EPERM: "read-only",
  EIO: "io",
};

/** Seconds a client is asked to wait: a full or read-only disk needs the owner, so not too eager. */
const RETRY_AFTER_SECONDS: Readonly<Record<StorageFailure, number>> = {
  busy: 5,
  full: 60,
  "read-only": 60,
  io: 30,
  "cannot-open": 60,
};

export class StorageUnavailableError extends Error {
  readonly retryAfterSeconds: number;
  constructor(
    readonly failure: StorageFailure,
    options?: { cause?: unknown; retryAfterSeconds?: number; message?: string },
  ) {
    super(options?.message ?? `The database's storage is unavailable (${failure})`, { cause: options?.cause });
    this.name = "StorageUnavailableError";
    this.retryAfterSeconds = options?.retryAfterSeconds ?? RETRY_AFTER_SECONDS[failure];
  }
}

/** Which storage failure `error` reports, or null when it is something else (a bug, bad input...). */
export function storageFailureOf(error: unknown): StorageFailure | null {
  if (error instanceof StorageUnavailableError) return error.failure;
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  if (typeof code !== "string") return null;
  for (const [prefix, failure] of FAILURE_OF_CODE) if (code === prefix || code.startsWith(`${prefix}_`)) return failure;
  return FAILURE_OF_ERRNO[code] ?? null;
}

/** A write that could not happen for want of storage (or of the lock): answered 503, nothing written. */
export const isStorageUnavailable = (error: unknown): boolean => storageFailureOf(error) !== null;

/** The same error as a StorageUnavailableError, keeping the original as its cause. */
export function asStorageUnavailable(error: unknown): StorageUnavailableError | null {
  if (error instanceof StorageUnavailableError) return error;
  const failure = storageFailureOf(error);
  if (failure === null) return null;
  const detail = errorText(error);
  return new StorageUnavailableError(failure, { cause: error, message: `The database's storage is unavailable (${failure}): ${detail}` });
}

const PROBLEM: Readonly<Record<StorageFailure, string>> = {
  busy: "database busy",
  full: "disk full",
  "read-only": "storage read-only",
  io: "storage I/O error",
  "cannot-open": "database cannot be opened",
};

/**
 * For the log: what went wrong, and how loud. A lock held by another program is a warning (the site
 * did nothing wrong and it passes by itself); a full or failing disk needs the owner: an error.
 */
export function storageProblem(error: unknown): { problem: string; level: "warn" | "error" } {
  const failure = storageFailureOf(error) ?? "io";
  return { problem: PROBLEM[failure], level: failure === "busy" ? "warn" : "error" };
}
