import { afterEach, expect, test } from "bun:test";
import { orders, processedEvents, testCheckoutSessions } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";
import { plainSpaces } from "../support/text";

// The built-in test checkout through app.handle: the page, the card checks, decline, cancel,
// expiry, and fulfilment that runs once.

let site: TestSite;
afterEach(() => site?.close());

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const card = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    email: "Jean@Example.com",
    name: "Jean Martin",
    city: "Lyon",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
    ...overrides,
  }).toString();
const h1Of = (html: string) => plainSpaces(/<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1]);

async function startCheckout(locale = "fr", now?: () => Date) {
  site = await createTestSite(now ? { now } : {});
  const response = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale, acceptTerms: true }),
  });
  expect(response.status).toBe(200);
  const { url }: { url: string } = await response.json();
  expect(url).toMatch(/^\/checkout\/test\/cs_test_[A-Za-z0-9]+$/);
  return url;
}

test("without Stripe keys, paying opens the test checkout page in the visitor's language, marked TEST MODE", async () => {
  const url = await startCheckout("en");
  const response = await site.request(url);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('<html lang="en"');
  expect(html).toContain("TEST MODE");
  expect(html).toContain("€29.99");
  expect(html).toContain(`action="${url}"`);
  expect(html).toContain('href="/en/payment-canceled"');
  expect(site.db.select().from(orders).all()[0]).toMatchObject({ provider: "test", status: "pending", locale: "en" });
});

test("the form post without JavaScript also lands on the test checkout", async () => {
  site = await createTestSite();
  const response = await site.request("/api/payment", { method: "POST", headers: FORM, body: "locale=es&acceptTerms=yes" });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toMatch(/^\/checkout\/test\/cs_test_/);
});

test("card 4242 pays: one paid order with first name and city, then the success page thanks the buyer", async () => {
  const url = await startCheckout("fr");
  const response = await site.request(url, { method: "POST", headers: FORM, body: card() });
  expect(response.status).toBe(303);
  const location = response.headers.get("location")!;
  const id = url.split("/").at(-1)!;
  expect(location).toBe(`/payment-success?session_id=${id}`);
  const [order] = site.db.select().from(orders).all();
  expect(order).toMatchObject({
    provider: "test",
    checkoutId: id,
    status: "paid",
    customerEmail: "jean@example.com",
    firstName: "Jean",
    city: "Lyon",
    amount: 2999,
    currency: "EUR",
  });
  expect(order!.paidAt).toBeInstanceOf(Date);
  const success = await (await site.request(location)).text();
  expect(h1Of(success)).toBe("Paiement réussi — Merci !");
  expect(success).toContain("jean@example.com");
});

test("submitting the pay form twice (also at the same moment) runs fulfilment once", async () => {
  const url = await startCheckout();
  const responses = await Promise.all([
    site.request(url, { method: "POST", headers: FORM, body: card() }),
    site.request(url, { method: "POST", headers: FORM, body: card() }),
  ]);
  const again = await site.request(url, { method: "POST", headers: FORM, body: card({ name: "Someone Else" }) });
  for (const r of [...responses, again]) {
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toStartWith("/payment-success?session_id=");
  }
  expect(site.db.select().from(orders).all()).toHaveLength(1);
  expect(site.db.select().from(orders).all()[0]!.firstName).toBe("Jean");
  expect(site.db.select().from(processedEvents).all()).toHaveLength(1);
  // The page now says it is paid instead of offering the form again.
  const page = await (await site.request(url)).text();
  expect(page).toContain("Cette commande est déjà payée.");
  expect(page).not.toContain('name="card"');
});

test("card 4000 0000 0000 0002 is declined with a clear message and the order stays pending", async () => {
  const url = await startCheckout("en");
  const response = await site.request(url, { method: "POST", headers: FORM, body: card({ card: "4000 0000 0000 0002" }) });
  expect(response.status).toBe(402);
  const html = await response.text();
  expect(html).toContain("Your card was declined. Please use another card.");
  // What the visitor typed is kept, except the card number.
  expect(html).toContain('value="Jean Martin"');
  expect(html).not.toContain('4000 0000 0000 0002"');
  expect(site.db.select().from(orders).all()[0]!.status).toBe("pending");
  // Another card then pays.
  expect((await site.request(url, { method: "POST", headers: FORM, body: card() })).status).toBe(303);
  expect(site.db.select().from(orders).all()[0]!.status).toBe("paid");
});

test("a wrong card number, a past expiry and a bad CVC are shown next to their fields", async () => {
  const url = await startCheckout("fr");
  const response = await site.request(url, {
    method: "POST",
    headers: FORM,
    body: card({ card: "4242 4242 4242 4241", expiry: "01/20", cvc: "1" }),
  });
  expect(response.status).toBe(422);
  const html = await response.text();
  expect(html).toContain("Ce numéro de carte n&#x27;est pas valide.");
  expect(html).toContain("Cette date d&#x27;expiration n&#x27;est pas valide ou est dépassée.");
  expect(html).toContain("Ce code de sécurité n&#x27;est pas valide.");
  expect(html).toContain('aria-invalid="true"');
  expect(site.db.select().from(orders).all()[0]!.status).toBe("pending");
});

test("without JavaScript the answer with problems puts the focus on the first wrong field (autofocus)", async () => {
  const url = await startCheckout("fr");
  const fresh = await (await site.request(url)).text();
  expect(fresh).not.toMatch(/<input[^>]*autofocus/);
  // The format is given by the French label (MM/AA), not by an English placeholder.
  expect(fresh).toContain("Expiration (MM/AA)");
  expect(fresh).not.toContain("MM/YY");
  const html = await (
    await site.request(url, { method: "POST", headers: FORM, body: card({ card: "4242 4242 4242 4241", cvc: "1" }) })
  ).text();
  const focused = html.match(/<input[^>]*autofocus[^>]*>/g) ?? [];
  expect(focused).toHaveLength(1);
  expect(focused[0]).toContain('name="card"');
  const declined = await (await site.request(url, { method: "POST", headers: FORM, body: card({ card: "4000 0000 0000 0002" }) })).text();
  expect((declined.match(/<input[^>]*autofocus[^>]*>/g) ?? []).map((tag) => /name="(\w+)"/.exec(tag)?.[1])).toEqual(["card"]);
});

test("cancel goes to the cancelled page in the visitor's language, which offers to retry", async () => {
  const url = await startCheckout("it");
  const html = await (await site.request(url)).text();
  const cancel = /<p class="test-checkout__cancel"><a href="([^"]+)"/.exec(html)?.[1];
  expect(cancel).toBe("/it/payment-canceled");
  const canceled = await (await site.request(cancel!)).text();
  expect(canceled).toContain('href="/it/paiement"');
});

test("a checkout left open past its time expires: the page says so and the order is expired", async () => {
  let clock = new Date("2026-03-01T10:00:00Z");
  const url = await startCheckout("fr", () => clock);
  clock = new Date("2026-03-01T12:00:00Z");
  const response = await site.request(url);
  expect(response.status).toBe(410);
  expect(await response.text()).toContain("Cette session de paiement a expiré.");
  expect((await site.request(url, { method: "POST", headers: FORM, body: card() })).status).toBe(410);
  expect(site.db.select().from(orders).all()[0]!.status).toBe("expired");
  expect(site.db.select().from(testCheckoutSessions).all()[0]!.status).toBe("expired");
});

test("unknown or malformed test checkout ids are the 404 page", async () => {
  site = await createTestSite();
  expect((await site.request("/checkout/test/cs_test_nothing")).status).toBe(404);
  expect((await site.request("/checkout/test/../../etc")).status).toBe(404);
  expect((await site.request("/checkout/test/cs_test_nothing", { method: "POST", headers: FORM, body: card() })).status).toBe(404);
  // An id of no checkout's form is the same page, read or posted to, never a refusal in JSON.
  for (const method of ["GET", "POST"]) {
    const page = await site.request("/checkout/test/cs_live_x-y", method === "GET" ? {} : { method, headers: FORM, body: card() });
    expect({ method, status: page.status, type: page.headers.get("content-type") }).toEqual({
      method,
      status: 404,
      type: expect.stringContaining("text/html"),
    });
  }
});

test("the card form takes only a browser's form, of a card form's size: 415 and 413 pay nothing", async () => {
  const url = await startCheckout("en");
  const json = await site.request(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const huge = await site.request(url, { method: "POST", headers: FORM, body: `${card()}&name=${"a".repeat(9 * 1024)}` });
  expect([json.status, huge.status]).toEqual([415, 413]);
  expect(
    site.db
      .select()
      .from(orders)
      .all()
      .map((order) => order.status),
  ).toEqual(["pending"]);
  expect((await site.request(url, { method: "POST", headers: FORM, body: card() })).status).toBe(303);
});

test("in Stripe mode the test checkout does not exist", async () => {
  site = await createTestSite({ env: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" } });
  expect((await site.request("/checkout/test/cs_test_abc")).status).toBe(404);
});
