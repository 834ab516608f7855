import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { checkoutSession, event, STRIPE_TEST_SITE, signed } from "../checkout/stripe-events";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";

// `vat export --ereporting`: per day and VAT rate, the totals France's B2C e-reporting asks for
// (amounts excluding VAT, VAT, number of transactions), refunds counted negative on their day.

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

test("two French sales, one to the UK and a refund: one row per day, rule and rate, with counts, net and VAT", async () => {
  const secret = "whsec_ereporting";
  site = await createTestSite({
    env: {
      STRIPE_SECRET_KEY: "sk_test_ereporting",
      STRIPE_WEBHOOK_SECRET: secret,
      VAT_SCHEME: "fr",
      PUBLIC_BASE_URL: STRIPE_TEST_SITE,
      STRIPE_API_BASE: `${fake.connection.protocol}://${fake.connection.host}:${fake.connection.port}`,
    },
    stripeConnection: fake.connection,
  });
  const s = site;
  const paid = async (id: string, country: string) => {
    const session = checkoutSession({ id, payment_intent: `pi_${id}` });
    const details = { ...session.customer_details, address: { ...session.customer_details.address, country } };
    const payload = JSON.stringify(event("checkout.session.completed", { ...session, customer_details: details }));
    const answer = await s.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
      body: payload,
    });
    expect(answer.status).toBe(200);
  };
  await paid("cs_test_er1", "FR");
  await paid("cs_test_er2", "FR");
  await paid("cs_test_er3", "GB");
  // The CLI's refund goes to the fake Stripe through STRIPE_API_BASE, the setting made for this.
  expect((await cli(s, "orders", "refund", "2")).code).toBe(0);

  const { code, said } = await cli(s, "vat", "export", "--ereporting");
  expect(code).toBe(0);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
  const lines = said.trim().split("\r\n");
  expect(lines[0]).toBe("date,category,vat_country,vat_rule,vat_rate_percent,transactions,credit_notes,net_excl_vat,vat,currency");
  // Two sales of 29.99 incl. 20 % VAT, one refunded: 2 transactions, 1 credit note, 24.99 and 5.00 left.
  expect(lines).toContain(`${today},TPS1,FR,seller-country,20.00,2,1,24.99,5.00,EUR`);
  expect(lines).toContain(`${today},TPS1,GB,outside-eu,0.00,1,0,29.99,0.00,EUR`);
  expect(lines).toHaveLength(3);
});
