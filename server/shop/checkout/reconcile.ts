import Stripe from "stripe";
import type { Write } from "../../../db/writer";
import type { DeliverySettings } from "./delivery";
import { applyOrderEvent } from "./fulfilment";
import { type CheckoutSnapshot, isSettled, type OrderEvent } from "./provider";
import { STRIPE_API_VERSION, type StripeConnection, type StripeSettings, snapshotOf } from "./stripe-provider";

/**
 * What the payment provider knows happened since a date: the checkouts that ended (paid or
 * expired) and the payments refunded in full. Read from Stripe's API after a restore, or whenever
 * webhooks may have been missed.
 */
export type PaymentHistory = {
  endedCheckouts(since: Date): AsyncIterable<CheckoutSnapshot>;
  fullyRefundedPayments(since: Date): AsyncIterable<string>;
};

export function stripePaymentHistory(settings: StripeSettings, connection: StripeConnection = {}): PaymentHistory {
  const stripe = new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    timeout: connection.timeoutMs ?? 30_000,
    maxNetworkRetries: connection.maxNetworkRetries ?? 2,
    host: connection.host,
    port: connection.port,
    protocol: connection.protocol,
    appInfo: { name: "lifetime-stream-site" },
  });
  const created = (since: Date) => ({ gte: Math.floor(since.getTime() / 1000) });
  return {
    async *endedCheckouts(since) {
      // The SDK pages through the whole list (100 a request).
      for await (const session of stripe.checkout.sessions.list({ created: created(since), limit: 100 })) {
        if (session.status === "complete" || session.status === "expired") yield snapshotOf(session);
      }
    },
    async *fullyRefundedPayments(since) {
      for await (const charge of stripe.charges.list({ created: created(since), limit: 100 })) {
        const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : (charge.payment_intent?.id ?? null);
        if (charge.refunded && intent !== null) yield intent;
      }
    },
  };
}

export type ReconcileReport = { checked: number; applied: number; alreadyKnown: number; ignored: number };

/**
 * Applies every ended checkout and full refund since `since` through the same idempotent
 * fulfilment as the webhooks: a paid checkout the database does not have becomes a paid order
 * with its licence and its one e-mail; one already there changes nothing. The event ids are the
 * same ones the success page's lookup uses, so a second run, or a lookup and a run, count once.
 */
export async function reconcileOrders(
  deps: { write: Write; now: () => Date; delivery: DeliverySettings },
  history: PaymentHistory,
  since: Date,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, applied: 0, alreadyKnown: 0, ignored: 0 };
  const apply = async (event: OrderEvent) => {
    report.checked++;
    const result = await applyOrderEvent(deps.write, event, deps.now(), deps.delivery);
    if (result.outcome === "duplicate") report.alreadyKnown++;
    else if (result.outcome === "foreign" || result.status === null) report.ignored++;
    else report.applied++;
  };
  for await (const checkout of history.endedCheckouts(since)) {
    // A completed checkout still waiting for its money (a bank transfer) is left to its webhook:
    // recording it now under the paid event's id would make the real payment look like a repeat.
    if (checkout.status === "complete" && !isSettled(checkout)) continue;
    const paid = checkout.status === "complete";
    await apply({
      eventId: paid ? `lookup_stripe_${checkout.id}_paid` : `reconcile_stripe_${checkout.id}_expired`,
      provider: "stripe",
      type: paid ? "checkout.session.completed" : "checkout.session.expired",
      checkout,
    });
  }
  for await (const paymentIntentId of history.fullyRefundedPayments(since)) {
    await apply({
      eventId: `reconcile_stripe_${paymentIntentId}_refunded`,
      provider: "stripe",
      type: "charge.refunded",
      paymentIntentId,
      fullyRefunded: true,
    });
  }
  return report;
}
