import type { Db } from "../../../db/client";
import { VITAL_METRICS, type VitalMetric } from "../../../shared/analytics";
import { daysEnding, utcDay } from "../../shop/analytics/day";
import { percentileOf } from "../../shop/analytics/vitals";
import { realSaleSql } from "../../shop/paperwork/numbering";

const DAY_MS = 24 * 60 * 60 * 1000;
export const AUDIENCE_DAYS = 30;
/** A buyer counts as "activated" when the licence's first device came within this of the payment. */
const ACTIVATION_WINDOW_MS = 7 * DAY_MS;

/**
 * Counted visitors (one a day), and among them those who went to pay (the payment page or a pay
 * button), started a checkout, paid, and activated within 7 days: each step a part of the one
 * before, so no share is ever above 100 %. A visitor counts once a day in each step, however many
 * checkouts they made.
 */
export type Funnel = { visitors: number; paymentPage: number; checkoutStarted: number; paid: number; activated: number };
export type Breakdown = { key: string; visitors: number; hits: number };
export type VitalRow = { page: string; device: string; p75: Record<VitalMetric, number | null>; samples: number };

export type Audience = {
  /** The UTC days, oldest first: [day, visitors, page views]. */
  days: [string, number, number][];
  totals: { visitors: number; pageviews: number };
  sources: Breakdown[];
  campaigns: Breakdown[];
  locales: Breakdown[];
  devices: Breakdown[];
  pages: Breakdown[];
  events: Breakdown[];
  funnel: Funnel;
  /** Orders paid in the period, whether or not their visit was counted. */
  paidOrders: number;
  /**
   * Of those, the ones whose visitor the counting never saw (no JavaScript, counting refused, a
   * program): outside the funnel, which is about counted visitors.
   */
  uncountedPaid: number;
  funnelBySource: (Funnel & { key: string })[];
  funnelByLocale: (Funnel & { key: string })[];
  /** `code`: the discount code of those orders, "" for none. */
  revenueBySource: { key: string; code: string; orders: number; revenue: number }[];
  vitals: VitalRow[];
  currency: string;
  /** Days of the period that reached the limit of stored rows, and the beacons they refused. */
  capped: { days: number; refused: number; limit: number };
};

const emptyFunnel = (): Funnel => ({ visitors: 0, paymentPage: 0, checkoutStarted: 0, paid: 0, activated: 0 });

/** The console's audience page: the last 30 UTC days. */
export function audienceReport(db: Db, now: Date, currency: string, maxEventsPerDay: number, testOrders: boolean): Audience {
  return audienceOfDays(db, daysEnding(utcDay(now), AUDIENCE_DAYS), currency, maxEventsPerDay, testOrders);
}

/**
 * The audience of consecutive UTC days (YYYY-MM-DD, oldest first): the console's page reads its 30
 * days, the owner's digest e-mail its day or week. It reads the daily totals (a few hundred rows a
 * day, whatever the traffic) and the checkouts' visits joined to their orders (one row per
 * checkout), never the events themselves.
 */
export function audienceOfDays(db: Db, days: readonly string[], currency: string, maxEventsPerDay: number, testOrders: boolean): Audience {
  const from = days[0] ?? "";
  const to = days.at(-1) ?? "";
  const sql = db.$client;
  const daily = sql
    .query<{ day: string; visitors: number; hits: number }, [string, string]>(
      "SELECT day, visitors, hits FROM analytics_daily WHERE dimension = 'all' AND day >= ? AND day <= ?",
    )
    .all(from, to);
  const byDay = new Map(daily.map((r) => [r.day, r]));
  const breakdown = (dimension: string, limit = 10): Breakdown[] =>
    sql
      .query<Breakdown, [string, string, string, number]>(
        `SELECT key, sum(visitors) AS visitors, sum(hits) AS hits FROM analytics_daily
         WHERE dimension = ? AND day >= ? AND day <= ? GROUP BY key ORDER BY visitors DESC, hits DESC, key LIMIT ?`,
      )
      .all(dimension, from, to, limit);
  const stepsBy = (dimension: "all" | "source" | "locale") =>
    sql
      .query<{ key: string; visitors: number; paymentPage: number }, [string, string, string]>(
        `SELECT key, sum(visitors) AS visitors, sum(payment_visitors) AS paymentPage FROM analytics_daily
         WHERE dimension = ? AND day >= ? AND day <= ? GROUP BY key`,
      )
      .all(dimension, from, to);
  // In production (testOrders false) real sales only, as the overview counts them: a test order is
  // neither a buyer of the funnel nor a paid order.
  const real = testOrders ? "" : ` AND ${realSaleSql("o.")}`;
  // Checkouts started in the period by counted visitors, grouped by `key` (the visit's source, its
  // language, or nothing for the whole funnel), with what became of them. The steps count visitors
  // (one a day: `who`), like the funnel's first step, distinct within each group: a visitor who paid
  // twice, in two languages, is one buyer of the whole funnel, never two. A checkout whose visitor
  // made no counted page view that day has the source "unknown" (the roll-up's attribution), or none
  // before its day is rolled up: it stays outside the funnel.
  const checkoutsBy = (key: string) =>
    sql
      .query<{ key: string; started: number; paid: number; activated: number }, [string, number, string]>(
        `SELECT ${key} AS key,
           count(DISTINCT v.day || coalesce(v.visitor, v.checkout_id)) AS started,
           count(DISTINCT CASE WHEN o.paid_at IS NOT NULL THEN v.day || coalesce(v.visitor, v.checkout_id) END) AS paid,
           count(DISTINCT CASE WHEN a.first_at - o.paid_at <= ?2 THEN v.day || coalesce(v.visitor, v.checkout_id) END) AS activated
         FROM checkout_visits v
         LEFT JOIN orders o ON o.checkout_id = v.checkout_id AND o.paid_at IS NOT NULL${real}
         LEFT JOIN licenses l ON l.order_id = o.id
         LEFT JOIN (SELECT license_id, min(created_at) AS first_at FROM license_activations GROUP BY license_id) a ON a.license_id = l.id
         WHERE v.day >= ?1 AND v.day <= ?3 AND coalesce(v.source, 'unknown') <> 'unknown'
         GROUP BY 1`,
      )
      .all(from, ACTIVATION_WINDOW_MS, to);
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  const paidOrders = sql
    .query<{ paid: number; uncounted: number }, [number, number]>(
      `SELECT count(*) AS paid, count(CASE WHEN coalesce(v.source, 'unknown') = 'unknown' THEN 1 END) AS uncounted
       FROM orders o LEFT JOIN checkout_visits v ON v.checkout_id = o.checkout_id
       WHERE o.paid_at >= ? AND o.paid_at < ?${real}`,
    )
    .get(start, end) ?? { paid: 0, uncounted: 0 };

  type CheckoutSteps = { started: number; paid: number; activated: number };
  const funnelOf = (rows: { visitors: number; paymentPage: number }[], steps: readonly CheckoutSteps[]): Funnel => {
    const f = emptyFunnel();
    for (const r of rows) {
      f.visitors += r.visitors;
      f.paymentPage += r.paymentPage;
    }
    for (const c of steps) {
      f.checkoutStarted += c.started;
      f.paid += c.paid;
      f.activated += c.activated;
    }
    return f;
  };
  const keyed = (dimension: "source" | "locale", column: string) => {
    const steps = stepsBy(dimension);
    const checkouts = checkoutsBy(column);
    const keys = new Set([...steps.map((s) => s.key), ...checkouts.map((c) => c.key)]);
    return [...keys]
      .map((key) => ({
        key,
        ...funnelOf(
          steps.filter((s) => s.key === key),
          checkouts.filter((c) => c.key === key),
        ),
      }))
      .sort((a, b) => b.paid - a.paid || b.visitors - a.visitors || a.key.localeCompare(b.key));
  };
  // Paid orders by their visit's source and the discount code they used (none: ""), the code beside
  // the source.
  const revenue = sql
    .query<{ key: string; code: string; orders: number; revenue: number }, [string, string]>(
      `SELECT coalesce(v.source, 'unknown') AS key, coalesce(o.discount_code, '') AS code,
         count(o.paid_at) AS orders, total(CASE WHEN o.status = 'paid' THEN o.amount END) AS revenue
       FROM checkout_visits v JOIN orders o ON o.checkout_id = v.checkout_id AND o.paid_at IS NOT NULL${real}
       WHERE v.day >= ? AND v.day <= ?
       GROUP BY 1, 2`,
    )
    .all(from, to);

  const histograms = new Map<string, Map<VitalMetric, Map<number, number>>>();
  const vitals = sql
    .query<{ page: string; device: string; metric: VitalMetric; bucket: number; samples: number }, [string, string]>(
      "SELECT page, device, metric, bucket, sum(samples) AS samples FROM analytics_vitals_daily WHERE day >= ? AND day <= ? GROUP BY 1, 2, 3, 4",
    )
    .all(from, to);
  for (const v of vitals) {
    const id = `${v.page}\u0000${v.device}`;
    const metrics = histograms.get(id) ?? new Map<VitalMetric, Map<number, number>>();
    histograms.set(id, metrics);
    const h = metrics.get(v.metric) ?? new Map<number, number>();
    metrics.set(v.metric, h);
    h.set(v.bucket, v.samples);
  }

  const capped = sql
    .query<{ days: number; refused: number }, [string, string]>(
      "SELECT count(*) AS days, total(refused) AS refused FROM analytics_day_counts WHERE day >= ? AND day <= ? AND refused > 0",
    )
    .get(from, to) ?? { days: 0, refused: 0 };

  return {
    capped: { days: capped.days, refused: capped.refused, limit: maxEventsPerDay },
    days: days.map((d) => [d, byDay.get(d)?.visitors ?? 0, byDay.get(d)?.hits ?? 0]),
    totals: { visitors: daily.reduce((n, r) => n + r.visitors, 0), pageviews: daily.reduce((n, r) => n + r.hits, 0) },
    sources: breakdown("source"),
    campaigns: breakdown("campaign"),
    locales: breakdown("locale"),
    devices: breakdown("device"),
    pages: breakdown("page"),
    events: breakdown("event"),
    funnel: funnelOf(stepsBy("all"), checkoutsBy("''")),
    paidOrders: paidOrders.paid,
    uncountedPaid: paidOrders.uncounted,
    funnelBySource: keyed("source", "v.source"),
    funnelByLocale: keyed("locale", "v.locale"),
    revenueBySource: revenue.filter((r) => r.orders > 0).sort((a, b) => b.revenue - a.revenue),
    vitals: [...histograms].map(([id, metrics]) => {
      const [page = "", device = ""] = id.split("\u0000");
      const p75 = Object.fromEntries(VITAL_METRICS.map((m) => [m, percentileOf(m, metrics.get(m) ?? new Map(), 0.75)]));
      const samples = Math.max(...[...metrics.values()].map((h) => [...h.values()].reduce((a, b) => a + b, 0)));
      return { page, device, p75: { LCP: p75.LCP ?? null, INP: p75.INP ?? null, CLS: p75.CLS ?? null }, samples };
    }),
    currency,
  };
}
