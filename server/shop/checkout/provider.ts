import type { Locale } from "../../../shared/locales";

// The one seam between the checkout feature and a card-payment provider: Stripe's real SDK in one
// implementation (stripe-provider.ts), the built-in test checkout in another (test-provider.ts), so
// that the rest of the checkout never knows which one it talks to.

/** "free": an order at 0 claimed with a 100 % discount code, which no payment provider sees. */
export type ProviderName = "stripe" | "test" | "free";

/** What the site asks for: one checkout of the configured price, in the visitor's language. */
export type CheckoutRequest = {
  locale: Locale;
  amount: number;
  currency: string;
  /** Site paths (no origin); a hosted provider makes them absolute. */
  successPath: string;
  cancelPath: string;
  /**
   * The consent the buyer gave on the payment page, before any checkout exists: the provider's
   * card page does not ask again. A provider may keep it with the checkout as evidence.
   */
  consent: Consent;
  /** A discount code applied: `amount` is already the reduced price; the provider may show the code. */
  discount?: { code: string; listAmount: number; discountAmount: number };
};

/** What the buyer agreed to on the payment page before the checkout was created (withdrawal right waived for immediate delivery: docs/checkout.md). */
export type Consent = { acceptedAt: Date; termsVersion: string };

export type CreatedCheckout = { id: string; url: string };

/** A checkout as the provider sees it, in the provider-neutral shape fulfilment works on. */
export type CheckoutSnapshot = {
  id: string;
  status: "open" | "complete" | "expired";
  /** Only "paid" makes an order paid: never a visitor reaching the success page. */
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  amount: number | null;
  currency: string | null;
  locale: Locale | null;
  /**
   * The site that created the checkout, as it marked it at the provider (PUBLIC_BASE_URL's origin);
   * null when unmarked: another product's checkout on the same account, or a test checkout (which
   * exists only in this site's database, beside its order row).
   */
  site: string | null;
  email: string | null;
  name: string | null;
  city: string | null;
  /** The billing address's country (ISO 3166-1 alpha-2, upper case), when the buyer gave one. */
  country: string | null;
  /** The paying card's country, where the provider tells it (evidence of the buyer's country for VAT). */
  cardCountry: string | null;
  paymentIntentId: string | null;
};

/** A provider event turned into what it means for one order. */
export type OrderEvent =
  | {
      eventId: string;
      provider: ProviderName;
      type:
        | "checkout.session.completed"
        | "checkout.session.async_payment_succeeded"
        | "checkout.session.async_payment_failed"
        | "checkout.session.expired";
      checkout: CheckoutSnapshot;
    }
  | {
      eventId: string;
      provider: ProviderName;
      type: "charge.refunded";
      paymentIntentId: string;
      /** false for a partial refund: the order stays paid. */
      fullyRefunded: boolean;
    };

/**
 * A declined or failed payment attempt the provider reports (Stripe's `payment_intent.payment_failed`):
 * kept with the order, with the provider's reason, so the owner sees why it is not paid.
 */
export type FailedAttempt = {
  eventId: string;
  paymentIntentId: string;
  /** The checkout the attempt belongs to; null when the provider knows none (another product's payment). */
  checkoutId: string | null;
  reason: string;
  email: string | null;
};

/** The result of reading a webhook delivery. */
export type WebhookReading =
  | { kind: "event"; event: OrderEvent }
  | { kind: "attempt"; attempt: FailedAttempt }
  | { kind: "ignored"; eventId: string; type: string };

export type CheckoutProvider = {
  name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout>;
  /** null when the provider does not know the id. */
  lookupCheckout(id: string): Promise<CheckoutSnapshot | null>;
  /** Verifies and reads a webhook delivery; throws `WebhookSignatureError` when it is not authentic. */
  readWebhook(rawBody: string, signature: string | null): Promise<WebhookReading>;
  /**
   * Refunds a payment in full at the provider (Stripe's Refund API); the idempotency key makes a
   * repeated call the same refund. Absent where refunds are the site's own (the test checkout).
   */
  refundPayment?(paymentIntentId: string, idempotencyKey: string): Promise<void>;
};

/** The provider refused or could not be reached; `requestId` is the provider's id for the call. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly requestId: string | null = null,
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** A correctly signed event whose content is not what the fields we read must be. */
export class WebhookPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookPayloadError";
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/**
 * Whether the provider says the buyer owes nothing more: `payment_status` "paid", or
 * "no_payment_required" for a checkout of 0 (a 100 % promotion code, when the owner enables them);
 * Stripe's own fulfilment guide fulfils both. Anything else waits.
 */
export function isSettled(snapshot: Pick<CheckoutSnapshot, "paymentStatus" | "amount">): boolean {
  return snapshot.paymentStatus === "paid" || (snapshot.paymentStatus === "no_payment_required" && snapshot.amount === 0);
}

/** First word of the name the customer typed: all the social-proof toast may show of them. */
export function firstNameOf(name: string | null): string | null {
  const first = name?.trim().split(/\s+/)[0];
  return first ? first.slice(0, 60) : null;
}
