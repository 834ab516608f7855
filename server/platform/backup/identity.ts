import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as v from "valibot";
import { siteSettings } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";

/**
 * Who a database is, kept in the database itself (site_settings), so that it travels with the
 * file and not with the folder or the machine:
 * - `database_id`: a random name given at its first start with backups on, and given anew by
 *   `site restore` (a restored copy is another database than the one it was copied from: both may
 *   run at once, and must not be mistaken for each other beside the replica);
 * - `restored_from`: set by `site restore`, removed by `site backup promote`. A server on a
 *   database that has it does not replicate: a restore drill started with the live BACKUP_URL
 *   would otherwise write a newer history into the live replica, and the next restore would bring
 *   back the drill's database instead of the shop's.
 */
const DATABASE_ID = "database_id";
const RESTORED_FROM = "restored_from";

export type Restored = { from: string; at: string };
export type DatabaseIdentity = { id: string | null; restored: Restored | null };

const RestoredRow = v.object({ from: v.string(), at: v.string() });

export const newDatabaseId = () => randomBytes(8).toString("hex");

const setting = (db: DbWriter, key: string) =>
  db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, key)).get()?.value;

/** What the database says of itself; reading only. */
export function readIdentity(db: DbWriter): DatabaseIdentity {
  const restored = setting(db, RESTORED_FROM);
  let parsed: Restored | null = null;
  if (restored !== undefined) {
    try {
      const result = v.safeParse(RestoredRow, JSON.parse(restored));
      parsed = result.success ? result.output : { from: "a replica", at: "" };
    } catch {
      // Written by hand, perhaps: still a restored copy, of an unnamed replica.
      parsed = { from: "a replica", at: "" };
    }
  }
  return { id: setting(db, DATABASE_ID) ?? null, restored: parsed };
}

/** The database's name, given now if it has none (one insert, kept by whichever writer commits first). */
export function ensureDatabaseId(tx: DbWriter, now: Date): string {
  tx.insert(siteSettings).values({ key: DATABASE_ID, value: newDatabaseId(), createdAt: now }).onConflictDoNothing().run();
  const id = setting(tx, DATABASE_ID);
  if (id === undefined) throw new Error("site_settings.database_id could not be written");
  return id;
}

/** Marks a freshly restored file as a copy: a new name, and where it came from. */
export function markRestored(tx: DbWriter, from: string, now: Date): string {
  const id = newDatabaseId();
  const put = (key: string, value: string) =>
    tx
      .insert(siteSettings)
      .values({ key, value, createdAt: now })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, createdAt: now } })
      .run();
  put(DATABASE_ID, id);
  put(RESTORED_FROM, JSON.stringify({ from, at: now.toISOString() }));
  return id;
}

/** The owner's word that this database is the primary: it no longer counts as a restored copy. */
export function clearRestored(tx: DbWriter): void {
  tx.delete(siteSettings).where(eq(siteSettings.key, RESTORED_FROM)).run();
}

/** The restored mark of the database at `path`, read without writing (the owner's commands); null without one. */
export function readRestoredMark(path: string): Restored | null {
  if (!existsSync(path)) return null;
  try {
    const db = new Database(path, { readonly: true });
    try {
      return readIdentity(drizzle({ client: db })).restored;
    } finally {
      db.close();
    }
  } catch {
    // Not a database of this site's (or locked in an unusual way): nothing to say about it.
    return null;
  }
}

const RESTORED_REASON = "this database was restored from ";
export const isRestoredCopyReason = (reason: string) => reason.startsWith(RESTORED_REASON);

/** The sentence the log, the console and `site backup status` give for a restored copy. */
export const restoredCopyReason = (restored: Restored) =>
  `${RESTORED_REASON}${restored.from}${restored.at === "" ? "" : ` at ${restored.at}`}: it does not replicate until you make it the primary with \`site backup promote\` (a drill copy is never promoted)`;
