import type { Db } from "../../../db/client";
import type { Write } from "../../../db/writer";
import type { AnalyticsKind } from "../../../db/schema";
import type { DeviceClass, VitalMetric } from "../../../shared/analytics";
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
 */
export const MAX_QUEUED = 50_000;
const BATCH = 2_000;
const FLUSH_WAIT_MS = 250;
export const FLUSH_EVERY_MS = 1_000;

export type IngestQueue = {
  push(event: QueuedEvent): boolean;
  pushCheckout(checkout: QueuedCheckout): void;
  flush(): Promise<number>;
  /** Rows waiting, and rows dropped because the queue was full since the start. */
  stats(): { queued: number; dropped: number };
  stop(): Promise<void>;
};

export function createIngestQueue(deps: { db: Db; write: Write; log: Logger }, options: { timer: boolean }): IngestQueue {
  const { db, write, log } = deps;
  let events: QueuedEvent[] = [];
  let checkouts: QueuedCheckout[] = [];
  let dropped = 0;
  let droppedReported = 0;
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
  });
  let prepared: ReturnType<typeof statements> | null = null;

  const writeBatch = async (): Promise<number> => {
    const batch = events.slice(0, BATCH);
    const visits = checkouts.slice(0, BATCH);
    if (batch.length === 0 && visits.length === 0) return 0;
    const { insertEvent, insertCheckout } = (prepared ??= statements());
    await write(
      () => {
        for (const e of batch)
          insertEvent.run(e.day, e.at, e.visitor, e.kind, e.page, e.locale, e.source, e.campaign, e.medium, e.device, e.metric, e.value);
        for (const c of visits) insertCheckout.run(c.checkoutId, c.day, c.at, c.visitor, c.locale);
      },
      { waitMs: FLUSH_WAIT_MS },
    );
    // Only once committed: a failed write leaves the rows queued for the next flush.
    events = events.slice(batch.length);
    checkouts = checkouts.slice(visits.length);
    return batch.length + visits.length;
  };

  const flushAll = async (): Promise<number> => {
    let written = 0;
    try {
      for (;;) {
        const n = await writeBatch();
        if (n === 0) break;
        written += n;
      }
    } catch (error) {
      log.warn("analytics: rows not written yet, will retry", {
        queued: events.length + checkouts.length,
        error: error instanceof Error ? error.message : String(error),
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
    stats: () => ({ queued: events.length + checkouts.length, dropped }),
    async stop() {
      if (timer !== null) clearInterval(timer);
      await flush();
    },
  };
}
