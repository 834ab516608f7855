import { dateIn, endOfDayIn, SELLER_TIME_ZONE } from "../../../shared/offer";
import type { Config } from "../../platform/config";
import { dayBefore } from "../../shop/analytics/day";

// The periods the owner's digest reports on, in the seller's time (Paris): a day, or an ISO week
// (Monday to Sunday). Calendar dates are YYYY-MM-DD strings; their arithmetic is UTC date
// arithmetic, which has no clock changes.

export type DigestFrequency = "daily" | "weekly";

export type DigestPeriod = {
  frequency: DigestFrequency;
  /** The period's name and key: `2026-11-24` for a day, `2026-W47` for an ISO week. */
  key: string;
  /** Its first and last Paris dates (the same for a day). */
  firstDay: string;
  lastDay: string;
  /** The instants it spans: `from` included, `to` excluded (midnight, Paris time). */
  from: Date;
  to: Date;
};

/** The instant a Paris date began. */
export const startOfDay = (date: string): Date => new Date(endOfDayIn(SELLER_TIME_ZONE, dayBefore(date, 1)).getTime() + 1);

/** 1 for Monday to 7 for Sunday (ISO 8601). */
export const isoWeekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

/** The ISO week of a date: `2026-W47` (the week belongs to the year of its Thursday). */
export function isoWeekOf(date: string): string {
  const thursday = dayBefore(date, isoWeekday(date) - 4);
  const year = thursday.slice(0, 4);
  const week = Math.floor((Date.parse(`${thursday}T00:00:00Z`) - Date.parse(`${year}-01-01T00:00:00Z`)) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The hour (0-23) of an instant on the seller's clock. */
export function sellerHour(at: Date): number {
  const hour = new Intl.DateTimeFormat("en-GB", { timeZone: SELLER_TIME_ZONE, hour: "2-digit", hourCycle: "h23" }).format(at);
  return Number(hour);
}

/** The digest of one Paris day. */
export function dayPeriod(date: string): DigestPeriod {
  return { frequency: "daily", key: date, firstDay: date, lastDay: date, from: startOfDay(date), to: startOfDay(dayBefore(date, -1)) };
}

/** The digest of the ISO week (Monday to Sunday) that holds a date. */
export function weekPeriod(date: string): DigestPeriod {
  const monday = dayBefore(date, isoWeekday(date) - 1);
  const nextMonday = dayBefore(monday, -7);
  return {
    frequency: "weekly",
    key: isoWeekOf(monday),
    firstDay: monday,
    lastDay: dayBefore(nextMonday, 1),
    from: startOfDay(monday),
    to: startOfDay(nextMonday),
  };
}

/** The period that ended last before `at`: yesterday, or last week (Paris time). */
export function lastEndedPeriod(frequency: DigestFrequency, at: Date): DigestPeriod {
  const today = dateIn(SELLER_TIME_ZONE, at);
  // Last week's Sunday is as many days back as today's ISO number.
  return frequency === "daily" ? dayPeriod(dayBefore(today, 1)) : weekPeriod(dayBefore(today, isoWeekday(today)));
}

/**
 * The period whose digest is due at `at`, or null: yesterday's from DIGEST_HOUR on (daily), last
 * week's from DIGEST_HOUR on DIGEST_WEEKDAY (weekly). Only the same day: a server that was down at
 * the hour sends the missed digest when it comes back that day, and never a backlog of older ones.
 */
export function duePeriod(settings: Config["digest"], at: Date): DigestPeriod | null {
  if (settings.frequency === "off" || sellerHour(at) < settings.hour) return null;
  const today = dateIn(SELLER_TIME_ZONE, at);
  if (settings.frequency === "weekly" && isoWeekday(today) !== settings.weekday) return null;
  return settings.frequency === "daily" ? dayPeriod(dayBefore(today, 1)) : weekPeriod(dayBefore(today, 7));
}
