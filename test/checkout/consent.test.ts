import { afterEach, expect, test } from "bun:test";
import { mailOutbox, orders, testCheckoutSessions } from "../../db/schema";
import { composeMail } from "../../server/shop/mail/compose";
import { TERMS_VERSION } from "../../shared/legal";
import { createTestSite, type TestSite } from "../support/app";

// Consent at checkout: no checkout (and no pending order) without the box ticked, with
// and without JavaScript; with it, the order records when and which terms; the card page does not
// ask again but says what was accepted, and a checkout without a recorded consent is
// never paid; the access e-mail confirms the consent on a durable medium.

let site: TestSite;
afterEach(() => site?.close());

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };
const NOW = new Date("2026-11-22T10:15:00Z");
const card = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    email: "ana@example.com",
    name: "Ana Lopez",
    city: "Lyon",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
    ...extra,
  }).toString();

test("the pay button's request without the consent is refused with 422; nothing is created", async () => {
  site = await createTestSite();
  for (const body of [{ locale: "en" }, { locale: "en", acceptTerms: false }]) {
    const response = await site.request("/api/payment", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "consent-required" });
  }
  // Not a yes in disguise: anything but true or "yes" is a bad request.
  const odd = await site.request("/api/payment", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ locale: "en", acceptTerms: "on" }),
  });
  expect(odd.status).toBe(400);
  expect(site.db.select().from(orders).all()).toHaveLength(0);
  expect(site.db.select().from(testCheckoutSessions).all()).toHaveLength(0);
});

test("without JavaScript, a post without the box goes back to the payment page, which says why next to the box", async () => {
  site = await createTestSite();
  const response = await site.request("/api/payment", { method: "POST", headers: FORM, body: "locale=es" });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/es/paiement?error=consent");
  expect(site.db.select().from(orders).all()).toHaveLength(0);

  const html = await (await site.request("/es/paiement?error=consent")).text();
  const box = /<input[^>]*id="accept-terms"[^>]*>/.exec(html)?.[0] ?? "";
  expect(box).toContain('aria-invalid="true"');
  expect(box).toContain('aria-describedby="accept-terms-error"');
  expect(box).not.toContain("checked");
  expect(html).toContain('id="accept-terms-error"');
  expect(html).toContain("Para pagar, marca la casilla: aceptas las condiciones generales de venta y solicitas el acceso inmediato.");
  // The box's label links to the terms of sale in the page's language.
  expect(html).toMatch(
    /<label for="accept-terms"[^>]*>Acepto las <a href="\/es\/cgv">condiciones generales de venta<\/a> y solicito el acceso inmediato/,
  );

  // A company's details typed before forgetting the box come back with the page, the box still unticked.
  const company = await site.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: "locale=es&company=Garcia+Medios+SL&companyAddress=Calle+Mayor+3&companyCountry=ES&vatNumber=ESB58378431",
  });
  expect(company.headers.get("location")).toBe(
    "/es/paiement?error=consent&company=Garcia+Medios+SL&companyAddress=Calle+Mayor+3&companyCountry=ES&vatNumber=ESB58378431",
  );
  const again = await (await site.request(company.headers.get("location") ?? "")).text();
  expect(again).toMatch(/id="business-company"[^>]*value="Garcia Medios SL"/);
  expect(again).toContain("Para pagar, marca la casilla");
  expect(/<input[^>]*id="accept-terms"[^>]*>/.exec(again)?.[0] ?? "").not.toContain("checked");
  expect(site.db.select().from(orders).all()).toHaveLength(0);
});

test("the payment page's box is never ticked in advance and names the waiver of the withdrawal right", async () => {
  site = await createTestSite();
  const html = await (await site.request("/en/paiement")).text();
  const box = /<input[^>]*id="accept-terms"[^>]*>/.exec(html)?.[0] ?? "";
  expect(box).toContain('type="checkbox"');
  expect(box).toContain('name="acceptTerms"');
  expect(box).toContain('value="yes"');
  expect(box).not.toContain("checked");
  expect(box).not.toContain("aria-invalid");
  expect(html).toContain(
    "I understand that I lose my right of withdrawal once access is delivered; the 7-day money-back guarantee still applies.",
  );
});

test("with the box ticked the pending order records when the consent was given and the terms' version", async () => {
  site = await createTestSite({ now: () => NOW });
  const json = await site.request("/api/payment", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  expect(json.status).toBe(200);
  const form = await site.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  expect(form.status).toBe(303);
  const rows = site.db.select().from(orders).all();
  expect(rows).toHaveLength(2);
  for (const row of rows) expect(row).toMatchObject({ status: "pending", termsAcceptedAt: NOW, termsVersion: TERMS_VERSION });
});

test("the test card page does not ask for the consent again: it says what was accepted, and pays; the access e-mail confirms the consent", async () => {
  site = await createTestSite({ now: () => NOW });
  const start = await site.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  const cardPage = start.headers.get("location") ?? "";
  const html = await (await site.request(cardPage)).text();
  expect(html).not.toContain('type="checkbox"');
  expect(html).toContain('On the previous page you accepted the <a href="/en/cgv">terms of sale</a> and asked for immediate access');
  expect(html).toContain("your right of withdrawal ends once access is delivered; the 7-day money-back guarantee still applies.");

  // Without JavaScript too: the form as a browser sends it, no box in it.
  const paid = await site.request(cardPage, { method: "POST", headers: FORM, body: card() });
  expect(paid.status).toBe(303);
  const order = site.db.select().from(orders).all()[0];
  expect(order).toMatchObject({ status: "paid", termsAcceptedAt: NOW, termsVersion: TERMS_VERSION });

  const access = site.db
    .select()
    .from(mailOutbox)
    .all()
    .find((m) => m.kind === "access");
  if (access === undefined) throw new Error("no access e-mail queued");
  const mail = await composeMail(access, site.config, site.content.current());
  expect(mail?.text).toContain("Before paying you accepted the terms of sale (version of 28 November 2026)");
  expect(mail?.text).toContain("acknowledging that you lose your right of withdrawal once access is delivered");
});

test("a test checkout without a consent recorded for it (its order could not be written) is never paid: its page sends the buyer back to the payment page", async () => {
  site = await createTestSite({ now: () => NOW });
  // The provider's half of a start whose pending order (with the consent) was never recorded.
  const checkout = site.checkout.testCheckout;
  if (checkout === null) throw new Error("no test checkout");
  const created = await checkout.createCheckout({
    locale: "es",
    amount: 2999,
    currency: "EUR",
    successPath: "/es/payment-success",
    cancelPath: "/es/payment-canceled",
    consent: { acceptedAt: NOW, termsVersion: TERMS_VERSION },
  });
  expect(site.db.select().from(orders).all()).toEqual([]);

  const shown = await site.request(created.url);
  expect(shown.status).toBe(200);
  const html = await shown.text();
  expect(html).toContain(
    "Este pago no se inició desde la página de pago, donde aceptas las condiciones generales de venta, así que no se puede pagar.",
  );
  expect(html).toContain('href="/es/paiement"');
  expect(html).not.toContain('name="card"');

  const refused = await site.request(created.url, { method: "POST", headers: FORM, body: card() });
  expect(refused.status).toBe(409);
  expect(await refused.text()).toContain("Este pago no se inició desde la página de pago");
  expect(site.db.select().from(testCheckoutSessions).all()[0]).toMatchObject({
    status: "open",
    paymentStatus: "unpaid",
    customerEmail: null,
  });
  expect(site.db.select().from(orders).all()).toEqual([]);
  expect(site.db.select().from(mailOutbox).all()).toEqual([]);
});
