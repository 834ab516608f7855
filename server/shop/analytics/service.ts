import { isbot } from "isbot";
import type { Db } from "../../../db/client";
import type { Write } from "../../../db/writer";
import type { Locale } from "../../../shared/locales";
import { matchPath } from "../../../shared/routes";
import type { Beacon } from "../../../shared/schemas/analytics";
import type { Config } from "../../platform/config";
import type { Logger } from "../../platform/log";
import { utcDay } from "./day";
import { createIngestQueue, type IngestQueue } from "./ingest";
import { rollUpDays, rollUpDue } from "./rollup";
import { openVisitorKeys, type VisitorKeys } from "./visitor-keys";

/** Who sent a request, as the analytics see it for the moment of hashing: never stored. */
export type Sender = { ip: string; userAgent: string | null };

/**
 * The site's own audience counting (docs/audience.md): page views and events from the page's
 * script, the checkouts the server starts, and the daily totals the console reads.
 */
export type Analytics = {
  /** Queues a beacon; "bot" when the sender is a bot or sent no User-Agent (nothing counted), "unknown-page" for a path that is no page. */
  recordBeacon(beacon: Beacon, sender: Sender): "counted" | "bot" | "unknown-page" | "dropped";
  /** Queues the visit that started a checkout, so the order can be attributed to its source. */
  checkoutStarted(input: { checkoutId: string; locale: Locale; sender: Sender }): void;
  /** Writes what is queued now (the queue does it every second by itself). */
  flush(): Promise<number>;
  /** Recomputes the daily totals of today and yesterday, and of any day with events but no totals. */
  rollUp(): Promise<void>;
  /** Recomputes the totals of today when the last roll-up of this process is older than `maxAgeMs`. */
  rollUpIfStale(maxAgeMs: number): Promise<void>;
  keys: VisitorKeys;
  queue: IngestQueue;
  stop(): Promise<void>;
};

/** The referring host as a source name: no "www.", lower case; the site's own host is no source. */
function sourceOf(beacon: Extract<Beacon, { kind: "pageview" }> | { referrer?: string; utmSource?: string }, ownHost: string): string {
  const utm = beacon.utmSource?.trim().toLowerCase();
  if (utm) return utm.slice(0, 100);
  const host = beacon.referrer?.toLowerCase().replace(/^www\./, "");
  if (!host || host === ownHost) return "direct";
  return host;
}

export function createAnalytics(
  deps: { config: Config; db: Db; write: Write; log: Logger; now: () => Date },
  options: { timer: boolean },
): Analytics {
  const { config, db, write, log, now } = deps;
  const keys = openVisitorKeys(config.dataDir);
  const queue = createIngestQueue({ db, write, log }, { ...options, maxPerDay: config.analyticsMaxEventsPerDay });
  const ownHost = new URL(config.publicBaseUrl).host.toLowerCase().replace(/^www\./, "");
  let lastRollUp = 0;
  const isCounted = (sender: Sender) => sender.userAgent !== null && sender.userAgent.trim() !== "" && !isbot(sender.userAgent);

  const rollUp = async () => {
    lastRollUp = Date.now();
    await rollUpDue(db, write, now());
  };

  return {
    recordBeacon(beacon, sender) {
      if (!isCounted(sender) || sender.userAgent === null) return "bot";
      const route = matchPath(beacon.path);
      if (route === null) return "unknown-page";
      const at = now();
      const base = {
        day: utcDay(at),
        at: at.getTime(),
        visitor: keys.visitorHash(sender.ip, sender.userAgent, at),
        page: route.page,
        locale: route.locale,
        device: beacon.device,
      };
      const pushed =
        beacon.kind === "vital"
          ? queue.push({ ...base, kind: "vital", source: "", campaign: null, medium: null, metric: beacon.metric, value: beacon.value })
          : queue.push({
              ...base,
              kind: beacon.kind,
              source: sourceOf(beacon, ownHost),
              campaign: beacon.utmCampaign?.trim().toLowerCase() || null,
              medium: beacon.utmMedium?.trim().toLowerCase() || null,
              metric: null,
              value: null,
            });
      return pushed ? "counted" : "dropped";
    },
    checkoutStarted({ checkoutId, locale, sender }) {
      if (!isCounted(sender) || sender.userAgent === null) return;
      const at = now();
      queue.pushCheckout({
        checkoutId,
        day: utcDay(at),
        at: at.getTime(),
        visitor: keys.visitorHash(sender.ip, sender.userAgent, at),
        locale,
      });
    },
    flush: () => queue.flush(),
    rollUp,
    async rollUpIfStale(maxAgeMs) {
      if (Date.now() - lastRollUp < maxAgeMs) return;
      lastRollUp = Date.now();
      await queue.flush();
      await rollUpDays(db, write, [utcDay(now())]);
    },
    keys,
    queue,
    stop: () => queue.stop(),
  };
}
