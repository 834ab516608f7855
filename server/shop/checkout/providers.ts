import { createTranslator, type MessageKey } from "../../../shared/i18n";
import type { Locale } from "../../../shared/locales";
import type { Config } from "../../platform/config";
import type { AppDeps } from "../../deps";
import { COMPILED } from "../../site/locales";
import { deliverySettings } from "./delivery";
import type { CheckoutProvider } from "./provider";
import { createStripeProvider, type StripeConnection } from "./stripe-provider";
import { createTestProvider, type TestCheckout } from "./test-provider";

// One provider per running site, chosen by configuration (issue 4): Stripe when its keys are set,
// otherwise the built-in test checkout. Keyed by the config object so that every test site gets its
// own, and so that tests can hand the Stripe SDK a loopback host without a process-wide setting.

const providers = new WeakMap<Config, CheckoutProvider>();
const connections = new WeakMap<Config, StripeConnection>();

/** Tests only: where this site's Stripe SDK sends its requests (a fake Stripe API on 127.0.0.1). */
export function useStripeConnection(config: Config, connection: StripeConnection): void {
  connections.set(config, connection);
  providers.delete(config);
}

/** Where this site's Stripe SDK connects (Stripe itself unless a test said otherwise). */
export const stripeConnectionFor = (config: Config): StripeConnection => connections.get(config) ?? {};

export function checkoutProviderFor(deps: Pick<AppDeps, "config" | "db" | "write" | "now">): CheckoutProvider {
  let provider = providers.get(deps.config);
  if (provider === undefined) {
    const { config } = deps;
    provider =
      config.stripe !== undefined
        ? createStripeProvider(
            config.stripe,
            { baseUrl: config.publicBaseUrl, productName: textFor(config, "orderProduct") },
            connections.get(config),
          )
        : createTestProvider(deps.db, deps.write, deps.now, deliverySettings(config));
    providers.set(config, provider);
  }
  return provider;
}

/** The test checkout when it is the site's provider; null in Stripe mode (its pages are then 404). */
export function testCheckoutFor(deps: Pick<AppDeps, "config" | "db" | "write" | "now">): TestCheckout | null {
  const provider = checkoutProviderFor(deps);
  return isTestCheckout(provider) ? provider : null;
}

const isTestCheckout = (provider: CheckoutProvider): provider is TestCheckout => provider.name === "test" && "pay" in provider;

/** A text of Stripe's page in the visitor's language: the line item's name ("Lifetime Stream — lifetime access"). */
function textFor(config: Config, key: MessageKey): (locale: Locale) => string {
  return (locale) => createTranslator(locale, COMPILED[locale], { siteName: config.site.name })(key);
}
