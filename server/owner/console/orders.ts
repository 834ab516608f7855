import { and, asc, desc, eq, gte, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  invoices,
  licenseActivations,
  licenses,
  type MailKind,
  type MailStatus,
  mailOutbox,
  type OwnerAction,
  orders,
  ownerActivity,
  paymentAttempts,
} from "../../../db/schema";
import { normalizeLicenseKey } from "../../../shared/license-key";
import { normalizeOrderReference } from "../../../shared/order-reference";
import { activityDetail } from "./activity";

export const ORDERS_PER_PAGE = 50;

export type OrderRow = {
  id: number;
  /** What the buyer knows the order by (K7QM-2XHD-9CVT). */
  reference: string;
  status: (typeof orders.$inferSelect)["status"];
  provider: "stripe" | "test" | "free";
  email: string | null;
  amount: number;
  currency: string;
  createdAt: Date;
  paidAt: Date | null;
  /** Not paid, and the provider refused a payment attempt: the list says "declined", not "pending". */
  declined: boolean;
  /** The provider's checkout id: a free claim's says whether it was made under the test checkout. Never shown. */
  checkoutId: string;
};

const listColumns = {
  id: orders.id,
  reference: orders.reference,
  status: orders.status,
  provider: orders.provider,
  email: orders.customerEmail,
  amount: orders.amount,
  currency: orders.currency,
  createdAt: orders.createdAt,
  paidAt: orders.paidAt,
  checkoutId: orders.checkoutId,
  // Columns named with their table: in a select's fields drizzle writes them bare, and a bare
  // "checkout_id" inside the subquery is payment_attempts' own, so every unpaid order matched.
  declined:
    sql<boolean>`${orders.paidAt} IS NULL AND EXISTS (SELECT 1 FROM ${paymentAttempts} WHERE ${paymentAttempts}.${sql.identifier(paymentAttempts.checkoutId.name)} = ${orders}.${sql.identifier(orders.checkoutId.name)})`.mapWith(
      Boolean,
    ),
};

/**
 * What the search box means: a licence key or an order reference (any case, dashes or not), an
 * order number ("12" or "#12"), a provider's checkout or payment id, or else the beginning of an
 * e-mail address.
 */
function searchCondition(db: Db, query: string): SQL | "none" {
  const q = query.trim();
  const reference = normalizeOrderReference(q);
  if (reference !== null) return eq(orders.reference, reference);
  const key = normalizeLicenseKey(q);
  if (key !== null) {
    const license = db.select({ orderId: licenses.orderId }).from(licenses).where(eq(licenses.key, key)).get();
    return license === undefined ? "none" : eq(orders.id, license.orderId);
  }
  const number = /^#?(\d{1,12})$/.exec(q);
  if (number !== null) return eq(orders.id, Number(number[1]));
  if (/^(cs|pi|test)_[A-Za-z0-9_]+$/.test(q)) return sql`(${orders.checkoutId} = ${q} OR ${orders.paymentIntentId} = ${q})`;
  // By the address's beginning, on the index of lower(customer_email): a range, not a LIKE.
  const lower = q.toLowerCase();
  return and(gte(sql`lower(${orders.customerEmail})`, lower), lt(sql`lower(${orders.customerEmail})`, `${lower}\uffff`)) ?? sql`0`;
}

/** Orders newest first, optionally matching a search, a page of them before `beforeId`. */
export function searchOrders(db: Db, query: string, beforeId: number | null): OrderRow[] {
  const conditions: SQL[] = [];
  if (query.trim() !== "") {
    const found = searchCondition(db, query);
    if (found === "none") return [];
    conditions.push(found);
  }
  if (beforeId !== null) conditions.push(lt(orders.id, beforeId));
  return db
    .select(listColumns)
    .from(orders)
    .where(conditions.length === 0 ? undefined : and(...conditions))
    .orderBy(desc(orders.id))
    .limit(ORDERS_PER_PAGE)
    .all();
}

/** Paid orders whose buyer asked for the guarantee's refund (REFUND_MODE=request), oldest request first. */
export function refundRequests(db: Db): (OrderRow & { requestedAt: Date })[] {
  return db
    .select({ ...listColumns, requestedAt: sql<number>`${orders.refundRequestedAt}` })
    .from(orders)
    .where(and(isNotNull(orders.refundRequestedAt), eq(orders.status, "paid")))
    .orderBy(asc(orders.refundRequestedAt))
    .all()
    .map((row) => ({ ...row, requestedAt: new Date(row.requestedAt) }));
}

/**
 * Who refunded an order, from what the refund left behind: the owner's refund is in the activity
 * log (with the console session, or none from the command line); the site's own refund (the
 * owner's or the buyer's refund page) claims the order first (`refund_started_at`, kept); a refund
 * with neither came from Stripe alone (its webhook: a refund made in Stripe's dashboard).
 */
export type RefundedBy = "console" | "cli" | "buyer" | "stripe";

export type TimelineEvent =
  | { at: Date; kind: "started" | "consent" | "paid" | "refund-requested" }
  | { at: Date; kind: "refunded"; by: RefundedBy }
  | { at: Date; kind: "mail"; mailKind: MailKind; status: MailStatus; recipient: string; error: string | null }
  | { at: Date; kind: "device" | "device-freed"; name: string }
  | { at: Date; kind: "owner"; action: OwnerAction }
  | { at: Date; kind: "attempt"; outcome: "declined" | "failed"; reason: string; email: string | null };

export type OrderDetail = {
  order: typeof orders.$inferSelect;
  license: typeof licenses.$inferSelect | null;
  devices: (typeof licenseActivations.$inferSelect)[];
  timeline: TimelineEvent[];
  /** Who refunded it; null while it is not refunded. */
  refundedBy: RefundedBy | null;
  /** The provider's refusals of this checkout's payment attempts, oldest first. */
  attempts: (typeof paymentAttempts.$inferSelect)[];
  /** The VAT its invoice charged and under which rule; null before an invoice is issued. */
  vat: Pick<typeof invoices.$inferSelect, "vatRule" | "vatCountry" | "vatRate" | "vatScheme"> | null;
};

/** An order, its licence and devices, and everything that happened to it in time order. */
export function orderDetail(db: Db, id: number): OrderDetail | null {
  const order = db.select().from(orders).where(eq(orders.id, id)).get();
  if (order === undefined) return null;
  const license = db.select().from(licenses).where(eq(licenses.orderId, id)).get() ?? null;
  const devices =
    license === null
      ? []
      : db.select().from(licenseActivations).where(eq(licenseActivations.licenseId, license.id)).orderBy(asc(licenseActivations.id)).all();
  const mails = db.select().from(mailOutbox).where(eq(mailOutbox.orderId, id)).orderBy(asc(mailOutbox.id)).all();
  const actions = db
    .select()
    .from(ownerActivity)
    .where(eq(ownerActivity.detail, activityDetail.order(id)))
    .all();
  const attempts = db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.checkoutId, order.checkoutId))
    .orderBy(asc(paymentAttempts.id))
    .all();
  const timeline: TimelineEvent[] = [{ at: order.createdAt, kind: "started" }];
  for (const a of attempts) timeline.push({ at: a.at, kind: "attempt", outcome: a.outcome, reason: a.reason, email: a.email });
  if (order.termsAcceptedAt !== null) timeline.push({ at: order.termsAcceptedAt, kind: "consent" });
  if (order.paidAt !== null) timeline.push({ at: order.paidAt, kind: "paid" });
  for (const m of mails)
    timeline.push({ at: m.createdAt, kind: "mail", mailKind: m.kind, status: m.status, recipient: m.recipient, error: m.lastError });
  for (const d of devices) {
    timeline.push({ at: d.createdAt, kind: "device", name: d.instanceName });
    // Freed by the buyer (the app, the devices page) or by the owner: either way the device's slot came back.
    if (d.deactivatedAt !== null) timeline.push({ at: d.deactivatedAt, kind: "device-freed", name: d.instanceName });
  }
  if (order.refundRequestedAt !== null) timeline.push({ at: order.refundRequestedAt, kind: "refund-requested" });
  const ownerRefund = actions.find((a) => a.action === "refund");
  const refundedBy: RefundedBy | null =
    order.status !== "refunded"
      ? null
      : ownerRefund !== undefined
        ? ownerRefund.sessionId === null
          ? "cli"
          : "console"
        : order.refundStartedAt !== null
          ? "buyer"
          : "stripe";
  if (order.refundedAt !== null && refundedBy !== null) timeline.push({ at: order.refundedAt, kind: "refunded", by: refundedBy });
  // The owner's refund is said by the "refunded" entry itself.
  for (const a of actions) if (a.action !== "refund" || refundedBy === null) timeline.push({ at: a.at, kind: "owner", action: a.action });
  timeline.sort((a, b) => a.at.getTime() - b.at.getTime());
  const vat =
    db
      .select({ vatRule: invoices.vatRule, vatCountry: invoices.vatCountry, vatRate: invoices.vatRate, vatScheme: invoices.vatScheme })
      .from(invoices)
      .where(and(eq(invoices.orderId, id), eq(invoices.kind, "invoice")))
      .get() ?? null;
  return { order, license, devices, timeline, refundedBy, attempts, vat };
}
