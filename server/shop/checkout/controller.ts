import { Elysia } from "elysia";
import * as v from "valibot";
import { TERMS_VERSION } from "../../../shared/legal";
import type { TestCheckoutView } from "../../../shared/page-data";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "../../../shared/locales";
import { formatMoney } from "../../../shared/price";
import { pathFor } from "../../../shared/routes";
import { checkTestCard, PaymentRequestSchema } from "../../../shared/schemas/payment";
import { isStorageUnavailable, storageProblem } from "../../../db/storage";
import type { AppDeps } from "../../deps";
import { purchasesInNotice } from "../social-proof/service";
import { busyAnswer, busyJson, busyRetryAfter, isFormPost } from "../../platform/http/busy";
import { HttpError, jsonError, parseWith, readBody, readRawBody } from "../../platform/http/body";
import { requestContext } from "../../platform/http/context";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { deliverySettings } from "./delivery";
import { applyOrderEvent, recordedConsent } from "./fulfilment";
import { ProviderError, WebhookPayloadError, WebhookSignatureError } from "./provider";
import { checkoutProviderFor, testCheckoutFor } from "./providers";
import { createCheckoutSession } from "./service";
import type { TestSession } from "./test-provider";

export const PAYMENT_MAX_BODY_BYTES = 1024;
/** Each call opens a checkout at the provider: a visitor needs a few, a script gets cut off. */
export const PAYMENT_RATE_LIMIT = { limit: 20, windowMs: 10 * 60 * 1000 } as const;
/** Stripe's events for one Checkout Session are a few KB; this leaves a wide margin. */
export const WEBHOOK_MAX_BODY_BYTES = 512 * 1024;
export const TEST_FORM_MAX_BODY_BYTES = 8 * 1024;

const FormLocale = v.object({ locale: v.picklist(LOCALES) });
const TestSessionId = v.pipe(v.string(), v.regex(/^cs_test_[A-Za-z0-9]{1,64}$/));

/** POST /api/payment, POST /api/stripe/webhook, /checkout/test/:id (issue 4). */
export function checkoutController(deps: AppDeps) {
  const { config, log, render, staticPages, now } = deps;
  const limiter = createRateLimiter(deps.rateLimits, { name: "payment", ...PAYMENT_RATE_LIMIT });

  const notFound = (request: Request) => staticPages.respond(request, { page: "not-found" }, DEFAULT_LOCALE, 404);

  const testPage = async (
    request: Request,
    session: TestSession,
    status: number,
    extra: Pick<TestCheckoutView, "values" | "errors"> = { values: { email: "", name: "", city: "" }, errors: {} },
  ) => {
    const locale: Locale = isLocale(session.locale) ? session.locale : DEFAULT_LOCALE;
    const view: TestCheckoutView = {
      page: "test-checkout",
      session: {
        id: session.id,
        amount: formatMoney(session.amount, session.currency, locale),
        status: session.status,
        cancelUrl: session.cancelUrl,
        successUrl: session.successUrl,
        paymentPath: pathFor("payment", locale),
        consented: recordedConsent(deps.db, session.id) !== null,
      },
      purchaseNotice: purchasesInNotice(config),
      ...extra,
    };
    // The buyer's name and e-mail may be in it: rendered per request, so no cache (nor the back button) keeps a copy.
    return render({ view, locale, status, acceptEncoding: request.headers.get("accept-encoding") });
  };

  return new Elysia({ name: "checkout" })
    .use(requestContext(config))
    .post(
      "/api/payment",
      async ({ request, ip }) => {
        const isForm = isFormPost(request);
        let locale: Locale = DEFAULT_LOCALE;
        // Without JavaScript a failure goes back to the payment page, which then shows the error
        // (client/pages/payment.tsx reads `?error=`), instead of a page of raw JSON.
        const backToPayment = (flag: "provider" | "invalid" | "rate-limited" | "consent") =>
          new Response(null, { status: 303, headers: { location: `${pathFor("payment", locale)}?error=${flag}` } });

        try {
          const allowed = limiter.take(ip);
          if (!allowed.ok) {
            if (isForm) {
              const small = await readBody(request, { maxBytes: PAYMENT_MAX_BODY_BYTES, accept: ["form"] }).catch(() => null);
              const parsed = v.safeParse(FormLocale, small?.value);
              if (parsed.success) locale = parsed.output.locale;
            }
            throw new HttpError(429, `Rate limit exceeded: too many payment attempts, try again in ${allowed.retryAfterSeconds} s`, {
              "retry-after": String(allowed.retryAfterSeconds),
            });
          }
          const body = await readBody(request, { maxBytes: PAYMENT_MAX_BODY_BYTES });
          const payment = parseWith(PaymentRequestSchema, body.value);
          locale = payment.locale;
          // No checkout, and no pending order, without the buyer's consent (issue 12).
          if (!payment.acceptTerms) {
            if (isForm) return backToPayment("consent");
            return Response.json(
              {
                error: "Tick the box to accept the terms of sale and ask for immediate access (acceptTerms: true)",
                code: "consent-required",
              },
              { status: 422 },
            );
          }
          const provider = checkoutProviderFor(deps);
          const checkout = await createCheckoutSession(deps, provider, locale, { acceptedAt: now(), termsVersion: TERMS_VERSION });
          log.info("checkout created", { provider: provider.name, checkout: checkout.id, locale });
          if (isForm) return new Response(null, { status: 303, headers: { location: checkout.url } });
          return Response.json({ url: checkout.url });
        } catch (error) {
          if (error instanceof HttpError) {
            if (isForm) return backToPayment(error.status === 429 ? "rate-limited" : "invalid");
            return jsonError(error);
          }
          if (error instanceof ProviderError) {
            log.error("checkout creation failed", { requestId: error.requestId, error: error.message, detail: error.detail });
            if (isForm) return backToPayment("provider");
            return Response.json({ error: "The payment provider is unavailable, please try again in a moment" }, { status: 502 });
          }
          if (isStorageUnavailable(error)) {
            // The pending order could not be recorded: the visitor is not sent to pay.
            log[storageProblem(error).level](`checkout not started: ${storageProblem(error).problem}`, {
              error: error instanceof Error ? error.message : String(error),
            });
            return busyAnswer(render, request, { page: isForm, locale }, error);
          }
          log.error("checkout creation failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
          if (isForm) return backToPayment("provider");
          return Response.json({ error: "Could not start the payment, please try again" }, { status: 503 });
        }
      },
      { parse: "none" },
    )
    .post(
      "/api/stripe/webhook",
      async ({ request }) => {
        if (config.stripe === undefined) return Response.json({ error: "Stripe is not configured" }, { status: 404 });
        let reading;
        try {
          // The signature covers the exact bytes Stripe sent: the body is read raw, never re-serialised.
          const raw = await readRawBody(request, WEBHOOK_MAX_BODY_BYTES);
          reading = await checkoutProviderFor(deps).readWebhook(raw, request.headers.get("stripe-signature"));
        } catch (error) {
          if (error instanceof HttpError) return jsonError(error);
          if (error instanceof WebhookSignatureError) {
            log.warn("webhook refused", { reason: error.message });
            return Response.json({ error: `Invalid signature: ${error.message}` }, { status: 400 });
          }
          if (error instanceof WebhookPayloadError) {
            log.warn("webhook refused", { reason: error.message });
            return Response.json({ error: `Malformed event: ${error.message}` }, { status: 400 });
          }
          throw error;
        }
        if (reading.kind === "ignored") return Response.json({ received: true, ignored: reading.type });
        try {
          const result = await applyOrderEvent(deps.write, reading.event, now(), deliverySettings(config));
          deps.mailer.wake();
          log.info("webhook applied", { event: reading.event.eventId, type: reading.event.type, ...result });
          return Response.json({ received: true, duplicate: result.outcome === "duplicate" });
        } catch (error) {
          if (isStorageUnavailable(error)) {
            // Stripe delivers the event again later; nothing of it was written.
            log[storageProblem(error).level](`webhook not applied: ${storageProblem(error).problem}`, { event: reading.event.eventId });
            return busyJson(error);
          }
          // Not acknowledged, so Stripe delivers it again later; nothing was half-written (one transaction).
          log.error("webhook not applied", { event: reading.event.eventId, error: error instanceof Error ? error.message : String(error) });
          return Response.json({ error: "Could not record the event, retry later" }, { status: 503 });
        }
      },
      { parse: "none" },
    )
    .get("/checkout/test/:id", async ({ request, params }) => {
      const checkout = testCheckoutFor(deps);
      const id = v.safeParse(TestSessionId, params.id);
      const session = checkout !== null && id.success ? await checkout.session(id.output) : null;
      if (session === null) return notFound(request);
      return testPage(request, session, session.status === "expired" ? 410 : 200);
    })
    .post(
      "/checkout/test/:id",
      async ({ request, params }) => {
        const checkout = testCheckoutFor(deps);
        const id = v.safeParse(TestSessionId, params.id);
        const session = checkout !== null && id.success ? await checkout.session(id.output) : null;
        if (checkout === null || session === null) return notFound(request);

        let form: Record<string, unknown> = {};
        try {
          const body = await readBody(request, { maxBytes: TEST_FORM_MAX_BODY_BYTES, accept: ["form"] });
          if (typeof body.value === "object" && body.value !== null) form = { ...body.value };
        } catch (error) {
          if (error instanceof HttpError) return jsonError(error);
          throw error;
        }
        const text = (key: string) => (typeof form[key] === "string" ? String(form[key]).slice(0, 255) : "");
        // The card number is never echoed back into the page.
        const values = { email: text("email"), name: text("name"), city: text("city") };

        if (session.status === "complete") return seeOther(session.successUrl);
        if (session.status === "expired") return testPage(request, session, 410, { values, errors: {} });
        // The card page does not ask for the consent: a checkout without the one given on the
        // payment page (its order could not be recorded) is never paid. Consent is never withdrawn
        // from an order, so checking it before paying is enough.
        if (recordedConsent(deps.db, session.id) === null) return testPage(request, session, 409, { values, errors: {} });
        const checked = checkTestCard(form, now());
        if (!checked.ok) return testPage(request, session, 422, { values, errors: checked.errors });

        let outcome;
        try {
          outcome = await checkout.pay(session.id, checked.card);
        } catch (error) {
          if (!isStorageUnavailable(error)) throw error;
          // Nothing was paid or written: the card page again, filled in, saying to retry shortly.
          log[storageProblem(error).level](`test checkout not paid: ${storageProblem(error).problem}`, { checkout: session.id });
          const page = await testPage(request, session, 503, { values, errors: { form: "checkout.busy" } });
          page.headers.set("retry-after", busyRetryAfter(error));
          return page;
        }
        switch (outcome.kind) {
          case "paid":
            log.info("test checkout paid", { checkout: session.id });
            deps.mailer.wake();
            return seeOther(outcome.successUrl);
          case "already-paid":
            return seeOther(outcome.successUrl);
          case "declined":
            return testPage(request, session, 402, { values, errors: { card: "checkout.declined", form: "checkout.declined" } });
          case "expired":
            return testPage(request, { ...session, status: "expired" }, 410, { values, errors: {} });
          case "not-found":
            return notFound(request);
        }
      },
      { parse: "none" },
    );
}

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });
