import { desc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ownerActivity, type OwnerAction } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";

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
