import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { analyticsDaily, discountCodes, invoices, orders, partners } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";
import { normalizeDiscountCode } from "../../../shared/discount-code";
import { normalizePartnerName } from "../../../shared/partner";
import { afterParisDay, isCalendarDay, startOfParisDay } from "../codes/service";

// The owner's partners: a link `?ref=NAME` attributes the visit (the page's counting takes the name
// as the visit's source) and the order (the payment carries it) to a partner. The figures are read
// from the orders and their invoices; payouts stay outside the site.

export type Partner = typeof partners.$inferSelect;

export type NewPartner = { name: string; commission?: number | undefined; code?: string | undefined };

/** What is wrong with a new partner or a period, for the console to say in the owner's language (`admin.partners.problem.<key>`). */
export const PARTNER_PROBLEMS = ["name", "commission", "code", "code-unknown", "exists", "date", "order"] as const;
export type PartnerProblem = (typeof PARTNER_PROBLEMS)[number];

export function createPartner(
  tx: DbWriter,
  input: NewPartner,
  now: Date,
): { ok: true; partner: Partner } | { ok: false; error: string; problem: PartnerProblem } {
  const name = normalizePartnerName(input.name);
  if (name === null)
    return { ok: false, error: "A partner's name is 2 to 32 letters, digits, dashes or underscores (blog-anna).", problem: "name" };
  if (input.commission !== undefined && (!Number.isInteger(input.commission) || input.commission < 0 || input.commission > 100))
    return { ok: false, error: "The commission is a whole percentage from 0 to 100.", problem: "commission" };
  const code = input.code === undefined ? null : normalizeDiscountCode(input.code);
  if (input.code !== undefined && code === null) return { ok: false, error: `${input.code} cannot be a discount code.`, problem: "code" };
  // A code that does not exist would never apply: the partner's buyers would pay the full price unknowingly.
  if (code !== null && tx.select({ id: discountCodes.id }).from(discountCodes).where(eq(discountCodes.code, code)).get() === undefined)
    return {
      ok: false,
      error: `There is no discount code ${code}: create it first (site codes create ${code} --percent N), then the partner.`,
      problem: "code-unknown",
    };
  const [row] = tx
    .insert(partners)
    .values({ name, commission: input.commission ?? null, code, createdAt: now })
    .onConflictDoNothing()
    .returning()
    .all();
  if (row === undefined) return { ok: false, error: `The partner ${name} exists already.`, problem: "exists" };
  return { ok: true, partner: row };
}

/** The partner a link names, if the owner created it (any other `ref` is ignored). */
export function partnerOf(reader: Pick<Db, "select">, ref: string): Partner | undefined {
  const name = normalizePartnerName(ref);
  return name === null ? undefined : reader.select().from(partners).where(eq(partners.name, name)).get();
}

/** A period of Paris days, both included (`YYYY-MM-DD`). */
export type Period = { from: string; to: string };

export type PartnerRow = {
  name: string;
  commission: number | null;
  code: string | null;
  visitors: number;
  paidOrders: number;
  /** What the partner's orders paid excluding VAT, refunded orders left out (minor units). */
  netRevenue: number;
  /** `commission` percent of `netRevenue`, rounded down to the cent. */
  commissionOwed: number;
};

export function checkPeriod(period: Period): string | null {
  for (const day of [period.from, period.to]) if (!isCalendarDay(day)) return `${day} is not a date such as 2026-12-31.`;
  return period.to < period.from ? "The end of the period is before its start." : null;
}

/** What is wrong with a period, as `checkPeriod` says it in English, for the console to translate. */
export function periodProblem(period: Period): Extract<PartnerProblem, "date" | "order"> | null {
  if (![period.from, period.to].every(isCalendarDay)) return "date";
  return period.to < period.from ? "order" : null;
}

/**
 * Each partner's visitors, paid orders, net revenue and commission owed over a period. Without
 * `testOrders` (production) the orders invoiced in the TEST series are left out, as the overview
 * leaves them out: a test card paid through a partner's link took no money and owes no commission.
 */
export function partnerReport(db: Pick<Db, "select">, period: Period, testOrders: boolean): PartnerRow[] {
  const start = startOfParisDay(period.from);
  const end = afterParisDay(period.to);
  return db
    .select()
    .from(partners)
    .orderBy(asc(partners.name))
    .all()
    .map((p) => {
      // Visitors counted by the page's counting under the partner's name (the visit's source), per UTC day.
      const visitors = db
        .select({ visitors: analyticsDaily.visitors })
        .from(analyticsDaily)
        .where(
          and(
            eq(analyticsDaily.dimension, "source"),
            eq(analyticsDaily.key, p.name),
            gte(analyticsDaily.day, period.from),
            lt(analyticsDaily.day, `${period.to}~`),
          ),
        )
        .all()
        .reduce((n, r) => n + r.visitors, 0);
      const paid = db
        .select({ net: invoices.netAmount })
        .from(orders)
        .innerJoin(invoices, and(eq(invoices.orderId, orders.id), eq(invoices.kind, "invoice")))
        .where(
          and(
            eq(orders.partner, p.name),
            eq(orders.status, "paid"),
            gte(orders.paidAt, start),
            lt(orders.paidAt, end),
            testOrders ? undefined : eq(invoices.series, ""),
          ),
        )
        .all();
      const netRevenue = paid.reduce((n, r) => n + r.net, 0);
      return {
        name: p.name,
        commission: p.commission,
        code: p.code,
        visitors,
        paidOrders: paid.length,
        netRevenue,
        commissionOwed: p.commission === null ? 0 : Math.floor((netRevenue * p.commission) / 100),
      };
    });
}
