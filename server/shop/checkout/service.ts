import type { Locale } from "../../../shared/locales";
import { pathFor } from "../../../shared/routes";
import type { AppDeps } from "../../deps";
import { recordPendingOrder } from "./fulfilment";
import type { CheckoutProvider, Consent } from "./provider";

/**
 * Starts a checkout of the configured price in the visitor's language (spec 7.3) and records the
 * order as pending, with the buyer's consent, so the success page knows the id as soon as the
 * visitor comes back.
 * Throws ProviderError when the provider fails, DatabaseBusyError when the database stays locked
 * (the visitor is then not sent to pay; the checkout left at the provider expires unused).
 */
export async function createCheckoutSession(
  deps: Pick<AppDeps, "content" | "write" | "now">,
  provider: CheckoutProvider,
  locale: Locale,
  consent: Consent,
  /** The buyer ticked the payment page's box: their initial and city may show in the recent-purchases notice. */
  inNotice = false,
): Promise<{ id: string; url: string }> {
  // The published price at this moment: the order records what the buyer is asked to pay.
  const { priceMinor, currency } = deps.content.current().site;
  const created = await provider.createCheckout({
    locale,
    amount: priceMinor,
    currency,
    successPath: pathFor("success", locale),
    cancelPath: pathFor("canceled", locale),
    consent,
  });
  await recordPendingOrder(
    deps.write,
    {
      provider: provider.name,
      checkoutId: created.id,
      amount: priceMinor,
      currency,
      locale,
      termsAcceptedAt: consent.acceptedAt,
      termsVersion: consent.termsVersion,
      inNotice,
    },
    deps.now(),
  );
  return created;
}
