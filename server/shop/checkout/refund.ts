import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orders } from "../../../db/schema";
import type { DbTransaction, Write } from "../../../db/writer";
import type { DeliverySettings } from "./delivery";
import { applyInTransaction } from "./fulfilment";
import type { CheckoutProvider } from "./provider";
import { testPaymentIdOf } from "./test-provider";

export type RefundResult = "refunded" | "already-refunded" | "in-progress" | "not-found" | "not-paid" | "no-stripe";

/**
 * A refund claimed this long ago whose provider call never came back (the process stopped during
 * it) may be tried again: the retry carries the same idempotency key, so Stripe answers with the
 * same refund rather than a second one.
 */
export const REFUND_CLAIM_STALE_MS = 10 * 60 * 1000;

/**
 * Refunds a paid order in full, for the console, the CLI and the buyer's refund page alike. The
 * order is first claimed (`refund_started_at`, in its own transaction): a second refund of the same
 * order, from a double click, another tab or another server process, finds the claim and never
 * calls the provider again. A Stripe order is then refunded through Stripe's Refund API (one
 * idempotency key per order as well); a test-checkout order by the site itself. Either way the order
 * then goes through the `charge.refunded` path a webhook takes, under one event id per payment: the
 * licence is disabled and the buyer's and owner's notices are queued once, and Stripe's own webhook
 * for the same refund, arriving before or after, finds the order refunded and changes nothing.
 *
 * Throws ProviderError when Stripe refuses or cannot be reached: the claim is released and nothing
 * else is changed then.
 */
export async function refundOrder(
  deps: { db: Db; write: Write; now: () => Date; delivery: DeliverySettings; provider: () => CheckoutProvider },
  orderId: number,
  /** Written in the refund's own transaction when it happens (the owner's activity log). */
  alsoInTransaction: (tx: DbTransaction) => void = () => {},
): Promise<RefundResult> {
  const startedAt = deps.now();
  const claim = await deps.write((tx): RefundResult | Order => {
    const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
    if (order === undefined) return "not-found";
    if (order.status === "refunded") return "already-refunded";
    if (order.status !== "paid") return "not-paid";
    if (order.refundStartedAt !== null && startedAt.getTime() - order.refundStartedAt.getTime() < REFUND_CLAIM_STALE_MS)
      return "in-progress";
    if (order.provider === "stripe" && (order.paymentIntentId === null || deps.provider().refundPayment === undefined)) return "no-stripe";
    tx.update(orders).set({ refundStartedAt: startedAt }).where(eq(orders.id, orderId)).run();
    return order;
  });
  if (typeof claim === "string") return claim;

  let paymentIntentId: string;
  try {
    if (claim.provider === "stripe") {
      const provider = deps.provider();
      if (claim.paymentIntentId === null || provider.refundPayment === undefined) throw new Error("unreachable: checked with the claim");
      paymentIntentId = claim.paymentIntentId;
      await provider.refundPayment(paymentIntentId, `refund-order-${claim.id}`);
    } else {
      paymentIntentId = claim.paymentIntentId ?? testPaymentIdOf(claim.checkoutId);
    }
  } catch (error) {
    await deps.write((tx) => tx.update(orders).set({ refundStartedAt: null }).where(eq(orders.id, orderId)).run());
    throw error;
  }

  const now = deps.now();
  return deps.write((tx): RefundResult => {
    // Read again inside the transaction: a webhook may have refunded it meanwhile.
    const current = tx.select().from(orders).where(eq(orders.id, orderId)).get();
    if (current === undefined) return "not-found";
    if (current.status === "refunded") return "already-refunded";
    if (current.paymentIntentId === null) tx.update(orders).set({ paymentIntentId }).where(eq(orders.id, orderId)).run();
    applyInTransaction(
      tx,
      {
        eventId: `evt_refund_${paymentIntentId}`,
        provider: current.provider,
        type: "charge.refunded",
        paymentIntentId,
        fullyRefunded: true,
      },
      now,
      deps.delivery,
    );
    alsoInTransaction(tx);
    return "refunded";
  });
}

type Order = typeof orders.$inferSelect;
