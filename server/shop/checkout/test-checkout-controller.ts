import { Elysia } from "elysia";
import * as v from "valibot";
import { isStorageUnavailable, storageProblem } from "../../../db/storage";
import { ENDPOINTS } from "../../../shared/api";
import { COUNTRY_CODES, LIKELY_COUNTRY } from "../../../shared/countries";
import { DEFAULT_LOCALE, isLocale, LOCALE_TAGS, type Locale } from "../../../shared/locales";
import type { TestCheckoutView } from "../../../shared/page-data";
import { formatMoney } from "../../../shared/price";
import { pathFor } from "../../../shared/routes";
import { checkFreeClaim, checkTestCard } from "../../../shared/schemas/payment";
import type { AppDeps } from "../../deps";
import type { HttpError } from "../../platform/http/body";
import { busyRetryAfter } from "../../platform/http/busy";
import { requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { answeredBy, bodyParser } from "../../platform/http/route-input";
import { FREE_TEST_CLAIM_PREFIX } from "../paperwork/numbering";
import { purchasesInNotice } from "../social-proof/service";
import { type ClaimOutcome, FREE_CLAIM_ID } from "./free-claims";
import { recordedConsent } from "./fulfilment";
import type { TestSession } from "./test-provider";

export const TEST_FORM_MAX_BODY_BYTES = 8 * 1024;
/**
 * Per client, the card form's posts: a buyer tries a card or two; a script posting in a loop would
 * keep the writer busy for every other buyer (each post that pays is a write of its own).
 */
export const TEST_CHECKOUT_RATE_LIMIT = { limit: 30, windowMs: 10 * 60 * 1000 } as const;

const TestSessionId = v.pipe(v.string(), v.regex(/^cs_test_[A-Za-z0-9]{1,64}$/));
/** The card page's address: a test checkout's id or a free-access claim's, else the page does not exist. */
const CheckoutParams = v.object({ id: v.union([TestSessionId, v.pipe(v.string(), v.regex(FREE_CLAIM_ID))]) });
/** The card form's fields as a browser posts them; each is checked by the form it belongs to. */
const CardForm = v.record(v.string(), v.string());

/**
 * GET and POST /checkout/test/:id: the built-in test checkout's card page (404 in Stripe mode), and
 * in either mode the page of a free-access claim (a 100 % code: free-claims.ts), without a card.
 */
export function testCheckoutController(deps: AppDeps) {
  const { config, log, render, staticPages, now } = deps;
  const checkout = deps.checkout.testCheckout;
  const { freeClaims } = deps.checkout;
  const limiter = createRateLimiter(deps.rateLimits, { name: "test-checkout", ...TEST_CHECKOUT_RATE_LIMIT });
  const fail = failureResponder(deps);

  const notFound = (request: Request) => staticPages.respond(request, { page: "not-found" }, DEFAULT_LOCALE, 404);
  /** A refused input: an address that is no checkout's is the page not found, the rest the route's refusal. */
  const refused = (refusal: HttpError, request: Request) =>
    refusal.status === 404 ? notFound(request) : fail(refusal, { request, locale: DEFAULT_LOCALE, what: "test checkout form not read" });
  /** The checkout (or the free claim) of the page's address, null when there is none (or no test checkout). */
  const sessionOf = async (id: string): Promise<TestSession | null> => {
    if (FREE_CLAIM_ID.test(id)) return freeClaims.session(id);
    const card = v.safeParse(TestSessionId, id);
    return checkout !== null && card.success ? checkout.session(card.output) : null;
  };

  const testPage = async (request: Request, session: TestSession, status: number, extra?: Pick<TestCheckoutView, "values" | "errors">) => {
    const locale: Locale = isLocale(session.locale) ? session.locale : DEFAULT_LOCALE;
    const { values, errors } = extra ?? { values: { email: "", name: "", city: "", country: LIKELY_COUNTRY[locale] }, errors: {} };
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
        free: session.free,
        testMode: !session.free || session.id.startsWith(FREE_TEST_CLAIM_PREFIX),
      },
      purchaseNotice: purchasesInNotice(config),
      values,
      errors,
      countries: countryChoices(locale),
    };
    // The buyer's name and e-mail may be in it: rendered per request, so no cache (nor the back button) keeps a copy.
    const page = await render({ view, locale, status, acceptEncoding: request.headers.get("accept-encoding") });
    // Its address holds the checkout's id, which opens the order's page for a while: no Referer.
    page.headers.set("referrer-policy", "strict-origin");
    return page;
  };

  /** A free-access claim's form: the buyer's address and name, no card; the order completes at 0. */
  const claimFree = async (request: Request, session: TestSession, form: Record<string, unknown>, values: TestCheckoutView["values"]) => {
    const checked = checkFreeClaim(form);
    if (!checked.ok) return testPage(request, session, 422, { values, errors: checked.errors });
    let outcome: ClaimOutcome;
    try {
      outcome = await freeClaims.claim(session.id, checked.details);
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error;
      const { level, problem } = storageProblem(error);
      log[level](`free access not claimed: ${problem}`, { checkout: session.id });
      const page = await testPage(request, session, 503, { values, errors: { form: "checkout.busy" } });
      page.headers.set("retry-after", busyRetryAfter(error));
      return page;
    }
    switch (outcome.kind) {
      case "claimed":
        log.info("free access claimed", { checkout: session.id });
        deps.mailer.wake();
        return seeOther(outcome.successUrl);
      case "already-claimed":
        return seeOther(outcome.successUrl);
      case "expired":
        return testPage(request, { ...session, status: "expired" }, 410, { values, errors: {} });
      case "not-found":
        return notFound(request);
    }
  };

  return new Elysia({ name: "checkout-test" })
    .use(requestContext(config))
    .get(
      ENDPOINTS.testCheckout.path,
      async ({ request, params }) => {
        const session = await sessionOf(params.id);
        if (session === null) return notFound(request);
        return testPage(request, session, session.status === "expired" ? 410 : 200);
      },
      { params: CheckoutParams, transform: answeredBy(refused) },
    )
    .post(
      ENDPOINTS.testCheckout.path,
      async ({ request, params, ip, body: form }) => {
        const free = FREE_CLAIM_ID.test(params.id);
        const session = await sessionOf(params.id);
        if (session === null) return notFound(request);
        const text = (key: string) => (form[key] ?? "").slice(0, 255);
        // The card number is never echoed back into the page.
        const values = { email: text("email"), name: text("name"), city: text("city"), country: text("country").toUpperCase() };

        const allowed = limiter.take(ip);
        if (!allowed.ok) {
          // Nothing is paid or written: the card page again, filled in, saying when to try again.
          const page = await testPage(request, session, 429, { values, errors: { form: "checkout.rateLimited" } });
          page.headers.set("retry-after", String(allowed.retryAfterSeconds));
          return page;
        }
        if (session.status === "complete") return seeOther(session.successUrl);
        if (session.status === "expired") return testPage(request, session, 410, { values, errors: {} });
        // The card page does not ask for the consent: a checkout without the one given on the
        // payment page (its order could not be recorded) is never paid. Consent is never withdrawn
        // from an order, so checking it before paying is enough.
        if (recordedConsent(deps.db, session.id) === null) return testPage(request, session, 409, { values, errors: {} });
        if (free) return claimFree(request, session, form, values);
        if (checkout === null) return notFound(request);
        const checked = checkTestCard(form, now());
        if (!checked.ok) return testPage(request, session, 422, { values, errors: checked.errors });

        let outcome;
        try {
          outcome = await checkout.pay(session.id, checked.card);
        } catch (error) {
          if (!isStorageUnavailable(error)) throw error;
          // Nothing was paid or written: the card page again, filled in, saying to retry shortly.
          const { level, problem } = storageProblem(error);
          log[level](`test checkout not paid: ${problem}`, { checkout: session.id });
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
      {
        // Only a browser's form: 413, 415 and 400 as JSON, as for every route (nothing is paid).
        parse: bodyParser({ maxBytes: TEST_FORM_MAX_BODY_BYTES, accept: ["form"], answer: refused }),
        params: CheckoutParams,
        body: CardForm,
      },
    );
}

/** Every country named in the page's language, in its alphabetical order, the likely one first. */
function countryChoices(locale: Locale): TestCheckoutView["countries"] {
  const names = new Intl.DisplayNames([LOCALE_TAGS[locale].bcp47], { type: "region" });
  const collator = new Intl.Collator(LOCALE_TAGS[locale].bcp47);
  const likely = LIKELY_COUNTRY[locale];
  const all = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
  return [...all.filter((c) => c.code === likely), ...all.filter((c) => c.code !== likely)];
}

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });
