import * as v from "valibot";
import Stripe from "stripe";
import { isLocale, type Locale } from "../../shared/locales";
import type { Config } from "../config";
import {
  ProviderError,
  WebhookPayloadError,
  WebhookSignatureError,
  type CheckoutProvider,
  type CheckoutSnapshot,
  type OrderEvent,
  type WebhookReading,
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
export type StripeConnection = { host?: string; port?: number; protocol?: "http" | "https"; timeoutMs?: number; maxNetworkRetries?: number };

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
    throw new ProviderError(`Stripe could not ${what}`, null, error instanceof Error ? error.message : String(error));
  };

  return {
    name: "stripe",

    async createCheckout(request) {
      const currency = request.currency.toLowerCase();
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: "payment",
        line_items: [
          settings.priceId !== undefined
            ? { price: settings.priceId, quantity: 1 }
            : {
                price_data: { currency, unit_amount: request.amount, product_data: { name: site.productName(request.locale) } },
                quantity: 1,
              },
        ],
        locale: STRIPE_LOCALES[request.locale],
        success_url: `${site.baseUrl}${request.successPath}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${site.baseUrl}${request.cancelPath}`,
        // The city of the billing address is what the social-proof toast may show (issue 5).
        billing_address_collection: "required",
        metadata: { locale: request.locale },
      };
      if (settings.promotionCodes) params.allow_promotion_codes = true;
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
        return snapshotOf(await stripe.checkout.sessions.retrieve(id));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        return fail("look up a checkout session", error);
      }
    },

    async readWebhook(rawBody, signature) {
      if (signature === null) throw new WebhookSignatureError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        // The async variant: Bun's crypto is Web Crypto, which the synchronous call cannot use.
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : "Invalid signature");
      }
      const orderEvent = toOrderEvent(event);
      return orderEvent === null ? { kind: "ignored", eventId: event.id, type: event.type } : { kind: "event", event: orderEvent };
    },
  };
}

// The fields of Stripe's objects that fulfilment reads, checked before use: a signed event is
// Stripe's, but a value of an unexpected type must be refused (400), not fail half-way (and be
// retried for days).
const IdOrObject = v.nullish(v.union([v.string(), v.object({ id: v.string() })]));
const SessionFields = v.object({
  id: v.pipe(v.string(), v.nonEmpty()),
  status: v.nullish(v.string()),
  payment_status: v.nullish(v.string()),
  amount_total: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0))),
  currency: v.nullish(v.pipe(v.string(), v.regex(/^[a-z]{3}$/i))),
  metadata: v.nullish(v.record(v.string(), v.string())),
  customer_details: v.nullish(
    v.object({ email: v.nullish(v.string()), name: v.nullish(v.string()), address: v.nullish(v.object({ city: v.nullish(v.string()) })) }),
  ),
  payment_intent: IdOrObject,
});
const ChargeFields = v.object({ payment_intent: IdOrObject, refunded: v.boolean() });

function check(schema: v.GenericSchema, value: unknown, what: string): void {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new WebhookPayloadError(`${what}: ${v.getDotPath(result.issues[0]) ?? "object"} ${result.issues[0].message}`);
}

/** The events that change an order; every other type is acknowledged and ignored. */
export function toOrderEvent(event: Stripe.Event): OrderEvent | null {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired":
      check(SessionFields, event.data?.object, "checkout session");
      return { eventId: event.id, provider: "stripe", type: event.type, checkout: snapshotOf(event.data.object) };
    case "charge.refunded": {
      check(ChargeFields, event.data?.object, "charge");
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (paymentIntentId === null) return null;
      return { eventId: event.id, provider: "stripe", type: event.type, paymentIntentId, fullyRefunded: charge.refunded };
    }
    default:
      return null;
  }
}

export function snapshotOf(session: Stripe.Checkout.Session): CheckoutSnapshot {
  const locale = session.metadata?.locale;
  const details = session.customer_details;
  return {
    id: session.id,
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    // Anything Stripe may add later counts as not paid.
    paymentStatus: session.payment_status === "paid" ? "paid" : session.payment_status === "no_payment_required" ? "no_payment_required" : "unpaid",
    amount: session.amount_total,
    currency: session.currency,
    locale: isLocale(locale) ? locale : null,
    email: details?.email ?? null,
    name: details?.name ?? null,
    city: details?.address?.city ?? null,
    paymentIntentId: idOf(session.payment_intent),
  };
}

const idOf = (value: string | { id: string } | null): string | null => (value === null ? null : typeof value === "string" ? value : value.id);
