import Stripe from "stripe";
import * as v from "valibot";
import { errorText } from "../../../shared/error-text";
import { isLocale, type Locale } from "../../../shared/locales";
import type { Config } from "../../platform/config";
import {
  type CheckoutProvider,
  type CheckoutSnapshot,
  type FailedAttempt,
  ProviderError,
  WebhookPayloadError,
  type WebhookReading,
  WebhookSignatureError,
} from "./provider";

/**
 * Pinned so that a Stripe account upgrade never changes the payloads this code reads; it is the
 * version the installed SDK's types describe (bump both together).
 */
export const STRIPE_API_VERSION = "2026-10-28.endive";

/** Stripe's language for each site language (Checkout accepts these codes as they are). */
export const STRIPE_LOCALES: Record<Locale, "fr" | "en" | "it" | "es"> = { fr: "fr", en: "en", it: "it", es: "es" };

export type StripeSettings = NonNullable<Config["stripe"]>;

/** Where the SDK sends its requests; tests point it at a fake Stripe API on loopback. */
export type StripeConnection = {
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  timeoutMs?: number;
  maxNetworkRetries?: number;
};

export function createStripeProvider(
  settings: StripeSettings,
  site: { baseUrl: string; productName: (locale: Locale) => string },
  connection: StripeConnection = {},
): CheckoutProvider {
  const stripe = new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    // A visitor is waiting on the pay button: fail within seconds rather than Stripe's default 80.
    timeout: connection.timeoutMs ?? 15_000,
    maxNetworkRetries: connection.maxNetworkRetries ?? 1,
    host: connection.host,
    port: connection.port,
    protocol: connection.protocol,
    appInfo: { name: "lifetime-stream-site" },
  });

  const fail = (what: string, error: unknown): never => {
    if (error instanceof Stripe.errors.StripeError) {
      throw new ProviderError(`Stripe could not ${what}`, error.requestId ?? null, `${error.type}: ${error.message}`);
    }
    throw new ProviderError(`Stripe could not ${what}`, null, errorText(error));
  };

  /**
   * The paying card's country, a second piece of evidence of the buyer's country for VAT, from the
   * payment's charge (Stripe puts it there, not in the session). Only evidence: when Stripe cannot
   * be asked, the order is recorded without it rather than not at all.
   */
  const withCardCountry = async (snapshot: CheckoutSnapshot): Promise<CheckoutSnapshot> => {
    if (snapshot.paymentIntentId === null || snapshot.paymentStatus !== "paid") return snapshot;
    try {
      const intent = await stripe.paymentIntents.retrieve(snapshot.paymentIntentId, { expand: ["latest_charge"] });
      const charge = v.safeParse(ChargeCard, intent.latest_charge);
      return { ...snapshot, cardCountry: charge.success ? (charge.output.payment_method_details?.card?.country ?? null) : null };
    } catch {
      return snapshot;
    }
  };

  return {
    name: "stripe",

    async createCheckout(request) {
      const currency = request.currency.toLowerCase();
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: "payment",
        line_items: [
          // A site's discount code: the session is created for the reduced amount itself, so Stripe's
          // page, the payment and the site's invoice agree (a Price object has its own fixed amount).
          settings.priceId !== undefined && request.discount === undefined
            ? { price: settings.priceId, quantity: 1 }
            : {
                price_data: { currency, unit_amount: request.amount, product_data: { name: site.productName(request.locale) } },
                quantity: 1,
              },
        ],
        locale: STRIPE_LOCALES[request.locale],
        success_url: `${site.baseUrl}${request.successPath}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${site.baseUrl}${request.cancelPath}`,
        // The city of the billing address is what the social-proof toast may show, and its
        // country sets the VAT of an OSS sale (the invoice states it).
        billing_address_collection: "required",
        // The buyer ticked the payment page's box before this session was created, and the order
        // records it; Stripe's page does not ask again (no consent_collection), so the buyer is
        // asked once. The session carries the same facts, for the Dashboard and a dispute.
        metadata: {
          locale: request.locale,
          // Marks the checkout as this site's: other products on the same Stripe account send
          // their events to this webhook too, and only this site's checkouts become orders.
          site: new URL(site.baseUrl).origin,
          terms_version: request.consent.termsVersion,
          terms_accepted_at: request.consent.acceptedAt.toISOString(),
        },
      };
      if (request.discount !== undefined) {
        // The code is named on the session for the Dashboard; its use is held for as long as the session may be paid.
        params.metadata = { ...params.metadata, discount_code: request.discount.code, list_amount: String(request.discount.listAmount) };
        params.expires_at = Math.floor(Date.now() / 1000) + CODE_SESSION_SECONDS;
      } else if (settings.promotionCodes) params.allow_promotion_codes = true;
      if (settings.automaticTax) params.automatic_tax = { enabled: true };

      let session: Stripe.Response<Stripe.Checkout.Session>;
      try {
        session = await stripe.checkout.sessions.create(params);
      } catch (error) {
        return fail("create a checkout session", error);
      }
      if (!session.url) throw new ProviderError("Stripe returned no checkout URL", session.lastResponse?.requestId ?? null);
      return { id: session.id, url: session.url };
    },

    async lookupCheckout(id) {
      try {
        return await withCardCountry(snapshotOf(await stripe.checkout.sessions.retrieve(id)));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        return fail("look up a checkout session", error);
      }
    },

    async refundPayment(paymentIntentId, idempotencyKey) {
      try {
        await stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey });
      } catch (error) {
        // Refunded already (in Stripe's dashboard, say): what was asked for is true.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "charge_already_refunded") return;
        fail("refund the payment", error);
      }
    },

    async readWebhook(rawBody, signature) {
      if (signature === null) throw new WebhookSignatureError("Missing Stripe-Signature header");
      let event: unknown;
      try {
        // The async variant: Bun's crypto is Web Crypto, which the synchronous call cannot use.
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError(error.message);
        // Signed, but not an event the SDK can read (not JSON, or a v2 "thin" notification).
        throw new WebhookPayloadError(error instanceof SyntaxError ? "the body is not JSON" : errorText(error));
      }
      checkSignedRecently(signature, Date.now());
      const failed = readFailedPayment(event);
      if (failed !== null) {
        // The attempt names its payment, not its checkout: Stripe says which session the payment is of.
        let checkoutId: string | null = null;
        try {
          const sessions = await stripe.checkout.sessions.list({ payment_intent: failed.paymentIntentId, limit: 1 });
          checkoutId = sessions.data[0]?.id ?? null;
        } catch (error) {
          return fail("find the checkout of a failed payment", error);
        }
        return { kind: "attempt", attempt: { ...failed, checkoutId } };
      }
      const reading = readStripeEvent(event);
      if (reading.kind !== "event" || reading.event.type === "charge.refunded") return reading;
      return { ...reading, event: { ...reading.event, checkout: await withCardCountry(reading.event.checkout) } };
    },
  };
}

/** A session with a site code expires after an hour (Stripe accepts 30 minutes to 24 hours): CODE_HOLD_MS. */
const CODE_SESSION_SECONDS = 60 * 60;

/** Seconds a signature may be away from this server's clock, either way (Stripe's own default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The SDK refuses a signature dated too long ago, not one dated in the future; a delivery signed
 * ahead of time (a leaked secret, a clock far off) would otherwise stay replayable until then.
 * The timestamp is read as the SDK reads it: the last `t=` entry.
 */
function checkSignedRecently(header: string, nowMs: number): void {
  let signedAt = Number.NaN;
  for (const item of header.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") signedAt = Number.parseInt(value ?? "", 10);
  }
  if (!Number.isFinite(signedAt) || Math.abs(Math.floor(nowMs / 1000) - signedAt) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError("Timestamp outside the tolerance zone");
  }
}

// Every field of a signed event that fulfilment reads is checked before use: the event is Stripe's,
// but one that is not what this code expects (no id, no object, a field missing or of another type)
// is refused with 400. Failing later would answer 500 or 503, and Stripe retries those for days.
const IdOrObject = v.union([v.string(), v.object({ id: v.string() })]);
const SessionFields = v.object({
  id: v.pipe(v.string(), v.nonEmpty()),
  status: v.nullish(v.string()),
  payment_status: v.nullish(v.string()),
  amount_total: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0))),
  currency: v.nullish(v.pipe(v.string(), v.regex(/^[a-z]{3}$/i))),
  metadata: v.nullish(v.record(v.string(), v.string())),
  customer_details: v.nullish(
    v.object({
      email: v.nullish(v.string()),
      name: v.nullish(v.string()),
      address: v.nullish(v.object({ city: v.nullish(v.string()), country: v.nullish(v.string()) })),
    }),
  ),
  // Always present in Stripe's objects (null until there is one): its absence is a malformed event.
  payment_intent: v.nullable(IdOrObject),
});
type CheckoutSessionFields = v.InferOutput<typeof SessionFields>;
/** The card's country on an expanded charge (a string id when not expanded: no evidence). */
const ChargeCard = v.object({
  payment_method_details: v.nullish(v.object({ card: v.nullish(v.object({ country: v.nullish(v.string()) })) })),
});
const ChargeFields = v.object({ payment_intent: v.nullable(IdOrObject), refunded: v.boolean() });

const EventEnvelope = v.object({ id: v.pipe(v.string(), v.nonEmpty()), type: v.pipe(v.string(), v.nonEmpty()) });
const SESSION_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
] as const;
const SessionEvent = v.object({ type: v.picklist(SESSION_EVENT_TYPES), data: v.object({ object: SessionFields }) });
const RefundEvent = v.object({ type: v.literal("charge.refunded"), data: v.object({ object: ChargeFields }) });

function checked<TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, what: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, value);
  if (!result.success)
    throw new WebhookPayloadError(`${what}: ${v.getDotPath(result.issues[0]) ?? "the event"} ${result.issues[0].message}`);
  return result.output;
}

const FailedPaymentEvent = v.object({
  id: v.string(),
  type: v.literal("payment_intent.payment_failed"),
  data: v.object({
    object: v.object({
      id: v.string(),
      receipt_email: v.nullish(v.string()),
      last_payment_error: v.nullish(
        v.object({
          code: v.nullish(v.string()),
          decline_code: v.nullish(v.string()),
          message: v.nullish(v.string()),
          payment_method: v.nullish(v.object({ billing_details: v.nullish(v.object({ email: v.nullish(v.string()) })) })),
        }),
      ),
    }),
  }),
});

/** A `payment_intent.payment_failed` event as the attempt it reports (its checkout found after); null for any other type. */
export function readFailedPayment(event: unknown): Omit<FailedAttempt, "checkoutId"> | null {
  const { type } = checked(EventEnvelope, event, "event");
  if (type !== "payment_intent.payment_failed") return null;
  const { id, data } = checked(FailedPaymentEvent, event, "payment intent");
  const error = data.object.last_payment_error;
  // Stripe's own words, as the owner would find them in the Dashboard: "card_declined (insufficient_funds): Your card has insufficient funds."
  const code = [error?.code, error?.decline_code ? `(${error.decline_code})` : null].filter((p) => p != null && p !== "").join(" ");
  const reason = `${code === "" ? "payment_failed" : code}: ${error?.message ?? "the payment did not go through"}`.slice(0, 300);
  return {
    eventId: id,
    paymentIntentId: data.object.id,
    reason,
    email: error?.payment_method?.billing_details?.email ?? data.object.receipt_email ?? null,
  };
}

/** The events that change an order; every other type is acknowledged and ignored. */
export function readStripeEvent(event: unknown): WebhookReading {
  const { id, type } = checked(EventEnvelope, event, "event");
  if (v.is(v.picklist(SESSION_EVENT_TYPES), type)) {
    const session = checked(SessionEvent, event, "checkout session");
    return { kind: "event", event: { eventId: id, provider: "stripe", type: session.type, checkout: snapshotOf(session.data.object) } };
  }
  if (type === "charge.refunded") {
    const charge = checked(RefundEvent, event, "charge").data.object;
    const paymentIntentId = idOf(charge.payment_intent);
    // A charge made without a PaymentIntent is none of this site's checkouts.
    if (paymentIntentId === null) return { kind: "ignored", eventId: id, type };
    return {
      kind: "event",
      event: { eventId: id, provider: "stripe", type: "charge.refunded", paymentIntentId, fullyRefunded: charge.refunded },
    };
  }
  return { kind: "ignored", eventId: id, type };
}

/** Also reads Stripe's own `Checkout.Session` (a lookup), which has every field checked above. */
export function snapshotOf(session: CheckoutSessionFields): CheckoutSnapshot {
  const locale = session.metadata?.locale;
  const details = session.customer_details;
  return {
    id: session.id,
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    // Anything Stripe may add later counts as not paid.
    paymentStatus:
      session.payment_status === "paid" ? "paid" : session.payment_status === "no_payment_required" ? "no_payment_required" : "unpaid",
    amount: session.amount_total ?? null,
    currency: session.currency ?? null,
    locale: isLocale(locale) ? locale : null,
    site: session.metadata?.site ?? null,
    email: details?.email ?? null,
    name: details?.name ?? null,
    city: details?.address?.city ?? null,
    country: details?.address?.country ?? null,
    // Not in the session: read from the payment's charge (withCardCountry) once it is paid.
    cardCountry: null,
    paymentIntentId: idOf(session.payment_intent),
  };
}

const idOf = (value: string | { id: string } | null): string | null =>
  value === null ? null : typeof value === "string" ? value : value.id;
