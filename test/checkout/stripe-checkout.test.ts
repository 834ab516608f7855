import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { orders } from "../../db/schema";
import { STRIPE_API_VERSION } from "../../server/shop/checkout/stripe-provider";
import { TERMS_VERSION } from "../../shared/legal";
import { LOCALES } from "../../shared/locales";
import { createTestSite, type TestSite } from "../support/app";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";

// POST /api/payment in Stripe mode, through the real SDK against a fake Stripe API on loopback.

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: "sk_test_checkout",
  STRIPE_WEBHOOK_SECRET: "whsec_checkout",
  PUBLIC_BASE_URL: "https://shop.example",
};

let fake: FakeStripe;
const sites: TestSite[] = [];

beforeAll(() => {
  fake = startFakeStripe({ timeoutMs: 1500 });
});
afterAll(() => fake.close());
afterEach(() => {
  for (const site of sites.splice(0)) site.close();
  fake.requests.length = 0;
  fake.mode = { kind: "ok" };
});

async function stripeSite(env: Record<string, string> = {}) {
  const site = await createTestSite({ env: { ...STRIPE_ENV, ...env }, stripeConnection: fake.connection });
  sites.push(site);
  return site;
}

/** The pay button's request, with the consent box ticked unless the test says otherwise. */
const pay = (site: TestSite, body: Record<string, unknown>) =>
  site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ acceptTerms: true, ...body }),
  });

const EXPECTED_PATHS = {
  fr: { success: "/payment-success", cancel: "/payment-canceled", name: "Lifetime Stream — accès à vie" },
  en: { success: "/en/payment-success", cancel: "/en/payment-canceled", name: "Lifetime Stream — lifetime access" },
  it: { success: "/it/payment-success", cancel: "/it/payment-canceled" },
  es: { success: "/es/payment-success", cancel: "/es/payment-canceled" },
} as const;

for (const locale of LOCALES) {
  test(`a ${locale} visitor gets a Stripe Checkout Session in ${locale} for the configured price`, async () => {
    const site = await stripeSite();
    const response = await pay(site, { locale });
    expect(response.status).toBe(200);
    const { url } = await response.json();
    expect(url).toStartWith("https://checkout.stripe.com/c/pay/cs_test_fake");

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/checkout/sessions");
    expect(sent.headers.get("authorization")).toBe("Bearer sk_test_checkout");
    expect(sent.headers.get("stripe-version")).toBe(STRIPE_API_VERSION);
    const params = Object.fromEntries(sent.body);
    const paths = EXPECTED_PATHS[locale];
    expect(params).toMatchObject({
      mode: "payment",
      locale,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": "2999",
      success_url: `https://shop.example${paths.success}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `https://shop.example${paths.cancel}`,
      billing_address_collection: "required",
      "metadata[locale]": locale,
      // The site's mark: only checkouts this site created become orders.
      "metadata[site]": "https://shop.example",
    });
    if ("name" in paths) expect(params["line_items[0][price_data][product_data][name]"]).toBe(paths.name);
    // Off unless configured.
    expect(params.allow_promotion_codes).toBeUndefined();
    expect(params["automatic_tax[enabled]"]).toBeUndefined();

    // The order exists at once, pending, so the success page can say "confirmation on its way".
    const rows = site.db.select().from(orders).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: "stripe",
      status: "pending",
      amount: 2999,
      currency: "EUR",
      locale,
      paidAt: null,
      termsVersion: TERMS_VERSION,
    });
    expect(rows[0]?.termsAcceptedAt).toBeInstanceOf(Date);
  });
}

test("Stripe's page does not ask for the consent again: the session carries the one given on the payment page, as the order does", async () => {
  const site = await stripeSite();
  expect((await pay(site, { locale: "fr" })).status).toBe(200);
  const params = Object.fromEntries(fake.requests[0]!.body);
  expect(Object.keys(params).filter((name) => name.startsWith("consent_collection") || name.startsWith("custom_text"))).toEqual([]);
  const [order] = site.db.select().from(orders).all();
  expect(params["metadata[terms_version]"]).toBe(TERMS_VERSION);
  expect(params["metadata[terms_accepted_at]"]).toBe(order!.termsAcceptedAt!.toISOString());
});

test("without the consent box Stripe is not called and no order is created, with and without JavaScript", async () => {
  const site = await stripeSite();
  const json = await pay(site, { locale: "en", acceptTerms: false });
  expect(json.status).toBe(422);
  expect(await json.json()).toMatchObject({ code: "consent-required" });
  const form = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "locale=en",
  });
  expect(form.status).toBe(303);
  expect(form.headers.get("location")).toBe("/en/paiement?error=consent");
  expect(fake.requests).toHaveLength(0);
  expect(site.db.select().from(orders).all()).toHaveLength(0);
});

test("a configured Stripe price, promotion codes and automatic tax are passed on", async () => {
  const site = await stripeSite({
    STRIPE_PRICE_ID: "price_123",
    STRIPE_PROMOTION_CODES: "true",
    STRIPE_AUTOMATIC_TAX: "true",
    PRICE: "19.99",
    ORIGINAL_PRICE: "49",
  });
  expect((await pay(site, { locale: "en" })).status).toBe(200);
  const params = Object.fromEntries(fake.requests[0]!.body);
  expect(params["line_items[0][price]"]).toBe("price_123");
  expect(params["line_items[0][price_data][unit_amount]"]).toBeUndefined();
  expect(params.allow_promotion_codes).toBe("true");
  expect(params["automatic_tax[enabled]"]).toBe("true");
});

test("a plain form post (no JavaScript) is sent on to Stripe's page with a 303", async () => {
  const site = await stripeSite();
  const response = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "locale=en&acceptTerms=yes",
  });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toStartWith("https://checkout.stripe.com/c/pay/");
});

test("an unknown locale is refused with 400 and Stripe is not called", async () => {
  const site = await stripeSite();
  const response = await pay(site, { locale: "de" });
  expect(response.status).toBe(400);
  expect((await response.json()).error).toContain("locale");
  expect(fake.requests).toHaveLength(0);
});

test("a Stripe error answers 502 with a message and logs Stripe's request id", async () => {
  const site = await stripeSite();
  fake.mode = { kind: "error", status: 400, type: "invalid_request_error", message: "Invalid currency: zzz" };
  const response = await pay(site, { locale: "fr" });
  expect(response.status).toBe(502);
  expect((await response.json()).error).toMatch(/payment provider/i);
  const line = site.logs.find((l) => l.includes("checkout creation failed"));
  expect(line).toMatch(/"requestId":"req_fake\d+"/);
  expect(line).toContain("Invalid currency");
  expect(site.db.select().from(orders).all()).toHaveLength(0);
});

test("a Stripe error after a form post goes back to the payment page in the visitor's language", async () => {
  const site = await stripeSite();
  fake.mode = { kind: "error", status: 500, type: "api_error", message: "Something went wrong" };
  const response = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "locale=it&acceptTerms=yes",
  });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/it/paiement?error=provider");
  const page = await site.request("/it/paiement?error=provider");
  expect(await page.text()).toContain('role="alert"');
});

test("Stripe not answering in time is a 502, not a hung request", async () => {
  const site = await stripeSite();
  fake.mode = { kind: "hang" };
  const response = await pay(site, { locale: "en" });
  expect(response.status).toBe(502);
  expect(site.logs.some((l) => l.includes("checkout creation failed"))).toBe(true);
});

test("a session without URL is a provider failure", async () => {
  const site = await stripeSite();
  fake.mode = { kind: "no-url" };
  const response = await pay(site, { locale: "en" });
  expect(response.status).toBe(502);
  expect(site.logs.find((l) => l.includes("checkout creation failed"))).toMatch(/no checkout URL.*requestId|requestId.*no checkout URL/);
});

test("too many payment attempts from one client are refused with 429", async () => {
  const site = await stripeSite();
  let last = 0;
  for (let i = 0; i < 21; i += 1) last = (await pay(site, { locale: "fr" })).status;
  expect(last).toBe(429);
});
