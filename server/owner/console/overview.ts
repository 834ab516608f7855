import { and, count, eq, gte, inArray, sql, sum } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { emailLeads, mailOutbox, orders, paymentAttempts } from "../../../db/schema";
import type { SiteContent } from "../../../shared/site-facts";
import type { VatScheme } from "../../../shared/vat-scheme";
import { readReplicationStatus } from "../../platform/backup/status";
import type { Config } from "../../platform/config";
import { readTlsStatus } from "../../platform/tls/files";
import type { TlsSettings } from "../../platform/tls/settings";
import { realSaleSql } from "../../shop/paperwork/numbering";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The seller is in France: "today" and the chart's days are Paris days. */
const TIME_ZONE = "Europe/Paris";

export const PERIODS = ["today", "week", "month", "all"] as const;
export type Period = (typeof PERIODS)[number];

export type Figures = { gross: number; refunded: number; net: number; paidOrders: number; refundedOrders: number };
export type ChecklistItem = {
  id:
    | "seller"
    | "placeholders"
    | "description"
    | "faq"
    | "payments"
    | "smtp"
    | "ownerEmail"
    | "backups"
    | "https"
    | "catalogue"
    | "rights"
    | "claims";
  ok: boolean;
  /** The reference price's item only: whether a struck-through reference is shown. */
  referenceShown?: boolean;
};

/** What the checklist reads of the published content (server/site/content/live.ts publishedFacts). */
export type ContentReadiness = { describesProduct: boolean; ownFaq: boolean; catalogue?: CatalogueReadiness };

import type { CatalogueReadiness } from "../../platform/production-readiness";

export type Overview = {
  currency: string;
  /** VAT_SCHEME, said on the overview so the owner sees how sales are invoiced. */
  vatScheme: VatScheme;
  /**
   * The VAT the invoices charged, per country and rate (0: none, for a consumer outside the EU, a
   * reverse-charged company, a 100 % code or the franchise), highest count first: the scheme alone
   * does not say that some sales carried none.
   */
  vatCharged: VatCharged[];
  figures: Record<Period, Figures>;
  /** The last 30 Paris days, oldest first: [day start (s since the epoch), net revenue in minor units]. */
  chart: [number, number][];
  leads: { total: number; month: number };
  mail: { failed: number; retrying: number };
  /** Payment attempts the provider refused in the last 30 days (each on its order's page with the reason). */
  declined: number;
  checklist: ChecklistItem[];
  /** The seller-identity variables not set, named beside the checklist's seller item. */
  sellerIdentityMissing: string[];
  /** What the server's replicator last recorded, shown beside the checklist's backups item. */
  backup: { enabled: boolean; lastReplicatedAt: Date | null; lastError: string | null };
  /** The HTTPS certificate the site gets itself (DOMAIN set): until when, and the last failed attempt; null without DOMAIN. */
  certificate: CertificateState | null;
  /** The owner's digest e-mail as configured: when it goes out, or why it does not. */
  digest: { state: "daily" | "weekly" | "off" | "noEmail"; hour: number; weekday: number };
};

/** The certificate kept in DATA_DIR/tls/ as its last attempt recorded it (tls/files.ts status.json). */
export type CertificateState = {
  domains: string[];
  /** When the certificate in use expires; null while none was obtained. */
  notAfter: Date | null;
  /** The last attempt's error, until one succeeds, with when it failed and when the next one is due. */
  lastError: string | null;
  lastErrorAt: Date | null;
  nextAttemptAt: Date | null;
};

/** What the console and the digest say of the certificate: read from the status the running server writes. */
export function certificateState(tls: Pick<TlsSettings, "domains" | "dir"> | null): CertificateState | null {
  if (tls === null) return null;
  const status = readTlsStatus(tls.dir);
  return {
    domains: tls.domains,
    notAfter: status.notAfter,
    lastError: status.lastError,
    lastErrorAt: status.lastErrorAt,
    nextAttemptAt: status.nextAttemptAt,
  };
}

/** Minutes Paris is ahead of UTC at an instant (60 or 120). */
function parisOffsetMinutes(at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, timeZoneName: "longOffset" }).formatToParts(at);
  const name = parts.find((p) => p.type === "timeZoneName")?.value ?? "GMT+01:00";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (match === null) return 60;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The instant the Paris day of `at` began. */
export function parisDayStart(at: Date): Date {
  const offsetMs = parisOffsetMinutes(at) * 60 * 1000;
  const local = at.getTime() + offsetMs;
  return new Date(local - (local % DAY_MS) - offsetMs);
}

type Sums = { n: number; amount: number };
const byPeriod = <T>(value: (p: Period) => T): Record<Period, T> => ({
  today: value("today"),
  week: value("week"),
  month: value("month"),
  all: value("all"),
});

/**
 * Sales between two instants, `from` included, `to` excluded (null: up to now): gross is what was
 * paid in the range (orders refunded later included), refunded what went back in it, net the
 * difference. Each sum reads a range of one index alone (status, date, amount), never the table.
 * The overview's periods and the owner's digest e-mail both count with it.
 *
 * In production the built-in test checkout's orders are left out (countsTestOrders): they took no
 * money, even on a production site that allows the test checkout as a demo.
 */
export type VatCharged = { country: string | null; rate: number; invoices: number; vat: number };

/** Every invoice's VAT (not credit notes: the refunds are counted as such), grouped by country and rate. */

export function vatCharged(db: Db, testOrders: boolean): VatCharged[] {
  const real = testOrders ? "" : ` AND ${realSaleSql("o.")}`;
  return db.$client
    .query<VatCharged, []>(
      `SELECT CASE WHEN i.vat_rate = 0 THEN NULL ELSE i.vat_country END AS country, i.vat_rate AS rate, count(*) AS invoices, total(i.vat_amount) AS vat
       FROM invoices i JOIN orders o ON o.id = i.order_id
       WHERE i.kind = 'invoice'${real}
       GROUP BY 1, 2 ORDER BY invoices DESC, rate DESC`,
    )
    .all();
}

export function salesBetween(db: Db, from: Date | null, to: Date | null, testOrders: boolean): Figures {
  // Paid orders all have paid_at, refunded ones refunded_at: "from 0" is all time.
  const range: [number, number] = [from?.getTime() ?? 0, to?.getTime() ?? Number.MAX_SAFE_INTEGER];
  const real = testOrders ? "" : ` AND ${realSaleSql("")}`;
  const paid = db.$client
    .query<Sums, [number, number]>(
      `SELECT count(*) AS n, total(amount) AS amount FROM orders WHERE status IN ('paid', 'refunded') AND paid_at >= ?1 AND paid_at < ?2${real}`,
    )
    .get(...range) ?? { n: 0, amount: 0 };
  const back = db.$client
    .query<Sums, [number, number]>(
      `SELECT count(*) AS n, total(amount) AS amount FROM orders WHERE status = 'refunded' AND refunded_at >= ?1 AND refunded_at < ?2${real}`,
    )
    .get(...range) ?? { n: 0, amount: 0 };
  return { gross: paid.amount, refunded: back.amount, net: paid.amount - back.amount, paidOrders: paid.n, refundedOrders: back.n };
}

/**
 * Whether the built-in test checkout's orders count as sales: only while trying the site out. On a
 * production server they are never revenue, in the console or in the digest.
 */
export const countsTestOrders = (config: Pick<Config, "env">): boolean => config.env !== "production";

function chart(db: Db, now: Date, testOrders: boolean): [number, number][] {
  const first = parisDayStart(new Date(now.getTime() - 29 * DAY_MS));
  // Days counted with the offset of today: a day that crossed a clock change is off by an hour at its edges.
  const offsetMs = parisOffsetMinutes(now) * 60 * 1000;
  const day = (column: typeof orders.paidAt | typeof orders.refundedAt) => sql<number>`(${column} + ${offsetMs}) / ${DAY_MS}`;
  const paid = db
    .select({ day: day(orders.paidAt), amount: sum(orders.amount) })
    .from(orders)
    .where(and(inArray(orders.status, ["paid", "refunded"]), gte(orders.paidAt, first), testOrders ? undefined : sql.raw(realSaleSql(""))))
    .groupBy(day(orders.paidAt))
    .all();
  const refunded = db
    .select({ day: day(orders.refundedAt), amount: sum(orders.amount) })
    .from(orders)
    .where(and(eq(orders.status, "refunded"), gte(orders.refundedAt, first), testOrders ? undefined : sql.raw(realSaleSql(""))))
    .groupBy(day(orders.refundedAt))
    .all();
  const byDay = new Map<number, number>();
  for (const r of paid) byDay.set(Number(r.day), (byDay.get(Number(r.day)) ?? 0) + Number(r.amount ?? 0));
  for (const r of refunded) byDay.set(Number(r.day), (byDay.get(Number(r.day)) ?? 0) - Number(r.amount ?? 0));
  const days: [number, number][] = [];
  const firstDay = Math.floor((first.getTime() + offsetMs) / DAY_MS);
  for (let i = 0; i < 30; i++) days.push([((firstDay + i) * DAY_MS - offsetMs) / 1000, byDay.get(firstDay + i) ?? 0]);
  return days;
}

/** What stands between this installation and selling for real, read from its configuration. */
export function readyToSell(
  config: Config,
  site: Pick<SiteContent, "ownerSet">,
  backup: Overview["backup"],
  published?: ContentReadiness,
  certificate: CertificateState | null = null,
  now: Date = new Date(),
): ChecklistItem[] {
  // Reviews and the buyers' figure are the site's own (console, Reviews). A struck-through price is
  // not something to set: it can be shown only after a reduction, against the lowest price of the
  // 30 days before it, and a shop sells without one. The item says which is the case, nothing to do.
  const { ownerSet } = site;
  return [
    { id: "seller", ok: config.sellerIdentityMissing.length === 0 },
    { id: "placeholders", ok: true, referenceShown: ownerSet.originalPrice },
    // The published content, as production's start-up warnings read it.
    ...(published === undefined
      ? []
      : [
          { id: "description" as const, ok: published.describesProduct },
          { id: "faq" as const, ok: published.ownFaq },
        ]),
    { id: "payments", ok: config.stripe !== undefined },
    { id: "smtp", ok: config.mail.smtpUrl !== undefined },
    { id: "ownerEmail", ok: config.mail.ownerEmail !== undefined },
    // Set is not enough: Litestream must be replicating without a problem.
    { id: "backups", ok: backup.enabled && backup.lastReplicatedAt !== null && backup.lastError === null },
    // Serving HTTPS itself, the site also needs a certificate in force and no failed renewal pending.
    {
      id: "https",
      ok:
        config.publicBaseUrl.startsWith("https://") &&
        (certificate === null ||
          (certificate.notAfter !== null && certificate.notAfter.getTime() > now.getTime() && certificate.lastError === null)),
    },
    // What the app offers and where it comes from: a buyer's first questions (docs/catalogue.md).
    ...(published?.catalogue === undefined
      ? []
      : [
          { id: "catalogue" as const, ok: published.catalogue.titles > 0 },
          { id: "rights" as const, ok: published.catalogue.rightsMissing.length === 0 },
          { id: "claims" as const, ok: published.catalogue.claimsConfirmed },
        ]),
  ];
}

export function overview(
  db: Db,
  config: Config,
  now: Date,
  site: Pick<SiteContent, "ownerSet" | "currency">,
  published?: ContentReadiness,
): Overview {
  const { enabled, lastReplicatedAt, lastError, held } = readReplicationStatus(config);
  // A server that does not replicate on purpose (a restored copy, a replica another database owns)
  // shows why as its problem: the checklist item is not ticked, and the owner reads what to do.
  const backup = { enabled, lastReplicatedAt, lastError: held ?? lastError };
  const certificate = certificateState(config.tls);
  const today = parisDayStart(now);
  const month = new Date(now.getTime() - 30 * DAY_MS);
  const since: Record<Period, Date | null> = { today, week: new Date(now.getTime() - 7 * DAY_MS), month, all: null };
  return {
    currency: site.currency,
    vatScheme: config.vatScheme,
    vatCharged: vatCharged(db, countsTestOrders(config)),
    figures: byPeriod((p) => salesBetween(db, since[p], null, countsTestOrders(config))),
    chart: chart(db, now, countsTestOrders(config)),
    leads: {
      total: db.select({ n: count() }).from(emailLeads).get()?.n ?? 0,
      month: db.select({ n: count() }).from(emailLeads).where(gte(emailLeads.createdAt, month)).get()?.n ?? 0,
    },
    mail: {
      failed: db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, "failed")).get()?.n ?? 0,
      retrying:
        db
          .select({ n: count() })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.status, "pending"), gte(mailOutbox.attempts, 1)))
          .get()?.n ?? 0,
    },
    declined: db.select({ n: count() }).from(paymentAttempts).where(gte(paymentAttempts.at, month)).get()?.n ?? 0,
    checklist: readyToSell(config, site, backup, published, certificate, now),
    sellerIdentityMissing: config.sellerIdentityMissing,
    backup,
    certificate,
    digest: {
      state: config.digest.frequency === "off" ? "off" : config.mail.ownerEmail === undefined ? "noEmail" : config.digest.frequency,
      hour: config.digest.hour,
      weekday: config.digest.weekday,
    },
  };
}
