import { Database } from "bun:sqlite";
import { mkdirSync, readdirSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { errorText } from "../../../shared/error-text";

// The embedded mail transport keeps every message it "sends" as `<outbox id>.eml` in the mail
// folder (DATA_DIR/mail). Those files hold the address and the whole e-mail, so whatever deletes
// outbox rows for privacy (erasure on request, retention) deletes their files too. Outbox ids are
// never reused (AUTOINCREMENT), so a file name always belongs to the row that wrote it, even files
// left from a time before SMTP was configured.

/** Where the file transport writes the message of outbox row `outboxId`. */
export const mailFilePath = (dir: string, outboxId: number) => join(dir, `${outboxId}.eml`);

/** A message file (or the temporary file of a write a crash interrupted) and the row it belongs to. */
const MAIL_FILE = /^(\d+)\.eml(?:\.\d+\.tmp)?$/;

export type MailFilesRemoved = {
  /** Files deleted: the messages, and any half-written copy a crash left behind. */
  deleted: number;
  /** Files that could not be deleted (permissions, a read-only disk), with the reason. */
  failed: { path: string; reason: string }[];
};

/**
 * Deletes the mail folder's files of these outbox rows. Rows without a file (sent by SMTP, never
 * sent, or already deleted) are no error, nor is a folder that does not exist.
 */
export function removeMailFiles(dir: string, outboxIds: readonly number[]): MailFilesRemoved {
  const result: MailFilesRemoved = { deleted: 0, failed: [] };
  if (outboxIds.length === 0) return result;
  const ids = new Set(outboxIds);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return result;
    return { deleted: 0, failed: [{ path: dir, reason: reasonOf(error) }] };
  }
  for (const name of names) {
    const id = MAIL_FILE.exec(name)?.[1];
    if (id === undefined || !ids.has(Number(id))) continue;
    const path = join(dir, name);
    try {
      unlinkSync(path);
      result.deleted += 1;
    } catch (error) {
      // Gone meanwhile (another process erased it first) is what was wanted.
      if (codeOf(error) !== "ENOENT") result.failed.push({ path, reason: reasonOf(error) });
    }
  }
  return result;
}

/**
 * Moves the message files of outbox ids above `lastId` into `asideDir` and says how many. After the
 * database goes back to an earlier copy (`site rollback`, `site restore`), those ids will be given
 * again to new messages: the files of messages the earlier copy never had (an access e-mail with a
 * buyer's key) would be overwritten by other people's. Kept aside, not deleted, like the database
 * file they came with.
 */
export function setAsideMailFilesAfter(dir: string, lastId: number, asideDir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return 0;
    throw error;
  }
  let moved = 0;
  for (const name of names) {
    const id = MAIL_FILE.exec(name)?.[1];
    if (id === undefined || Number(id) <= lastId) continue;
    mkdirSync(asideDir, { recursive: true });
    renameSync(join(dir, name), join(asideDir, name));
    moved += 1;
  }
  return moved;
}

/** The last e-mail number the file has given (SQLite's AUTOINCREMENT counter): the next is above it. */
export function lastOutboxId(dbPath: string): number {
  const sqlite = new Database(dbPath, { readonly: true });
  try {
    const counter = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'mail_outbox'").get();
    return counter?.seq ?? 0;
  } finally {
    sqlite.close();
  }
}

const codeOf = (error: unknown) => (error instanceof Error && "code" in error ? error.code : undefined);
const reasonOf = (error: unknown) => errorText(error);
