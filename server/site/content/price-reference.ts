import type { PriceCharged } from "./store";

// A reduction may be announced only against the lowest price the site charged in the 30 days
// before the reduction began (Directive 98/6/EC art. 6a, French consumer code L112-1-1). The
// reference is therefore read from what the site recorded, never typed by anyone.

export const REFERENCE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The struck-through reference for the price charged at `now`: the lowest price charged (same
 * currency) in the 30 days before that price began, when it is higher; null otherwise (no history,
 * no reduction, or a price that went up). A history that does not cover the whole 30 days (a shop
 * younger than that, or a currency changed inside them) has no lowest price of those 30 days to
 * show, so it gives none: a price live for a few minutes is not a reference.
 */
export function referencePrice(history: readonly PriceCharged[], now: Date): number | null {
  const at = now.getTime();
  let currentIndex = -1;
  for (let i = 0; i < history.length; i++) if ((history[i]?.since.getTime() ?? Infinity) <= at) currentIndex = i;
  const current = history[currentIndex];
  if (current === undefined) return null;
  const began = current.since.getTime();
  const windowStart = began - REFERENCE_WINDOW_MS;
  const first = history[0];
  if (first === undefined || first.since.getTime() > windowStart) return null;
  let lowest: number | null = null;
  for (let i = 0; i < currentIndex; i++) {
    const row = history[i];
    if (row === undefined) continue;
    const charged = row.since.getTime() < began && (history[i + 1]?.since.getTime() ?? began) > windowStart;
    if (charged && row.currency !== current.currency) return null;
    if (row.currency !== current.currency) continue;
    // Charged from its `since` until the next price began.
    const until = history[i + 1]?.since.getTime() ?? began;
    if (until <= windowStart || row.since.getTime() >= began || until === row.since.getTime()) continue;
    lowest = lowest === null ? row.priceMinor : Math.min(lowest, row.priceMinor);
  }
  return lowest !== null && lowest > current.priceMinor ? lowest : null;
}
