import type { Db } from "../../../db/client";
import type { AnalyticsKind } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import type { DeviceClass, VitalMetric } from "../../../shared/analytics";
import { errorText } from "../../../shared/error-text";
import type { Logger } from "../../platform/log";

/** A row of analytics_events, as queued. */
export type QueuedEvent = {
  day: string;
  at: number;
  visitor: string;
  kind: AnalyticsKind;
  page: string;
  locale: string;
  source: string;
  campaign: string | null;
  medium: string | null;
  device: DeviceClass;
  metric: VitalMetric | null;
  value: number | null;
};

/** A row of checkout_visits, as queued (its source is filled in by the roll-up). */
export type QueuedCheckout = { checkoutId: string; day: string; at: number; visitor: string; locale: string };

/**
 * Beacons are not written one by one: each would take the database's write lock, and under a flood
 * they would queue in front of payments and leads. They wait in memory and are written every second
 * in a few short transactions (at most BATCH rows each, a few milliseconds). The queue is bounded:
 * past MAX_QUEUED rows new ones are dropped and counted, so a flood costs neither memory nor disk.
 * A flush that finds the lock taken waits at most FLUSH_WAIT_MS, keeps its rows and tries again next
 * second. What is still queued when the process is killed is lost: page views are statistics, not
 * anything a visitor was promised.
 *
 * The queue bounds memory, not disk: it empties every second, so many addresses each within their
 * rate limit could still write without end. Each UTC day therefore stores at most `maxPerDay` rows,
 * counted in analytics_day_counts in the same transaction as the rows (every server process sees
 * the same count); the rest of a full day's beacons are refused and counted there too. The disk
 * then holds at most `maxPerDay` rows per day kept, which the retention deletes as fast as they come.
 */
export const MAX_QUEUED = 50_000;
const BATCH = 2_000;
const FLUSH_WAIT_MS = 250;
export const FLUSH_EVERY_MS = 1_000;

export type IngestQueue = {
  push(event: QueuedEvent): boolean;
  pushCheckout(checkout: QueuedCheckout): void;
  flush(): Promise<number>;
  /** Rows waiting, rows dropped because the queue was full, and rows refused because their day was full, since the start. */
  stats(): { queued: number; dropped: number; refused: number };
  stop(): Promise<void>;
};

export function createIngestQueue(
  deps: { db: Db; write: Write; log: Logger },
  options: { timer: boolean; maxPerDay: number },
): IngestQueue {
  const { db, write, log } = deps;
  const { maxPerDay } = options;
  let events: QueuedEvent[] = [];
  let checkouts: QueuedCheckout[] = [];
  let dropped = 0;
  let droppedReported = 0;
  let refused = 0;
  // Days this process found full: their beacons are refused before they take any memory.
  const fullDays = new Set<string>();
  // Refused here and not yet added to the day's count in the database.
  const refusedUnsaved = new Map<string, number>();
  const noteRefused = (day: string, n: number) => {
    refused += n;
    refusedUnsaved.set(day, (refusedUnsaved.get(day) ?? 0) + n);
  };
  let flushing: Promise<number> | null = null;
  // Prepared on first use: the tables exist once the first process has migrated the database.
  const statements = () => ({
    insertEvent: db.$client.prepare(
      `INSERT INTO analytics_events (day, at, visitor, kind, page, locale, source, campaign, medium, device, metric, value)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertCheckout: db.$client.prepare(
      "INSERT INTO checkout_visits (checkout_id, day, at, visitor, locale) VALUES (?, ?, ?, ?, ?) ON CONFLICT (checkout_id) DO NOTHING",
    ),
    storedOn: db.$client.prepare<{ stored: number }, [string]>("SELECT stored FROM analytics_day_counts WHERE day = ?"),
    count: db.$client.prepare(
      `INSERT INTO analytics_day_counts (day, stored, refused) VALUES (?1, ?2, ?3)
       ON CONFLICT (day) DO UPDATE SET stored = stored + ?2, refused = refused + ?3`,
    ),
  });
  let prepared: ReturnType<typeof statements> | null = null;

  const writeBatch = async (): Promise<number> => {
    const batch = events.slice(0, BATCH);
    const visits = checkouts.slice(0, BATCH);
    const refusedNow = new Map(refusedUnsaved);
    const { insertEvent, insertCheckout, storedOn, count } = (prepared ??= statements());
    const outcome = await write(
      () => {
        // Per day: rows still allowed, then rows written and refused by this transaction.
        const room = new Map<string, number>();
        const tally = new Map<string, { stored: number; refused: number }>();
        const tallyOf = (day: string) => {
          let t = tally.get(day);
          if (t === undefined) tally.set(day, (t = { stored: 0, refused: 0 }));
          return t;
        };
        for (const e of batch) {
          const left = room.get(e.day) ?? maxPerDay - (storedOn.get(e.day)?.stored ?? 0);
          if (left <= 0) {
            room.set(e.day, 0);
            tallyOf(e.day).refused++;
            continue;
          }
          insertEvent.run(e.day, e.at, e.visitor, e.kind, e.page, e.locale, e.source, e.campaign, e.medium, e.device, e.metric, e.value);
          room.set(e.day, left - 1);
          tallyOf(e.day).stored++;
        }
        for (const day of refusedNow.keys()) tallyOf(day);
        for (const [day, t] of tally) count.run(day, t.stored, t.refused + (refusedNow.get(day) ?? 0));
        for (const c of visits) insertCheckout.run(c.checkoutId, c.day, c.at, c.visitor, c.locale);
        return { room, tally };
      },
      { waitMs: FLUSH_WAIT_MS },
    );
    // Only once committed: a failed write leaves the rows queued for the next flush.
    events = events.slice(batch.length);
    checkouts = checkouts.slice(visits.length);
    for (const [day, n] of refusedNow) {
      const left = (refusedUnsaved.get(day) ?? 0) - n;
      if (left > 0) refusedUnsaved.set(day, left);
      else refusedUnsaved.delete(day);
    }
    for (const [day, left] of outcome.room) {
      if (left > 0) continue;
      if (!fullDays.has(day))
        log.warn("analytics: the day's limit of stored rows is reached, its further beacons are not counted", {
          day,
          limit: maxPerDay,
        });
      fullDays.add(day);
    }
    let stored = 0;
    for (const t of outcome.tally.values()) {
      refused += t.refused;
      stored += t.stored;
    }
    return stored + visits.length;
  };

  const flushAll = async (): Promise<number> => {
    let written = 0;
    try {
      while (events.length > 0 || checkouts.length > 0 || refusedUnsaved.size > 0) written += await writeBatch();
    } catch (error) {
      log.warn("analytics: rows not written yet, will retry", {
        queued: events.length + checkouts.length,
        error: errorText(error),
      });
    }
    if (dropped > droppedReported) {
      log.warn("analytics: queue full, page views dropped", { dropped: dropped - droppedReported });
      droppedReported = dropped;
    }
    return written;
  };

  const flush = (): Promise<number> => {
    // One flush at a time; a caller arriving during one waits for it, then flushes what came since.
    const run = (flushing ?? Promise.resolve(0)).then(flushAll);
    flushing = run.finally(() => {
      if (flushing === run) flushing = null;
    });
    return run;
  };

  const timer = options.timer ? setInterval(() => void flush(), FLUSH_EVERY_MS) : null;
  timer?.unref?.();

  return {
    push(event) {
      if (fullDays.has(event.day)) {
        noteRefused(event.day, 1);
        return false;
      }
      if (events.length >= MAX_QUEUED) {
        dropped++;
        return false;
      }
      events.push(event);
      return true;
    },
    pushCheckout(checkout) {
      // Never dropped: a checkout is one per payment attempt, already rate-limited.
      checkouts.push(checkout);
    },
    flush,
    stats: () => ({ queued: events.length + checkouts.length, dropped, refused }),
    async stop() {
      if (timer !== null) clearInterval(timer);
      await flush();
    },
  };
}
