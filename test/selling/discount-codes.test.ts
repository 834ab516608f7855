import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { invoices, licenses, mailOutbox, orders } from "../../db/schema";
import { audienceReport } from "../../server/owner/console/audience";
import { salesBetween, vatCharged } from "../../server/owner/console/overview";
import { CodeRefusedError, createCheckoutSession } from "../../server/shop/checkout/service";
import { checkCode, listCodes } from "../../server/shop/codes/service";
import { TERMS_VERSION } from "../../shared/legal";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { ownerCookie } from "../console/owner";
import { pdfText } from "../paperwork/pdf-text";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// Discount codes, created with the CLI, applied on the payment page's form (no JavaScript) and by
// the pay button's JSON: the card page, the order, the invoice and the credit note agree on the
// reduced amount; a wrong, expired or used-up code changes nothing; a limit holds under concurrency.

let site: TestSite | undefined;
let fake: FakeStripe;
beforeAll(() => {
  fake = startFakeStripe();
});
afterAll(() => fake.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

const startWithCode = (s: TestSite, code: string, locale = "en") =>
  s.request("/api/payment", { method: "POST", headers: FORM, body: new URLSearchParams({ locale, acceptTerms: "yes", code }).toString() });

async function payCard(s: TestSite, cardPage: string, email: string) {
  const body = new URLSearchParams({
    email,
    name: "Jo Martin",
    city: "Lyon",
    country: "FR",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  }).toString();
  const paid = await s.request(cardPage, { method: "POST", headers: FORM, body });
  expect(paid.status).toBe(303);
  return s.db.select().from(orders).where(eq(orders.customerEmail, email)).get()!;
}

const flat = (pdf: Buffer) => pdfText(pdf).replace(/\s+/g, " ");

test("a 20 % code: the card page asks the reduced amount; the invoice shows the list price, the reduction and its code, VAT on what was paid; the refund and credit note are for what was paid", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "codes", "create", "spring20", "--percent", "20", "--note", "newsletter")).code).toBe(0);
  const start = await startWithCode(s, " Spring20 ");
  expect(start.status).toBe(303);
  const cardPage = start.headers.get("location") ?? "";
  expect(await (await s.request(cardPage)).text()).toContain("€23.99");
  const order = await payCard(s, cardPage, "jo@example.com");
  expect(order).toMatchObject({ status: "paid", amount: 2399, listAmount: 2999, discountCode: "SPRING20", discountAmount: 600 });
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
  expect(invoice).toMatchObject({
    totalAmount: 2399,
    netAmount: 1999,
    vatAmount: 400,
    listAmount: 2999,
    discountAmount: 600,
    discountCode: "SPRING20",
  });
  const path = join(s.dataDir, "invoice.pdf");
  expect((await cli(s, "orders", "invoice", order.reference, path)).code).toBe(0);
  const text = flat(readFileSync(path));
  // The list price and the reduction include VAT, as the price the buyer saw: said, as they sit under the "Price excl. VAT" column.
  expect(text).toContain("List price incl. VAT €29.99");
  expect(text).toContain("Discount incl. VAT (code SPRING20) -€6.00");
  expect(text).toContain("Total excl. VAT €19.99");
  expect(text).toContain("VAT 20% (FR) €4.00");
  expect(text).toContain("Total incl. VAT €23.99");

  expect((await cli(s, "orders", "refund", String(order.id))).code).toBe(0);
  const note = s.db.select().from(invoices).where(eq(invoices.kind, "credit-note")).get()!;
  expect(note).toMatchObject({ totalAmount: 2399, vatAmount: 400, discountCode: "SPRING20" });
  const listed = await cli(s, "codes", "list");
  expect(listed.said).toMatch(/SPRING20\t20 %\talways\t1\t0\t0\.00 EUR\tactive\tnewsletter/);
});

test("an amount code takes 5 € off; an unknown, expired, not yet valid or used-up code is refused with its reason and starts nothing", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "FIVE", "--amount", "5", "--max", "1")).code).toBe(0);
  expect((await cli(s, "codes", "create", "OLD", "--percent", "10", "--ends", "2020-01-31")).code).toBe(0);
  expect((await cli(s, "codes", "create", "LATER", "--percent", "10", "--starts", "2099-01-01")).code).toBe(0);
  // The owner's mistakes are refused with what to change.
  expect(await cli(s, "codes", "create", "BAD", "--percent", "120")).toEqual({
    code: 1,
    said: "A percentage goes up to 100 (100 gives free access).\n",
  });
  expect((await cli(s, "codes", "create", "FIVE", "--percent", "5")).code).toBe(1);

  const five = await startWithCode(s, "five");
  const order = await payCard(s, five.headers.get("location") ?? "", "ana@example.com");
  expect(order).toMatchObject({ amount: 2499, discountAmount: 500 });

  const before = s.db.select().from(orders).all().length;
  for (const [code, reason] of [
    ["NOPE", "unknown"],
    ["OLD", "expired"],
    ["LATER", "not-started"],
    ["FIVE", "used-up"],
  ] as const) {
    const form = await startWithCode(s, code, "fr");
    expect({ code, status: form.status, location: form.headers.get("location") }).toEqual({
      code,
      status: 303,
      location: `/paiement?error=code-${reason}`,
    });
    const json = await s.request("/api/payment", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locale: "en", acceptTerms: true, code }),
    });
    expect(json.status).toBe(422);
    expect((await json.json()).code).toBe(`code-${reason}`);
  }
  expect(s.db.select().from(orders).all().length).toBe(before);
  // The payment page says why, in its language.
  const page = await (await s.request("/paiement?error=code-expired")).text();
  expect(page).toContain("Ce code de réduction a expiré.");
  const en = await (await s.request("/en/paiement?error=code-used-up")).text();
  expect(en).toContain("This discount code has been used as many times as allowed");
});

test("200 concurrent buyers of a code limited to 50: 50 checkouts at the reduced price, the others told it ran out before paying", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "FIFTY", "--percent", "50", "--max", "50")).code).toBe(0);
  const consent = { acceptedAt: new Date(), termsVersion: TERMS_VERSION };
  const deps = { content: s.content, write: s.write, db: s.db, now: () => new Date() };
  const outcomes = await Promise.all(
    Array.from({ length: 200 }, () =>
      createCheckoutSession(deps, s.checkout, "en", consent, "FIFTY").then(
        () => "started",
        (error) => (error instanceof CodeRefusedError ? error.reason : String(error)),
      ),
    ),
  );
  expect(outcomes.filter((o) => o === "started")).toHaveLength(50);
  expect(outcomes.filter((o) => o === "used-up")).toHaveLength(150);
  const held = s.db.select().from(orders).where(eq(orders.discountCode, "FIFTY")).all();
  expect(held).toHaveLength(50);
  expect(held.every((o) => o.amount === 1499 && o.status === "pending" && o.checkoutId.startsWith("cs_test_"))).toBe(true);
});

test("Stripe Checkout is created for the reduced amount, the code named on the session (real SDK, fake Stripe on loopback)", async () => {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_codes", STRIPE_WEBHOOK_SECRET: "whsec_codes", PUBLIC_BASE_URL: "https://shop.example" },
    stripeConnection: fake.connection,
  });
  const s = site;
  expect((await cli(s, "codes", "create", "PRESS30", "--percent", "30")).code).toBe(0);
  fake.requests.length = 0;
  const answer = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true, code: "press30" }),
  });
  expect(answer.status).toBe(200);
  const sent = fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
  expect(sent.body.get("line_items[0][price_data][unit_amount]")).toBe("2099");
  expect(sent.body.get("metadata[discount_code]")).toBe("PRESS30");
  expect(sent.body.get("allow_promotion_codes")).toBeNull();
  expect(Number(sent.body.get("expires_at"))).toBeGreaterThan(Date.now() / 1000);
  const order = s.db.select().from(orders).get()!;
  expect(order).toMatchObject({ provider: "stripe", status: "pending", amount: 2099, listAmount: 2999, discountCode: "PRESS30" });
  // No code, no capability in the log: the checkout id is masked.
  expect(s.logs.join("\n")).not.toContain(order.checkoutId);
});

const claimForm = (email: string) => new URLSearchParams({ email, name: "Camille Press", city: "Paris", country: "FR" }).toString();

test("a 100 % code gives free access without a payment provider: a page with no card, an order at 0, a licence, the access e-mail, an invoice at 0 in the TEST series; used once, then refused", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "codes", "create", "PRESS", "--percent", "100", "--max", "1")).code).toBe(0);
  const start = await startWithCode(s, "press");
  expect(start.status).toBe(303);
  const claimPage = start.headers.get("location") ?? "";
  expect(claimPage).toMatch(/^\/checkout\/test\/cs_free_test_[A-Za-z0-9]+$/);
  const page = await (await s.request(claimPage)).text();
  expect(page).toContain("Your free access");
  expect(page).toContain(`data-testid="checkout-amount">€0</p>`);
  expect(page).not.toContain('name="card"');
  // A claim without a valid address is refused and completes nothing.
  const bad = await s.request(claimPage, { method: "POST", headers: FORM, body: claimForm("not-an-address") });
  expect(bad.status).toBe(422);
  expect(s.db.select().from(orders).get()).toMatchObject({ provider: "free", status: "pending", amount: 0 });

  const claimed = await s.request(claimPage, { method: "POST", headers: FORM, body: claimForm("press@example.com") });
  expect(claimed.status).toBe(303);
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "press@example.com")).get()!;
  expect(order).toMatchObject({
    provider: "free",
    status: "paid",
    amount: 0,
    listAmount: 2999,
    discountAmount: 2999,
    discountCode: "PRESS",
  });
  expect(s.db.select().from(licenses).where(eq(licenses.orderId, order.id)).get()?.status).toBe("active");
  expect(
    s.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, "press@example.com"))
      .all()
      .map((m) => m.kind),
  ).toContain("access");
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
  expect(invoice).toMatchObject({ series: "TEST", totalAmount: 0, vatAmount: 0, discountAmount: 2999, discountCode: "PRESS" });
  const path = join(s.dataDir, "free.pdf");
  expect((await cli(s, "orders", "invoice", order.reference, path)).code).toBe(0);
  const text = flat(readFileSync(path));
  // The list price and the reduction include VAT, as on any invoice that charges VAT (here 0 € of it).
  expect(text).toContain("List price incl. VAT €29.99");
  expect(text).toContain("Discount incl. VAT (code PRESS) -€29.99");
  expect(text).toContain("Total incl. VAT €0.00");
  expect(text).toContain("100 % discount code");

  // A second post of the form (back button) changes nothing; the code is used up for the next buyer.
  expect((await s.request(claimPage, { method: "POST", headers: FORM, body: claimForm("other@example.com") })).status).toBe(303);
  expect(s.db.select().from(orders).where(eq(orders.customerEmail, "other@example.com")).get()).toBeUndefined();
  const again = await startWithCode(s, "PRESS");
  expect(again.headers.get("location")).toBe("/en/paiement?error=code-used-up");
  expect(s.db.select().from(orders).all()).toHaveLength(1);
  expect(s.logs.join("\n")).not.toContain(claimPage.split("/").at(-1));
});

test("free access claimed under the test checkout is no sale on a production overview, as the test checkout's paid orders are not", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "codes", "create", "PRESS", "--percent", "100")).code).toBe(0);
  const claimPage = (await startWithCode(s, "press")).headers.get("location") ?? "";
  expect((await s.request(claimPage, { method: "POST", headers: FORM, body: claimForm("press@example.com") })).status).toBe(303);
  const paid = await payCard(s, (await startWithCode(s, "")).headers.get("location") ?? "", "card@example.com");
  expect(paid).toMatchObject({ provider: "test", status: "paid" });
  // Outside production both count (the owner is trying the shop out); in production neither does.
  expect(salesBetween(s.db, null, null, true).paidOrders).toBe(2);
  expect(vatCharged(s.db, true).reduce((n, r) => n + r.invoices, 0)).toBe(2);
  expect(salesBetween(s.db, null, null, false)).toMatchObject({ paidOrders: 0, gross: 0 });
  expect(vatCharged(s.db, false)).toEqual([]);
});

test("in production a code's paid orders and revenue, and the audience's revenue by source, leave test-checkout orders out; their uses count only for the test checkout", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "codes", "create", "PRESS", "--percent", "100")).code).toBe(0);
  expect((await cli(s, "codes", "create", "DIX", "--percent", "10")).code).toBe(0);
  const claimPage = (await startWithCode(s, "press")).headers.get("location") ?? "";
  expect((await s.request(claimPage, { method: "POST", headers: FORM, body: claimForm("press@example.com") })).status).toBe(303);
  const paid = await payCard(s, (await startWithCode(s, "dix")).headers.get("location") ?? "", "card@example.com");
  expect(paid).toMatchObject({ provider: "test", status: "paid", amount: 2699 });
  const figures = (testOrders: boolean, testMode = true) =>
    listCodes(s.db, new Date(), testOrders, testMode).map((c) => ({ code: c.code, uses: c.uses, orders: c.orders, revenue: c.revenue }));
  // Outside production the owner is trying the shop out: both count.
  expect(figures(true)).toEqual([
    { code: "DIX", uses: 1, orders: 1, revenue: 2699 },
    { code: "PRESS", uses: 1, orders: 1, revenue: 0 },
  ]);
  // In production with the test checkout: the test orders are its uses, not paid orders.
  expect(figures(false)).toEqual([
    { code: "DIX", uses: 1, orders: 0, revenue: 0 },
    { code: "PRESS", uses: 1, orders: 0, revenue: 0 },
  ]);
  // Once payments are live, real buyers find the codes' uses untouched.
  expect(figures(false, false)).toEqual([
    { code: "DIX", uses: 0, orders: 0, revenue: 0 },
    { code: "PRESS", uses: 0, orders: 0, revenue: 0 },
  ]);
  // Both checkouts came from a partner's blog (the roll-up writes the source on the visit).
  const day = new Date().toISOString().slice(0, 10);
  for (const o of s.db.select().from(orders).all())
    s.db.$client.run("INSERT INTO checkout_visits (checkout_id, day, at, visitor, source, locale) VALUES (?, ?, ?, 'v', 'blog', 'en')", [
      o.checkoutId,
      day,
      Date.now(),
    ]);
  const bySource = (testOrders: boolean) =>
    audienceReport(s.db, new Date(), "EUR", s.config.analyticsMaxEventsPerDay, testOrders).revenueBySource;
  expect(bySource(true).reduce((n, r) => n + r.revenue, 0)).toBe(2699);
  expect(bySource(false)).toEqual([]);
});

test("in Stripe mode a 100 % code never reaches Stripe and its invoice at 0 takes the legal sequence", async () => {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_codes", STRIPE_WEBHOOK_SECRET: "whsec_codes", PUBLIC_BASE_URL: "https://shop.example" },
    stripeConnection: fake.connection,
  });
  const s = site;
  expect((await cli(s, "codes", "create", "PARTNER", "--amount", "50")).code).toBe(0);
  fake.requests.length = 0;
  const answer = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true, code: "partner" }),
  });
  expect(answer.status).toBe(200);
  const { url } = (await answer.json()) as { url: string };
  expect(url).toMatch(/^\/checkout\/test\/cs_free_[A-Za-z0-9]+$/);
  const page = await (await s.request(url)).text();
  expect(page).toContain("Votre accès offert");
  expect(page).not.toContain('data-testid="test-mode"');
  // Its title says what is true: free access, not a test.
  expect(page).toContain("<title>Accès offert — Lifetime Stream</title>");
  // Nothing is paid: the consent recalled there promises no money-back guarantee.
  const consentGiven = /data-testid="consent-given">([\s\S]*?)<\/p>/.exec(page)?.[1] ?? "";
  expect(consentGiven).toContain("votre droit de rétractation prend fin dès que l&#x27;accès vous est fourni.");
  expect(consentGiven).not.toContain("satisfait ou remboursé");
  expect((await s.request(url, { method: "POST", headers: FORM, body: claimForm("presse@example.fr") })).status).toBe(303);
  expect(fake.requests.filter((r) => r.path.startsWith("/v1/checkout"))).toHaveLength(0);
  const order = s.db.select().from(orders).get()!;
  expect(order).toMatchObject({ provider: "free", status: "paid", amount: 0 });
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
  expect(invoice.series).toBe("");
  expect(invoice.number).toBe(`${new Date().getFullYear()}-000001`);
});

test("a limited code used up by the test checkout's orders is still whole for real buyers once payments are live", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "codes", "create", "ONCE", "--percent", "10", "--max", "1")).code).toBe(0);
  await payCard(s, (await startWithCode(s, "once")).headers.get("location") ?? "", "tester@example.com");
  // The test checkout's second try: used up, as a real buyer's would be.
  const again = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true, code: "once" }),
  });
  expect(again.status).toBe(422);
  expect(((await again.json()) as { code: string }).code).toBe("code-used-up");
  // Real sales count apart: the code still applies to them, and shows no use.
  expect(checkCode(s.db, "once", 2999, new Date(), false)).toMatchObject({ ok: true, applied: { amount: 2699 } });
  expect(checkCode(s.db, "once", 2999, new Date(), true)).toEqual({ ok: false, reason: "used-up" });
  expect(listCodes(s.db, new Date(), false, false).map((c) => [c.code, c.uses, c.status])).toEqual([["ONCE", 0, "active"]]);
  // The console marks the test order under the code, as its orders list does.
  const cookie = await ownerCookie(s);
  const page = await (await s.request("/admin/codes", { headers: { cookie, "accept-language": "en" } })).text();
  expect(page).toMatch(/ONCE[\s\S]*test payment/);
});

test("in production with the test checkout the Codes page says its uses are test orders', counted apart from real sales", async () => {
  site = await createTestSite({ env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" } });
  const cookie = await ownerCookie(site);
  const page = await (await site.request("/admin/codes", { headers: { cookie, "accept-language": "en" } })).text();
  expect(page).toContain("The site runs its built-in test checkout: the uses below are test orders&#x27;.");
  await site.close();
  // Outside production every order is a trial: nothing to say apart.
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const dev = await (await site.request("/admin/codes", { headers: { cookie: await ownerCookie(site), "accept-language": "en" } })).text();
  expect(dev).not.toContain('data-testid="codes-test-uses"');
});
