import { and, count, countDistinct, eq, gt, inArray, isNotNull, min, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { analyticsDaily, analyticsEvents, analyticsVitalsDaily, checkoutVisits } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import { dayBefore, utcDay } from "./day";
import { VITAL_BUCKETS } from "./vitals";

type Row = Omit<typeof analyticsDaily.$inferInsert, "day">;
type Dimension = Row["dimension"];
type Tally = { dimension: Dimension; key: string; visitors: Set<string>; hits: number; payment: Set<string> };
type First = { source: string; campaign: string | null };

const tally = (dimension: Dimension, key: string): Tally => ({ dimension, key, visitors: new Set(), hits: 0, payment: new Set() });

/**
 * Sources and campaigns come from the visitor's address bar and referrer: anyone can send a new one
 * with every page view. A day keeps the totals of its KEPT_PER_DAY largest ones; the rest are added
 * up under OTHER, so the kept totals stay a few hundred rows a day however many names a flood sends.
 */
export const KEPT_PER_DAY = 100;
export const OTHER = "(other)";

/**
 * The totals of one day from its events. Reads run outside any transaction (WAL: they never wait
 * for or hold the write lock); the write replaces the day's few hundred rows of totals in one short
 * transaction, so the console reads totals and never the events.
 */
export async function rollUpDay(db: Db, write: Write, day: string): Promise<void> {
  const e = analyticsEvents;
  const views = db
    .select({ visitor: e.visitor, page: e.page, locale: e.locale, source: e.source, campaign: e.campaign, device: e.device })
    .from(e)
    .where(and(eq(e.day, day), eq(e.kind, "pageview")))
    .orderBy(e.at)
    .all();
  const visits = db
    .select({ checkoutId: checkoutVisits.checkoutId, visitor: checkoutVisits.visitor, locale: checkoutVisits.locale })
    .from(checkoutVisits)
    .where(and(eq(checkoutVisits.day, day), isNotNull(checkoutVisits.visitor)))
    .all();
  const first = new Map<string, First>();
  const payers = new Set<string>();
  // Per language, a visitor reached the payment page if it saw it in that language.
  const payersByLocale = new Set<string>();
  for (const v of views) {
    if (!first.has(v.visitor)) first.set(v.visitor, { source: v.source, campaign: v.campaign });
    if (v.page === "payment") {
      payers.add(v.visitor);
      payersByLocale.add(`${v.locale}\u0000${v.visitor}`);
    }
  }
  // A visitor who started a checkout went to pay, from the payment page or from the landing page's
  // own pay button: the funnel's "went to pay" step holds every visitor of the next one.
  for (const v of visits) {
    if (v.visitor === null || !first.has(v.visitor)) continue;
    payers.add(v.visitor);
    payersByLocale.add(`${v.locale}\u0000${v.visitor}`);
  }
  const groups = new Map<string, Tally>();
  const add = (dimension: Dimension, key: string, visitor: string, paid = payers.has(visitor)) => {
    const id = `${dimension}\u0000${key}`;
    let t = groups.get(id);
    if (t === undefined) groups.set(id, (t = tally(dimension, key)));
    t.visitors.add(visitor);
    t.hits++;
    if (paid) t.payment.add(visitor);
  };
  // A visitor's source and campaign are those of its first page view: ranked by their visitors.
  const kept = (of: (f: First) => string | null) => {
    const visitors = new Map<string, number>();
    for (const f of first.values()) {
      const key = of(f);
      if (key !== null) visitors.set(key, (visitors.get(key) ?? 0) + 1);
    }
    const ranked = [...visitors].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return new Set(ranked.slice(0, KEPT_PER_DAY).map(([key]) => key));
  };
  const keptSources = kept((f) => f.source);
  const keptCampaigns = kept((f) => f.campaign);
  for (const f of first.values()) {
    if (!keptSources.has(f.source)) f.source = OTHER;
    if (f.campaign !== null && !keptCampaigns.has(f.campaign)) f.campaign = OTHER;
  }
  // Source and campaign are what brought the visitor: each page view goes to those of its first view.
  // Language, device and page are each view's own: a visitor who reads the French and the English
  // page, on a phone then a computer, counts once under each language and each device it used, and
  // each view counts under its own. So per language (or device) visitors add up to more than the
  // day's visitors, while page views add up to the day's page views.
  for (const v of views) {
    const f = first.get(v.visitor);
    if (f === undefined) continue;
    add("all", "", v.visitor);
    add("source", f.source, v.visitor);
    if (f.campaign !== null) add("campaign", f.campaign, v.visitor);
    add("locale", v.locale, v.visitor, payersByLocale.has(`${v.locale}\u0000${v.visitor}`));
    add("device", v.device, v.visitor);
    add("page", v.page, v.visitor);
  }
  const rows: Row[] = [...groups.values()].map((t) => ({
    dimension: t.dimension,
    key: t.key,
    visitors: t.visitors.size,
    hits: t.hits,
    paymentVisitors: t.payment.size,
  }));
  const events = db
    .select({ kind: e.kind, hits: count(), visitors: countDistinct(e.visitor) })
    .from(e)
    .where(and(eq(e.day, day), inArray(e.kind, ["demo_opened", "pay_clicked", "lead_sent", "chat_opened"])))
    .groupBy(e.kind)
    .all();
  for (const ev of events) rows.push({ dimension: "event", key: ev.kind, visitors: ev.visitors, hits: ev.hits, paymentVisitors: 0 });
  // A sample's bucket in its measure's histogram (vitals.ts); the last one holds everything above.
  const bucket = sql<number>`min(CAST(${e.value} / (CASE ${e.metric} WHEN 'LCP' THEN ${VITAL_BUCKETS.LCP.width} WHEN 'INP' THEN ${VITAL_BUCKETS.INP.width} ELSE ${VITAL_BUCKETS.CLS.width} END) AS INTEGER), ${VITAL_BUCKETS.last})`;
  const vitals = db
    .select({ page: e.page, device: e.device, metric: e.metric, bucket, samples: count() })
    .from(e)
    .where(and(eq(e.day, day), eq(e.kind, "vital"), isNotNull(e.metric), isNotNull(e.value)))
    .groupBy(e.page, e.device, e.metric, bucket)
    .all();

  await write((tx) => {
    tx.delete(analyticsDaily).where(eq(analyticsDaily.day, day)).run();
    for (const r of rows)
      tx.insert(analyticsDaily)
        .values({ day, ...r })
        .run();
    tx.delete(analyticsVitalsDaily).where(eq(analyticsVitalsDaily.day, day)).run();
    for (const v of vitals) {
      // (Never null: the query takes only samples with a measure.)
      if (v.metric !== null)
        tx.insert(analyticsVitalsDaily)
          .values({ day, ...v, metric: v.metric })
          .run();
    }
    // The checkout's visitor, as seen by its first page view of the day; without one (no script),
    // its source is unknown.
    for (const v of visits) {
      const f = v.visitor === null ? undefined : first.get(v.visitor);
      tx.update(checkoutVisits)
        .set({ source: f?.source ?? "unknown", campaign: f?.campaign ?? null })
        .where(eq(checkoutVisits.checkoutId, v.checkoutId))
        .run();
    }
  });
}

export async function rollUpDays(db: Db, write: Write, days: readonly string[]): Promise<void> {
  for (const day of days) await rollUpDay(db, write, day);
}

/**
 * Today, yesterday (its last beacons may have been written after midnight), and every day that has
 * events and no totals yet (the first start after an upgrade, a server stopped over a midnight).
 * The days are found by seeking the index from one day to the next, never by reading the events.
 */
export async function rollUpDue(db: Db, write: Write, now: Date): Promise<void> {
  const today = utcDay(now);
  const due = new Set([dayBefore(today, 1), today]);
  const next = (after: string) =>
    db
      .select({ day: min(analyticsEvents.day) })
      .from(analyticsEvents)
      .where(gt(analyticsEvents.day, after))
      .get()?.day ?? null;
  const hasTotals = (day: string) =>
    (db
      .select({ n: count() })
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.day, day), eq(analyticsDaily.dimension, "all")))
      .get()?.n ?? 0) > 0;
  for (let day = next(""); day !== null && day < today; day = next(day)) {
    if (!hasTotals(day)) due.add(day);
  }
  await rollUpDays(db, write, [...due].sort());
}
