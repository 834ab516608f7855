import { and, inArray, isNotNull, lt, min } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { analyticsEvents, checkoutVisits } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import { dayBefore, utcDay } from "./day";
import { rollUpDue } from "./rollup";
import type { VisitorKeys } from "./visitor-keys";

/** Rows deleted per transaction: a month of events goes in many short writes, never one long lock. */
const DELETE_BATCH = 5_000;

export type AnalyticsDeleted = { events: number; keys: number };

/**
 * What the privacy page promises about counting: the day's visitor key deleted once its day is over,
 * events deleted `retentionDays` after their day (their totals rolled up first, and kept), and the
 * visitor hash of a checkout's visit cleared with them.
 */
export async function deleteExpiredAnalytics(
  deps: { db: Db; write: Write; keys: VisitorKeys },
  retentionDays: number,
  now: Date,
): Promise<AnalyticsDeleted> {
  const keys = deps.keys.deleteOld(now);
  const cutoff = dayBefore(utcDay(now), retentionDays);
  const { db, write } = deps;
  const oldest =
    db
      .select({ day: min(analyticsEvents.day) })
      .from(analyticsEvents)
      .get()?.day ?? null;
  let events = 0;
  if (oldest !== null && oldest < cutoff) {
    // Totals of every day first: no event goes before it is counted.
    await rollUpDue(db, write, now);
    for (;;) {
      const n = await write(
        (tx) =>
          tx
            .delete(analyticsEvents)
            .where(
              inArray(
                analyticsEvents.id,
                tx.select({ id: analyticsEvents.id }).from(analyticsEvents).where(lt(analyticsEvents.day, cutoff)).limit(DELETE_BATCH),
              ),
            )
            .returning({ id: analyticsEvents.id })
            .all().length,
      );
      events += n;
      if (n < DELETE_BATCH) break;
    }
  }
  await write((tx) =>
    tx
      .update(checkoutVisits)
      .set({ visitor: null })
      .where(and(lt(checkoutVisits.day, cutoff), isNotNull(checkoutVisits.visitor)))
      .run(),
  );
  return { events, keys };
}
