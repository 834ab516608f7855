import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { orders, paymentAttempts } from "../../db/schema";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { event, STRIPE_TEST_SITE, signed } from "../checkout/stripe-events";
import { createTestSite, type TestSite } from "../support/app";

// A card declined on Stripe's page: Stripe reports it by payment_intent.payment_failed, which names
// the payment; the site finds its checkout at Stripe (real SDK, fake Stripe on loopback).

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

test("Stripe's payment_intent.payment_failed: the declined attempt is kept with its order and Stripe's reason, once; another product's is acknowledged and ignored", async () => {
  const secret = "whsec_failed";
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_failed", STRIPE_WEBHOOK_SECRET: secret, PUBLIC_BASE_URL: STRIPE_TEST_SITE },
    stripeConnection: fake.connection,
  });
  const s = site;
  const started = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true }),
  });
  expect(started.status).toBe(200);
  const order = s.db.select().from(orders).get()!;
  const session = fake.sessions.get(order.checkoutId)!;
  session.payment_intent = "pi_declined_1";
  const failed = (intent: string) =>
    event("payment_intent.payment_failed", {
      id: intent,
      object: "payment_intent",
      receipt_email: null,
      last_payment_error: {
        code: "card_declined",
        decline_code: "insufficient_funds",
        message: "Your card has insufficient funds.",
        payment_method: { billing_details: { email: "jo@example.com" } },
      },
    });
  const deliver = async (payload: string) =>
    s.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
      body: payload,
    });
  const payload = JSON.stringify(failed("pi_declined_1"));
  expect((await deliver(payload)).status).toBe(200);
  // Stripe delivers again: kept once.
  expect(await (await deliver(payload)).json()).toEqual({ received: true, duplicate: true });
  expect(s.db.select().from(paymentAttempts).all()).toMatchObject([
    {
      checkoutId: order.checkoutId,
      provider: "stripe",
      outcome: "declined",
      reason: "card_declined (insufficient_funds): Your card has insufficient funds.",
      email: "jo@example.com",
    },
  ]);
  // A payment of no checkout of this site: acknowledged, nothing kept.
  expect((await deliver(JSON.stringify(failed("pi_elsewhere")))).status).toBe(200);
  expect(s.db.select().from(paymentAttempts).all()).toHaveLength(1);
  expect(s.db.select().from(orders).get()?.status).toBe("pending");
});
