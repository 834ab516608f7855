import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { checkoutSession, event, STRIPE_TEST_SITE, signed } from "../checkout/stripe-events";
import { createTestSite, type TestSite } from "../support/app";
import { pdfText } from "./pdf-text";

// Stripe Checkout: the billing address's country (customer_details) and the card's country (the
// payment's charge, asked of Stripe through the SDK against a fake Stripe on loopback) are stored on
// the order, and the OSS invoice takes the billing country's VAT.

let fake: FakeStripe;
let site: TestSite | undefined;
beforeAll(() => {
  fake = startFakeStripe();
});
afterAll(() => fake.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const SECRET = "whsec_country";

test("a Stripe payment stores the billing country and the card's country; the OSS invoice carries the billing country's VAT", async () => {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_country", STRIPE_WEBHOOK_SECRET: SECRET, VAT_SCHEME: "oss", PUBLIC_BASE_URL: STRIPE_TEST_SITE },
    stripeConnection: fake.connection,
  });
  const session = checkoutSession({ id: "cs_test_country", payment_intent: "pi_country" });
  session.customer_details.address.country = "DE";
  fake.paymentIntents.set("pi_country", {
    id: "pi_country",
    object: "payment_intent",
    latest_charge: { id: "ch_country", object: "charge", payment_method_details: { type: "card", card: { country: "AT" } } },
  });
  const payload = JSON.stringify(event("checkout.session.completed", session));
  const answer = await site.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, SECRET) },
    body: payload,
  });
  expect(answer.status).toBe(200);
  const order = site.db.select().from(orders).where(eq(orders.checkoutId, "cs_test_country")).get();
  expect(order).toMatchObject({ status: "paid", billingCountry: "DE", cardCountry: "AT", billingName: "Marie Dupont" });
  // The SDK asked for the charge expanded.
  expect(fake.requests.some((r) => r.path === "/v1/payment_intents/pi_country")).toBe(true);
  const invoice = site.db.select().from(invoices).where(eq(invoices.orderId, order!.id)).get();
  expect(invoice).toMatchObject({ vatCountry: "DE", vatRate: 1900, vatAmount: 479 });

  // The owner's CLI: the VAT return's CSV, and the invoice PDF by the order's reference.
  const csv: string[] = [];
  expect(
    await runCommand(
      ["vat", "export"],
      site.config,
      (l) => csv.push(l),
      (l) => csv.push(l),
    ),
  ).toBe(0);
  const quarter = `${invoice!.year}-Q${Math.floor(invoice!.issuedAt.getUTCMonth() / 3) + 1}`;
  expect(csv.join("")).toContain(`${quarter},oss,DE,19.00,1,0,25.20,4.79,29.99,EUR`);
  const path = join(site.dataDir, "invoice.pdf");
  expect(
    await runCommand(
      ["orders", "invoice", order!.reference, path],
      site.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  expect(pdfText(readFileSync(path))).toContain(invoice!.number);
  expect(
    await runCommand(
      ["orders", "invoice", "AAAA-BBBB-CCCC", path],
      site.config,
      () => {},
      () => {},
    ),
  ).toBe(1);
});
