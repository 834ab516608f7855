import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { siteSettings } from "../db/schema";
import { defaultOfferEnd } from "../shared/offer";
import type { Config } from "./config";

const FIRST_STARTED_AT = "first_started_at";

/**
 * When the site first started on this data folder, recorded by the first start and read by every
 * later one. The insert that does nothing when the row exists makes two processes starting at once
 * agree: whichever commits first wins, and both read its value.
 */
export function firstStartedAt(db: Db, now: Date): Date {
  db.insert(siteSettings).values({ key: FIRST_STARTED_AT, value: String(now.getTime()), createdAt: now }).onConflictDoNothing().run();
  const row = db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, FIRST_STARTED_AT)).get();
  const ms = Number(row?.value);
  if (row === undefined || !Number.isFinite(ms)) throw new Error(`site_settings.${FIRST_STARTED_AT} is not a time: ${row?.value}`);
  return new Date(ms);
}

/**
 * The configuration with the early-bird offer's end settled: OFFER_ENDS_AT when the owner set it,
 * otherwise DEFAULT_OFFER_DAYS after the first start (so the specification's "two weeks" is true
 * out of the box, and stays the same two weeks across restarts).
 */
export function withOfferEnd(config: Config, db: Db, now: Date): Config {
  if (config.site.offerEndsAt !== null) return config;
  return { ...config, site: { ...config.site, offerEndsAt: defaultOfferEnd(firstStartedAt(db, now)) } };
}
