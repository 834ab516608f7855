import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orders } from "../../../db/schema";
import type { DbTransaction, Write } from "../../../db/writer";
import type { DeliverySettings } from "./delivery";
import { applyInTransaction } from "./fulfilment";
import type { CheckoutProvider } from "./provider";
import { testPaymentIdOf } from "./test-provider";

export type RefundResult = "refunded" | "already-refunded" | "not-found" | "not-paid" | "no-stripe";

/**
 * Refunds a paid order in full, for the console and the CLI alike. A Stripe order is refunded
 * through Stripe's Refund API (one idempotency key per order, so a repeated click is the same
 * refund); a test-checkout order by the site itself. Either way the order then goes through the
 * `charge.refunded` path a webhook takes, under one event id per payment: the licence is disabled
 * and the buyer's and owner's notices are queued once, and Stripe's own webhook for the same refund,
 * arriving later, finds the order refunded and changes nothing.
 *
 * Throws ProviderError when Stripe refuses or cannot be reached: nothing is changed here then.
 */
export async function refundOrder(
  deps: { db: Db; write: Write; now: () => Date; delivery: DeliverySettings; provider: () => CheckoutProvider },
  orderId: number,
  /** Written in the refund's own transaction when it happens (the owner's activity log). */
  alsoInTransaction: (tx: DbTransaction) => void = () => {},
): Promise<RefundResult> {
  const order = deps.db.select().from(orders).where(eq(orders.id, orderId)).get();
  if (order === undefined) return "not-found";
  if (order.status === "refunded") return "already-refunded";
  if (order.status !== "paid") return "not-paid";

  let paymentIntentId: string;
  if (order.provider === "stripe") {
    const provider = deps.provider();
    if (order.paymentIntentId === null || provider.refundPayment === undefined) return "no-stripe";
    paymentIntentId = order.paymentIntentId;
    await provider.refundPayment(paymentIntentId, `refund-order-${order.id}`);
  } else {
    paymentIntentId = order.paymentIntentId ?? testPaymentIdOf(order.checkoutId);
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
