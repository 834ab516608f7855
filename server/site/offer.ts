import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { siteSettings } from "../../db/schema";
import type { Write } from "../../db/writer";

const FIRST_STARTED_AT = "first_started_at";

/**
 * When the site first started on this data folder, recorded by the first start and read by every
 * later one. The insert that does nothing when the row exists, and the read, are one transaction:
 * two processes starting at once agree on whichever committed first.
 */
export async function firstStartedAt(write: Write, now: Date, db?: Db): Promise<Date> {
  // Once recorded it is only read: a restart, or a second process, then needs no write lock (the
  // owner may be holding it from the sqlite3 CLI).
  const recorded = db?.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, FIRST_STARTED_AT)).get()?.value;
  const value =
    recorded ??
    (await write((tx) => {
      tx.insert(siteSettings)
        .values({ key: FIRST_STARTED_AT, value: String(now.getTime()), createdAt: now })
        .onConflictDoNothing()
        .run();
      return tx.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, FIRST_STARTED_AT)).get()?.value;
    }));
  const ms = Number(value);
  if (value === undefined || !Number.isFinite(ms)) throw new Error(`site_settings.${FIRST_STARTED_AT} is not a time: ${value}`);
  return new Date(ms);
}
