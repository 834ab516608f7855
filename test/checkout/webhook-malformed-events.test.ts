import { afterEach, expect, test } from "bun:test";
import { orders, processedEvents } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";
import { charge, checkoutSession, event, signed } from "./stripe-events";

// Correctly signed deliveries whose content is not an event this site can apply: each is refused
// with 400 (Stripe shows it as failed and does not retry), never 500 or 503 (retried for days), and
// nothing is recorded. And a signature is only good within five minutes of now, either way.

const SECRET = "whsec_malformed_tests";
let site: TestSite;
afterEach(() => site?.close());

async function stripeSite() {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_malformed", STRIPE_WEBHOOK_SECRET: SECRET, PUBLIC_BASE_URL: "https://shop.example" },
  });
  return site;
}

async function deliverRaw(payload: string, timestamp?: number) {
  const headers = { "content-type": "application/json", "stripe-signature": await signed(payload, SECRET, timestamp) };
  return site.request("/api/stripe/webhook", { method: "POST", headers, body: payload });
}

function without<T extends object, K extends keyof T>(object: T, key: K): Omit<T, K> {
  const { [key]: _omitted, ...rest } = object;
  return rest;
}

const nothingRecorded = () => {
  expect(site.db.select().from(orders).all()).toHaveLength(0);
  expect(site.db.select().from(processedEvents).all()).toHaveLength(0);
};

test("a signed body that is null, a list, a string or not JSON at all is refused with 400", async () => {
  await stripeSite();
  for (const payload of ["null", "[]", '"checkout.session.completed"', "42", "not json"]) {
    const response = await deliverRaw(payload);
    expect({ payload, status: response.status }).toEqual({ payload, status: 400 });
    expect((await response.json()).error).toStartWith("Malformed event");
  }
  nothingRecorded();
});

test("a signed event whose id is missing, empty or not a string is refused with 400", async () => {
  await stripeSite();
  const completed = event("checkout.session.completed", checkoutSession({ id: "cs_no_id" }));
  for (const body of [without(completed, "id"), { ...completed, id: "" }, { ...completed, id: 42 }, { ...completed, id: null }]) {
    expect((await deliverRaw(JSON.stringify(body))).status).toBe(400);
  }
  // Also for a type this site ignores, and without a type at all.
  expect((await deliverRaw(JSON.stringify(without(event("customer.created", { id: "cus_1" }), "id")))).status).toBe(400);
  expect((await deliverRaw(JSON.stringify(without(completed, "type")))).status).toBe(400);
  nothingRecorded();
});

test("a signed checkout session or charge without payment_intent is refused with 400", async () => {
  await stripeSite();
  const session = without(checkoutSession({ id: "cs_no_pi" }), "payment_intent");
  for (const type of ["checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.expired"]) {
    const response = await deliverRaw(JSON.stringify(event(type, session)));
    expect({ type, status: response.status }).toEqual({ type, status: 400 });
  }
  const refund = await deliverRaw(JSON.stringify(event("charge.refunded", without(charge("pi_x"), "payment_intent"))));
  expect(refund.status).toBe(400);
  expect((await refund.json()).error).toContain("payment_intent");
  nothingRecorded();
});

test("a charge refunded without any PaymentIntent (payment_intent null) is acknowledged and ignored", async () => {
  await stripeSite();
  const response = await deliverRaw(JSON.stringify(event("charge.refunded", { ...charge("pi_y"), payment_intent: null })));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, ignored: "charge.refunded" });
  nothingRecorded();
});

test("a signature dated in the future beyond five minutes is refused; a little clock skew either way is fine", async () => {
  await stripeSite();
  const now = Math.floor(Date.now() / 1000);
  const body = (id: string) => JSON.stringify(event("checkout.session.completed", checkoutSession({ id })));
  expect((await deliverRaw(body("cs_next_year"), now + 365 * 24 * 3600)).status).toBe(400);
  expect((await deliverRaw(body("cs_in_ten_minutes"), now + 10 * 60)).status).toBe(400);
  nothingRecorded();
  expect((await deliverRaw(body("cs_ahead"), now + 60)).status).toBe(200);
  expect((await deliverRaw(body("cs_behind"), now - 60)).status).toBe(200);
  expect(
    site.db
      .select()
      .from(orders)
      .all()
      .map((o) => o.checkoutId)
      .sort(),
  ).toEqual(["cs_ahead", "cs_behind"]);
});
