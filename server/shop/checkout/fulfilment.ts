import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { type OrderStatus, orders, paymentAttempts, processedEvents } from "../../../db/schema";
import type { DbTransaction, Write, WriteOptions } from "../../../db/writer";
import { type DeliverySettings, deliverPaidOrder, deliverRefund } from "./delivery";
import {
  type CheckoutSnapshot,
  type Consent,
  type FailedAttempt,
  firstNameOf,
  isSettled,
  type OrderEvent,
  type ProviderName,
} from "./provider";

// The one place an order changes state: Stripe webhooks, the test checkout's pay button and
// the success page's server-side lookup all come through `applyOrderEvent`. The event id goes into
// processed_events (primary key) in the same transaction as the order change, so a delivery that is
// repeated, concurrent or out of order is applied at most once and can never count a payment twice.
// What the change sets off (licence key, e-mails: delivery.ts) is written by the same transaction.

export type FulfilmentResult =
  | { outcome: "duplicate" }
  /** A checkout this site did not create (another product on the same provider account): no order. */
  | { outcome: "foreign" }
  | { outcome: "applied"; checkoutId: string | null; status: OrderStatus | null };

/** Applies one event atomically; safe to call with the same event any number of times. */
export function applyOrderEvent(
  write: Write,
  event: OrderEvent,
  now: Date,
  delivery: DeliverySettings,
  options?: WriteOptions,
): Promise<FulfilmentResult> {
  // The writer's IMMEDIATE transaction takes the write lock at BEGIN, so two processes cannot both
  // read "pending" and both write "paid".
  return write((tx) => applyInTransaction(tx, event, now, delivery), options);
}

/** The same, inside a transaction the caller already holds (the test checkout's pay step). */
export function applyInTransaction(tx: DbTransaction, event: OrderEvent, now: Date, delivery: DeliverySettings): FulfilmentResult {
  const checkoutId = event.type === "charge.refunded" ? null : event.checkout.id;
  // A partial refund is recorded without its payment intent, so that a completion arriving after it
  // does not mistake it for the full refund that makes an order "refunded".
  const paymentIntentId =
    event.type === "charge.refunded" ? (event.fullyRefunded ? event.paymentIntentId : null) : event.checkout.paymentIntentId;
  const recorded = tx
    .insert(processedEvents)
    .values({ eventId: event.eventId, provider: event.provider, type: event.type, checkoutId, paymentIntentId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ eventId: processedEvents.eventId })
    .all();
  if (recorded.length === 0) return { outcome: "duplicate" };

  if (event.type === "charge.refunded") {
    if (!event.fullyRefunded) return { outcome: "applied", checkoutId: null, status: null };
    const order = tx.select().from(orders).where(eq(orders.paymentIntentId, event.paymentIntentId)).get();
    // No order yet: the notice stays in processed_events and the completion will find it.
    if (order === undefined) return { outcome: "applied", checkoutId: null, status: null };
    tx.update(orders)
      .set({ status: "refunded", refundedAt: order.refundedAt ?? now, updatedAt: now })
      .where(eq(orders.id, order.id))
      .run();
    if (order.status !== "refunded" && order.paidAt !== null) deliverRefund(tx, order.id, delivery, now);
    return { outcome: "applied", checkoutId: order.checkoutId, status: "refunded" };
  }

  const snapshot = event.checkout;
  const existing = tx.select().from(orders).where(eq(orders.checkoutId, snapshot.id)).get();
  // A checkout this site did not create (another product on the same Stripe account, which may
  // well have a `locale` of its own): every one of ours has its pending row from the start, or
  // (when a restored database lost that row) the site's mark in its metadata.
  if (existing === undefined && (snapshot.site !== delivery.siteOrigin || snapshot.locale === null)) return { outcome: "foreign" };
  const refundedEarlier =
    snapshot.paymentIntentId !== null &&
    tx
      .select({ id: processedEvents.eventId })
      .from(processedEvents)
      .where(and(eq(processedEvents.paymentIntentId, snapshot.paymentIntentId), eq(processedEvents.type, "charge.refunded")))
      .get() !== undefined;
  const settled = isSettled(snapshot);
  const status = nextStatus(existing?.status ?? null, event.type, settled, refundedEarlier);
  const details = customerDetails(snapshot, existing);
  const becamePaid = (status === "paid" || status === "refunded") && existing?.paidAt == null && settled;

  let orderId: number;
  if (existing === undefined) {
    const [inserted] = tx
      .insert(orders)
      .values({
        provider: event.provider,
        checkoutId: snapshot.id,
        paymentIntentId: snapshot.paymentIntentId,
        status,
        amount: snapshot.amount ?? 0,
        currency: (snapshot.currency ?? "eur").toUpperCase(),
        locale: snapshot.locale ?? "fr",
        ...details,
        createdAt: now,
        updatedAt: now,
        paidAt: becamePaid ? now : null,
        refundedAt: status === "refunded" ? now : null,
      })
      .returning({ id: orders.id })
      .all();
    if (inserted === undefined) throw new Error("order insert returned no row");
    orderId = inserted.id;
  } else {
    orderId = existing.id;
    tx.update(orders)
      .set({
        status,
        paymentIntentId: existing.paymentIntentId ?? snapshot.paymentIntentId,
        amount: snapshot.amount ?? existing.amount,
        currency: snapshot.currency?.toUpperCase() ?? existing.currency,
        ...details,
        updatedAt: now,
        paidAt: becamePaid ? now : existing.paidAt,
        refundedAt: status === "refunded" ? (existing.refundedAt ?? now) : existing.refundedAt,
      })
      .where(eq(orders.id, existing.id))
      .run();
  }
  if (event.type === "checkout.session.async_payment_failed") {
    // A delayed payment method (a bank debit) that failed after the buyer left: kept with the order, so the owner can help.
    tx.insert(paymentAttempts)
      .values({
        checkoutId: snapshot.id,
        provider: event.provider,
        outcome: "failed",
        reason: "async_payment_failed: the delayed payment did not go through",
        email: snapshot.email,
        at: now,
      })
      .run();
  }
  if (becamePaid) {
    if (status === "paid") deliverPaidOrder(tx, orderId, delivery, now);
    else deliverRefund(tx, orderId, delivery, now);
  }
  return { outcome: "applied", checkoutId: snapshot.id, status };
}

/**
 * The order's next status. Paid only when the provider's payment_status says so (`isSettled`); refunded is
 * final; a paid order never goes back to pending, failed or expired, whatever order events come in.
 */
export function nextStatus(
  current: OrderStatus | null,
  type: Exclude<OrderEvent["type"], "charge.refunded">,
  settled: boolean,
  refundedEarlier: boolean,
): OrderStatus {
  if (current === "refunded") return "refunded";
  const paidNow = (type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded") && settled;
  if (paidNow) return refundedEarlier ? "refunded" : "paid";
  if (current === "paid") return "paid";
  switch (type) {
    case "checkout.session.async_payment_failed":
      return "failed";
    case "checkout.session.expired":
      return current === "failed" ? "failed" : "expired";
    default:
      // Completed but not yet paid (a delayed payment method): wait for async_payment_succeeded.
      return current ?? "pending";
  }
}

function customerDetails(
  snapshot: CheckoutSnapshot,
  existing:
    | {
        customerEmail: string | null;
        firstName: string | null;
        city: string | null;
        billingName: string | null;
        billingCountry: string | null;
        cardCountry: string | null;
      }
    | undefined,
) {
  return {
    customerEmail: snapshot.email ?? existing?.customerEmail ?? null,
    firstName: firstNameOf(snapshot.name) ?? existing?.firstName ?? null,
    city: snapshot.city?.trim().slice(0, 80) || (existing?.city ?? null),
    billingName: snapshot.name?.trim().slice(0, 120) || (existing?.billingName ?? null),
    billingCountry: countryCode(snapshot.country) ?? existing?.billingCountry ?? null,
    cardCountry: countryCode(snapshot.cardCountry) ?? existing?.cardCountry ?? null,
  };
}

/** A country code as providers write it ("de", "DE"); anything else is no evidence. */
const countryCode = (value: string | null): string | null => {
  const code = value?.trim().toUpperCase();
  return code !== undefined && /^[A-Z]{2}$/.test(code) ? code : null;
};

/** The order row created when a checkout starts, so the success page can say "pending" at once. */
export async function recordPendingOrder(
  write: Write,
  input: {
    provider: ProviderName;
    checkoutId: string;
    amount: number;
    currency: string;
    locale: string;
    termsAcceptedAt: Date;
    termsVersion: string;
    inNotice?: boolean;
    partner?: string | null;
    company?: string | null;
    companyAddress?: string | null;
    companyCountry?: string | null;
    buyerVatNumber?: string | null;
    taxEvidence?: string | null;
  },
  now: Date,
): Promise<void> {
  await write((tx) =>
    tx
      .insert(orders)
      .values({ ...input, currency: input.currency.toUpperCase(), status: "pending", createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .run(),
  );
}

/** The consent recorded with a checkout's order when the site started it; null without one. */
export function recordedConsent(db: Pick<Db, "select">, checkoutId: string): Consent | null {
  const order = db
    .select({ acceptedAt: orders.termsAcceptedAt, termsVersion: orders.termsVersion })
    .from(orders)
    .where(eq(orders.checkoutId, checkoutId))
    .get();
  if (order?.acceptedAt == null || order.termsVersion === null) return null;
  return { acceptedAt: order.acceptedAt, termsVersion: order.termsVersion };
}

/**
 * A failed payment attempt the provider reported, kept once (its event id) with the order of its
 * checkout so the owner sees it and why; "foreign" when no order of this site has that checkout.
 */
export function recordFailedAttempt(write: Write, attempt: FailedAttempt, now: Date): Promise<"recorded" | "duplicate" | "foreign"> {
  return write((tx) => {
    const { checkoutId } = attempt;
    if (checkoutId === null || tx.select({ id: orders.id }).from(orders).where(eq(orders.checkoutId, checkoutId)).get() === undefined)
      return "foreign";
    const recorded = tx
      .insert(processedEvents)
      .values({
        eventId: attempt.eventId,
        provider: "stripe",
        type: "payment_intent.payment_failed",
        checkoutId,
        paymentIntentId: null,
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ eventId: processedEvents.eventId })
      .all();
    if (recorded.length === 0) return "duplicate";
    tx.insert(paymentAttempts)
      .values({ checkoutId, provider: "stripe", outcome: "declined", reason: attempt.reason, email: attempt.email, at: now })
      .run();
    return "recorded";
  });
}
