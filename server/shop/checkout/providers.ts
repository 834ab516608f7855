import type { MessageKey } from "../../../shared/i18n";
import type { Locale } from "../../../shared/locales";
import type { AppDeps } from "../../deps";
import type { ContentSource } from "../../site/content/live";
import { deliverySettings } from "./delivery";
import { createFreeClaims, type FreeClaims } from "./free-claims";
import type { CheckoutProvider } from "./provider";
import { createStripeProvider, type StripeConnection } from "./stripe-provider";
import { createLookupThrottle, type LookupThrottle } from "./success-order";
import { createTestProvider, type TestCheckout } from "./test-provider";

/** The site's checkout, made once by the wiring (server/wiring.ts) and handed to the controllers in AppDeps. */
export type Checkout = {
  /** Stripe when its keys are set, otherwise the built-in test checkout. */
  provider: CheckoutProvider;
  /** The test checkout when it is the provider; null in Stripe mode (its pages are then 404). */
  testCheckout: TestCheckout | null;
  /** Free access claimed with a 100 % code, in either mode: no provider sees it. */
  freeClaims: FreeClaims;
  /** How often the success page may ask the provider about one checkout. */
  lookups: LookupThrottle;
};

/**
 * Chooses the provider from the configuration. `stripeConnection` says where the Stripe SDK sends
 * its requests: Stripe's API by default; tests give a fake Stripe API on 127.0.0.1.
 */
export function createCheckout(
  deps: Pick<AppDeps, "config" | "db" | "write" | "now" | "content">,
  stripeConnection?: StripeConnection,
): Checkout {
  const { config } = deps;
  const provider =
    config.stripe !== undefined
      ? createStripeProvider(
          config.stripe,
          { baseUrl: config.publicBaseUrl, productName: textFor(deps.content, "orderProduct") },
          stripeConnection ?? connectionOf(config.stripe.apiBase),
        )
      : createTestProvider(deps.db, deps.write, deps.now, deliverySettings(config));
  return {
    provider,
    testCheckout: isTestCheckout(provider) ? provider : null,
    freeClaims: createFreeClaims(deps.db, deps.write, deps.now, deliverySettings(config)),
    lookups: createLookupThrottle(),
  };
}

const isTestCheckout = (provider: CheckoutProvider): provider is TestCheckout => provider.name === "test" && "pay" in provider;

/** A text of Stripe's page in the visitor's language: the line item's name ("Lifetime Stream — lifetime access"). */
function textFor(content: ContentSource, key: MessageKey): (locale: Locale) => string {
  return (locale) => content.current().localized(locale, new Date()).t(key);
}

/** STRIPE_API_BASE as the SDK's host, port and protocol; Stripe's own API without it. */
function connectionOf(apiBase: string | undefined): StripeConnection | undefined {
  if (apiBase === undefined) return undefined;
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port === "" ? (protocol === "http" ? 80 : 443) : Number(url.port), protocol };
}
