import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { BUSINESS_FIELDS, businessPageError, COUNTRIES_RULES_TELL_APART, checkBusiness } from "../../../shared/business-buyer";
import { TERMS_VERSION } from "../../../shared/legal";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import type { PaymentPageError } from "../../../shared/page-data";
import { pathFor } from "../../../shared/routes";
import { PaymentRequestSchema } from "../../../shared/schemas/payment";
import type { AppDeps } from "../../deps";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { CODE_REFUSAL_TEXT } from "../codes/service";
import { ProviderError } from "./provider";
import { CodeRefusedError, createCheckoutSession } from "./service";

/** The consent, a code, a partner and a company's details (name, address, country, VAT number) with room to spare. */
export const PAYMENT_MAX_BODY_BYTES = 4096;
/** Each call opens a checkout at the provider: a visitor needs a few, a script gets cut off. */
export const PAYMENT_RATE_LIMIT = { limit: 20, windowMs: 10 * 60 * 1000 } as const;

const FormLocale = v.object({ locale: v.picklist(LOCALES) });

/** POST /api/payment: the pay button, as JSON from the script or as a plain form post. */
export function paymentController(deps: AppDeps) {
  const { config, log, now } = deps;
  const fail = failureResponder(deps);
  const limiter = createRateLimiter(deps.rateLimits, { name: "payment", ...PAYMENT_RATE_LIMIT });

  // Without JavaScript a failure goes back to the payment page, which then shows the error
  // (client/pages/payment.tsx reads `?error=`), instead of a page of raw JSON.
  const backToPayment = (locale: Locale, flag: PaymentPageError, given = "") =>
    new Response(null, { status: 303, headers: { location: `${pathFor("payment", locale)}?error=${flag}${given}` } });

  return new Elysia({ name: "checkout-payment" }).use(requestContext(config)).post(
    ENDPOINTS.payment.path,
    async ({ request, ip, body: payment }) => {
      const isForm = isFormPost(request);
      const { locale } = payment;
      try {
        // No checkout, and no pending order, without the buyer's consent.
        if (!payment.acceptTerms) {
          if (isForm) return backToPayment(locale, "consent", typedBack(payment));
          return Response.json(
            {
              error: "Tick the box to accept the terms of sale and ask for immediate access (acceptTerms: true)",
              code: "consent-required",
            },
            { status: 422 },
          );
        }
        // A company's details that do not check (a VAT number of the wrong form or check digits):
        // said in the page's language, nothing started or stored.
        const business = checkBusiness(payment);
        if (!business.ok) {
          if (isForm) return backToPayment(locale, businessPageError(business.errors), typedBack(payment));
          return Response.json(
            {
              error: `The company's details are not valid: ${Object.keys(business.errors).join(", ")}`,
              code: "business-invalid",
              fields: business.errors,
            },
            { status: 422 },
          );
        }
        const { provider } = deps.checkout;
        const checkout = await createCheckoutSession(
          deps,
          deps.checkout,
          locale,
          { acceptedAt: now(), termsVersion: TERMS_VERSION },
          payment.code,
          payment.showInNotice,
          payment.ref,
          business.business === null
            ? null
            : { buyer: business.business, vat: { vatScheme: config.vatScheme, vatRegistrations: config.vatRegistrations } },
        );
        // The checkout's id is masked by the logger (it opens the order's page for a while); the code is not logged.
        log.info("checkout created", {
          provider: provider.name,
          checkout: checkout.id,
          locale,
          discounted: payment.code !== "",
          business: business.business !== null,
        });
        // Only queued in memory: counting never delays or fails a payment.
        deps.analytics.checkoutStarted({ checkoutId: checkout.id, locale, sender: { ip, userAgent: request.headers.get("user-agent") } });
        if (isForm) return new Response(null, { status: 303, headers: { location: checkout.url } });
        return Response.json({ url: checkout.url });
      } catch (error) {
        if (error instanceof CodeRefusedError) {
          // Nothing started, nothing reserved: the buyer reads why in the page's language and may pay without it.
          if (isForm) return backToPayment(locale, `code-${error.reason}`, typedBack({ ...payment, code: "" }));
          return Response.json({ error: CODE_REFUSAL_TEXT[error.reason], code: `code-${error.reason}` }, { status: 422 });
        }
        if (error instanceof ProviderError) {
          log.error("checkout creation failed", { requestId: error.requestId, error: error.message, detail: error.detail });
          if (isForm) return backToPayment(locale, "provider", typedBack(payment));
          return Response.json({ error: "The payment provider is unavailable, please try again in a moment" }, { status: 502 });
        }
        // A pending order that could not be recorded, or any other failure: the visitor is not sent to pay.
        return fail(error, {
          request,
          locale,
          what: "checkout creation failed",
          back: (why) => backToPayment(locale, why === "error" ? "provider" : why, typedBack(payment)),
          unavailable: "Could not start the payment, please try again",
        });
      }
    },
    {
      // Counted before the body is read (each call opens a checkout at the provider). A refused form
      // post goes back to the payment page in its language; a script gets 400 for any invalid body,
      // as it always has.
      parse: bodyParser({
        maxBytes: PAYMENT_MAX_BODY_BYTES,
        before: countedBy(
          clientAddress(config),
          [limiter],
          (seconds) => `Rate limit exceeded: too many payment attempts, try again in ${seconds} s`,
        ),
        back: (sent, why) => {
          const form = v.safeParse(FormLocale, sent);
          return backToPayment(form.success ? form.output.locale : DEFAULT_LOCALE, why === "error" ? "provider" : why);
        },
        failedCheck: 400,
      }),
      body: PaymentRequestSchema,
    },
  );
}

/**
 * What the buyer typed, carried back to the page a plain form post was refused on, so that without
 * JavaScript nothing is typed twice: the company fields, the code, the partner, and every country in the list
 * when the company's is not on the short one. The query string is never logged; the terms box is
 * left for the buyer to tick again, as consent is given, never carried.
 */
function typedBack(payment: v.InferOutput<typeof PaymentRequestSchema>): string {
  const given = new URLSearchParams();
  for (const f of BUSINESS_FIELDS) if (payment[f] !== "") given.set(f, payment[f]);
  const country = payment.companyCountry.trim().toUpperCase();
  if (country !== "" && !COUNTRIES_RULES_TELL_APART.includes(country)) given.set("countries", "all");
  if (payment.code !== "") given.set("code", payment.code);
  // The partner whose link brought the buyer stays with the order when the buyer tries again.
  if (payment.ref !== "") given.set("ref", payment.ref);
  const query = given.toString();
  return query === "" ? "" : `&${query}`;
}
