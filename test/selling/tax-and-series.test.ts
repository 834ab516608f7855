import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { checkoutSession, event, STRIPE_TEST_SITE, signed } from "../checkout/stripe-events";
import { ownerCookie } from "../console/owner";
import { pdfText } from "../paperwork/pdf-text";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";

// The right tax outside the EU (a UK consumer is not charged French VAT; with a UK registration,
// UK VAT under the owner's number there), and the test checkout's invoices in their own series.

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

const year = new Date().getFullYear();

async function invoicePdfText(s: TestSite, reference: string): Promise<string> {
  const path = join(s.dataDir, `${reference}.pdf`);
  expect(
    await runCommand(
      ["orders", "invoice", reference, path],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  // Lines wrapped by the layout read as one.
  return pdfText(readFileSync(path)).replace(/\s+/g, " ");
}

async function buyFrom(s: TestSite, country: string, email: string) {
  await payWithTestCard(s, { locale: "en", email, country, name: "Oliver Smith", city: "Leeds" });
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, email)).get();
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order!.id)).get();
  return { order: order!, invoice: invoice! };
}

for (const scheme of ["fr", "oss"] as const) {
  test(`${scheme}: a UK consumer without a UK registration pays the same price and is invoiced no VAT, the rule named`, async () => {
    site = await createTestSite({ env: { VAT_SCHEME: scheme } });
    const { order, invoice } = await buyFrom(site, "GB", "oliver@example.co.uk");
    expect(order.amount).toBe(2999);
    expect(invoice).toMatchObject({
      vatRule: "outside-eu",
      vatCountry: "GB",
      vatRate: 0,
      vatAmount: 0,
      netAmount: 2999,
      totalAmount: 2999,
    });
    const text = await invoicePdfText(site, order.reference);
    expect(text).toContain("No VAT: electronically supplied service to a consumer established outside the European Union");
    expect(text).toContain("art. 259 D");
    expect(text).not.toContain("20%");
    expect(text).toContain("VAT: not applicable");
    expect(text).not.toMatch(/VAT 0%/);
    // A French buyer of the same site still pays French VAT.
    const french = await buyFrom(site, "FR", "camille@example.fr");
    expect(french.invoice).toMatchObject({
      vatRule: scheme === "fr" ? "seller-country" : "eu-consumer",
      vatCountry: "FR",
      vatRate: 2000,
      vatAmount: 500,
    });
  });
}

test("with VAT_REGISTRATIONS=GB:…, a UK consumer pays UK VAT inside the same price, the invoice naming the owner's UK number", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss", VAT_REGISTRATIONS: "GB:GB123456789" } });
  const { order, invoice } = await buyFrom(site, "GB", "oliver@example.co.uk");
  expect(invoice).toMatchObject({ vatRule: "registered", vatCountry: "GB", vatRate: 2000, vatAmount: 500, totalAmount: 2999 });
  expect(invoice.sellerVatNumber).toBe("GB123456789");
  const text = await invoicePdfText(site, order.reference);
  expect(text).toContain("United Kingdom VAT charged under the seller's registration no. GB123456789.");
  // A Swiss consumer (no Swiss registration) is invoiced no VAT.
  const swiss = await buyFrom(site, "CH", "lea@example.ch");
  expect(swiss.invoice).toMatchObject({ vatRule: "outside-eu", vatRate: 0, vatAmount: 0 });
});

test("a consumer's order page in the console names the VAT rule, rate and country and why, in the owner's language", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss" } });
  const s = site;
  const uk = await buyFrom(s, "GB", "oliver@example.co.uk");
  const french = await buyFrom(s, "FR", "camille@example.fr");
  const cookie = await ownerCookie(s);
  const page = async (id: number, language: string) =>
    (await (await s.request(`/admin/orders/${id}`, { headers: { cookie, "accept-language": language } })).text())
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/[\s\u00a0\u202f]+/g, " ");
  expect(await page(uk.order.id, "en")).toContain(
    "VAT rule outside-eu — 0% (United Kingdom) Why A consumer outside the EU (United Kingdom): no VAT; the service is taxed where the consumer lives.",
  );
  expect(await page(french.order.id, "fr")).toContain("eu-consumer — 20 % (France)");
  expect(await page(french.order.id, "fr")).toContain("Motif Un particulier en France : TVA française.");
});

test("a registration for a country the law does not list is refused at start, naming the variable", async () => {
  await expect(createTestSite({ env: { VAT_REGISTRATIONS: "US:123" } })).rejects.toThrow(/VAT_REGISTRATIONS/);
});

test("test-checkout orders are numbered TEST-YYYY-…, and the legal sequence of real payments stays unbroken", async () => {
  const secret = "whsec_series";
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_series", STRIPE_WEBHOOK_SECRET: secret, VAT_SCHEME: "fr", PUBLIC_BASE_URL: STRIPE_TEST_SITE },
    stripeConnection: fake.connection,
  });
  const s = site;
  const stripePaid = async (id: string) => {
    const payload = JSON.stringify(event("checkout.session.completed", checkoutSession({ id, payment_intent: `pi_${id}` })));
    const answer = await s.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
      body: payload,
    });
    expect(answer.status).toBe(200);
  };
  // A test-checkout order is recorded as the test checkout's, as one made on the same data before Stripe keys were set.
  const testOrder = async (n: number) => {
    const { issueInvoice } = await import("../../server/shop/paperwork/numbering");
    await s.write((tx) => {
      const [row] = tx
        .insert(orders)
        .values({
          provider: "test",
          checkoutId: `cs_test_local${n}`,
          status: "paid",
          amount: 2999,
          currency: "EUR",
          locale: "fr",
          createdAt: new Date(),
          updatedAt: new Date(),
          paidAt: new Date(),
        })
        .returning()
        .all();
      issueInvoice(tx, row!.id, { vatScheme: "fr", vatRegistrations: {} }, new Date());
    });
  };
  await stripePaid("cs_test_series1");
  await testOrder(1);
  await testOrder(2);
  await stripePaid("cs_test_series2");
  const numbers = s.db
    .select({ number: invoices.number })
    .from(invoices)
    .orderBy(invoices.id)
    .all()
    .map((r) => r.number);
  expect(numbers).toEqual([`${year}-000001`, `TEST-${year}-000001`, `TEST-${year}-000002`, `${year}-000002`]);
});
