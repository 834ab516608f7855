const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an instant, as YYYY-MM-DD: the period of one visitor key and one row of daily totals. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The UTC day `days` before (negative: after) the given one. */
export const dayBefore = (day: string, days: number): string => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS));

/** The `count` UTC days ending with `last`, oldest first. */
export function daysEnding(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => dayBefore(last, count - 1 - i));
}
