import { desc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ownerActivity, type OwnerAction } from "../../../db/schema";
import type { DbTransaction, DbWriter, Write } from "../../../db/writer";

export type ActivityEntry = { action: OwnerAction; detail: string; sessionId: number | null };

/** Written in the transaction of the change it reports, so the log never claims what did not happen. */
export function recordActivity(tx: DbWriter, entry: ActivityEntry, now: Date): void {
  tx.insert(ownerActivity)
    .values({ ...entry, at: now })
    .run();
}

export function listActivity(db: Db, limit = 200) {
  return db.select().from(ownerActivity).orderBy(desc(ownerActivity.id)).limit(limit).all();
}

/**
 * A writer that also records the owner's action in the same transaction, when `entryFor` says the
 * outcome was a change: the services are called as they are, and the log holds exactly what happened.
 * `sessionId` null is the command line.
 */
export function writeLogged(
  write: Write,
  sessionId: number | null,
  now: Date,
  entryFor: (outcome: unknown) => { action: OwnerAction; detail: string } | null,
): Write {
  return (run, options) =>
    write((tx: DbTransaction) => {
      const outcome = run(tx);
      const entry = entryFor(outcome);
      if (entry !== null) recordActivity(tx, { ...entry, sessionId }, now);
      return outcome;
    }, options);
}
