import type { Db } from "../../../db/client";
import type { Write } from "../../../db/writer";
import { dayBefore, utcDay } from "./day";
import { VITAL_BUCKETS } from "./vitals";

type Row = { dimension: string; key: string; visitors: number; hits: number; paymentVisitors: number };
type Tally = { visitors: Set<string>; hits: number; payment: Set<string> };
type First = { source: string; campaign: string | null };

const tally = (): Tally => ({ visitors: new Set(), hits: 0, payment: new Set() });

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
  const views = db.$client
    .query<{ visitor: string; page: string; locale: string; source: string; campaign: string | null; device: string }, [string]>(
      "SELECT visitor, page, locale, source, campaign, device FROM analytics_events WHERE day = ? AND kind = 'pageview' ORDER BY at",
    )
    .all(day);
  const visits = db.$client
    .query<{ checkoutId: string; visitor: string | null; locale: string }, [string]>(
      "SELECT checkout_id AS checkoutId, visitor, locale FROM checkout_visits WHERE day = ? AND visitor IS NOT NULL",
    )
    .all(day);
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
  const add = (dimension: string, key: string, visitor: string, paid = payers.has(visitor)) => {
    const id = `${dimension}\u0000${key}`;
    let t = groups.get(id);
    if (t === undefined) groups.set(id, (t = tally()));
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
  const rows: Row[] = [...groups].map(([id, t]) => {
    const [dimension = "", key = ""] = id.split("\u0000");
    return { dimension, key, visitors: t.visitors.size, hits: t.hits, paymentVisitors: t.payment.size };
  });
  const events = db.$client
    .query<{ kind: string; hits: number; visitors: number }, [string]>(
      `SELECT kind, count(*) AS hits, count(DISTINCT visitor) AS visitors FROM analytics_events
       WHERE day = ? AND kind IN ('demo_opened', 'pay_clicked', 'lead_sent', 'chat_opened') GROUP BY kind`,
    )
    .all(day);
  for (const e of events) rows.push({ dimension: "event", key: e.kind, visitors: e.visitors, hits: e.hits, paymentVisitors: 0 });
  const vitals = db.$client
    .query<{ page: string; device: string; metric: string; bucket: number; samples: number }, [string, number, number, number, number]>(
      `SELECT page, device, metric,
         min(CAST(value / (CASE metric WHEN 'LCP' THEN ?2 WHEN 'INP' THEN ?3 ELSE ?4 END) AS INTEGER), ?5) AS bucket,
         count(*) AS samples
       FROM analytics_events WHERE day = ?1 AND kind = 'vital' GROUP BY 1, 2, 3, 4`,
    )
    .all(day, VITAL_BUCKETS.LCP.width, VITAL_BUCKETS.INP.width, VITAL_BUCKETS.CLS.width, VITAL_BUCKETS.last);

  await write(() => {
    const c = db.$client;
    c.query("DELETE FROM analytics_daily WHERE day = ?").run(day);
    const insert = c.prepare(
      "INSERT INTO analytics_daily (day, dimension, key, visitors, hits, payment_visitors) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const r of rows) insert.run(day, r.dimension, r.key, r.visitors, r.hits, r.paymentVisitors);
    c.query("DELETE FROM analytics_vitals_daily WHERE day = ?").run(day);
    const insertVital = c.prepare(
      "INSERT INTO analytics_vitals_daily (day, page, device, metric, bucket, samples) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const v of vitals) insertVital.run(day, v.page, v.device, v.metric, v.bucket, v.samples);
    // The checkout's visitor, as seen by its first page view of the day; without one (no script),
    // its source is unknown.
    const attribute = c.prepare("UPDATE checkout_visits SET source = ?, campaign = ? WHERE checkout_id = ?");
    for (const v of visits) {
      const f = v.visitor === null ? undefined : first.get(v.visitor);
      attribute.run(f?.source ?? "unknown", f?.campaign ?? null, v.checkoutId);
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
  const next = db.$client.query<{ day: string | null }, [string]>("SELECT min(day) AS day FROM analytics_events WHERE day > ?");
  const hasTotals = db.$client.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM analytics_daily WHERE day = ? AND dimension = 'all'",
  );
  for (let day = next.get("")?.day ?? null; day !== null && day < today; day = next.get(day)?.day ?? null) {
    if ((hasTotals.get(day)?.n ?? 0) === 0) due.add(day);
  }
  await rollUpDays(db, write, [...due].sort());
}
