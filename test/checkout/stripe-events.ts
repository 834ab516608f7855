import Stripe from "stripe";

// Stripe events as Stripe sends them, signed with the SDK's own test-header helper (the async one:
// under Bun the SDK uses Web Crypto, which has no synchronous HMAC).

const sdk = new Stripe("sk_test_events");
let sequence = 0;

export type SessionFields = {
  id: string;
  payment_status?: "paid" | "unpaid" | "no_payment_required";
  status?: "open" | "complete" | "expired";
  payment_intent?: string | null;
  name?: string | null;
  email?: string | null;
  city?: string | null;
  locale?: string;
  amount_total?: number;
  /**
   * The site that created the checkout (its metadata `site`, PUBLIC_BASE_URL's origin): the test
   * sites' https://shop.example unless given; null for another product's checkout, without it.
   */
  site?: string | null;
};

/** The PUBLIC_BASE_URL of the test sites that take Stripe webhooks. */
export const STRIPE_TEST_SITE = "https://shop.example";

export function checkoutSession(fields: SessionFields) {
  return {
    id: fields.id,
    object: "checkout.session",
    mode: "payment",
    status: fields.status ?? "complete",
    payment_status: fields.payment_status ?? "paid",
    amount_total: fields.amount_total ?? 2999,
    currency: "eur",
    locale: fields.locale ?? "fr",
    metadata: {
      locale: fields.locale ?? "fr",
      ...(fields.site === null ? {} : { site: fields.site ?? STRIPE_TEST_SITE }),
    },
    payment_intent: fields.payment_intent === undefined ? `pi_for_${fields.id}` : fields.payment_intent,
    customer_details: {
      email: fields.email === undefined ? "marie@example.com" : fields.email,
      name: fields.name === undefined ? "Marie Dupont" : fields.name,
      address: {
        city: fields.city === undefined ? "Lyon" : fields.city,
        country: "FR",
        line1: "1 rue X",
        line2: null,
        postal_code: "69001",
        state: null,
      },
    },
  };
}

export function charge(paymentIntent: string, refunded = true) {
  return {
    id: `ch_${paymentIntent}`,
    object: "charge",
    payment_intent: paymentIntent,
    refunded,
    amount: 2999,
    amount_refunded: refunded ? 2999 : 1000,
  };
}

export function event(type: string, object: unknown, id = `evt_${++sequence}_${Math.random().toString(36).slice(2, 10)}`) {
  return {
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

export async function signed(payload: string, secret: string, timestamp?: number): Promise<string> {
  return sdk.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp });
}
