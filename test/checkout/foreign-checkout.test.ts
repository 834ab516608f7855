import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { licenses, mailOutbox, orders } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";
import { logEntries } from "../support/logs";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";
import { checkoutSession, event, signed } from "./stripe-events";

// One Stripe account may sell other things than this site (another product, another shop): its
// signed events reach this webhook too. Only checkouts this site created become orders; the others
// are acknowledged (Stripe would otherwise deliver them again for days) and noted in the log.

const SECRET = "whsec_foreign_checkouts";
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

async function stripeSite(): Promise<TestSite> {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_foreign", STRIPE_WEBHOOK_SECRET: SECRET, PUBLIC_BASE_URL: "https://shop.example" },
    stripeConnection: fake.connection,
  });
  return site;
}

async function deliver(s: TestSite, body: unknown) {
  const payload = JSON.stringify(body);
  return s.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, SECRET) },
    body: payload,
  });
}

test("a signed completed checkout the site never created (another product's, with a locale key) is acknowledged, logged and ignored", async () => {
  const s = await stripeSite();
  const id = "cs_test_b1AnotherProductOnTheSameAccount7Qx";
  // Another product's checkout: a `locale` metadata key of its own, no mark of this site.
  const response = await deliver(s, event("checkout.session.completed", checkoutSession({ id, locale: "en", site: null })));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, ignored: "checkout not created by this site" });
  expect(s.db.select().from(orders).all()).toEqual([]);
  expect(s.db.select().from(licenses).all()).toEqual([]);
  expect(s.db.select().from(mailOutbox).all()).toEqual([]);
  const noted = logEntries(s.logs).find((e) => e.msg === "webhook ignored: a checkout this site did not create");
  expect(noted).toBeDefined();
  expect(s.logs.join("\n")).not.toContain(id);

  // Delivered again (Stripe retries what it is not sure of): still nothing.
  expect((await deliver(s, event("checkout.session.completed", checkoutSession({ id, locale: "en", site: null })))).status).toBe(200);
  expect(s.db.select().from(orders).all()).toEqual([]);
});

test("a checkout this site created becomes a paid order with its licence, even when its pending row is gone (a restored database)", async () => {
  const s = await stripeSite();
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true }),
  });
  expect(start.status).toBe(200);
  const id = [...fake.sessions.keys()].at(-1) ?? "";
  // What the site sent Stripe marks the checkout as this site's.
  expect(fake.sessions.get(id)?.metadata).toMatchObject({ locale: "en", site: "https://shop.example" });
  expect((await deliver(s, event("checkout.session.completed", checkoutSession({ id, locale: "en" })))).status).toBe(200);
  expect(
    s.db
      .select()
      .from(orders)
      .all()
      .map((o) => o.status),
  ).toEqual(["paid"]);
  expect(s.db.select().from(licenses).all()).toHaveLength(1);

  // A checkout marked as this site's whose row a restore lost: its payment is not lost.
  const lost = "cs_test_c2MadeBeforeTheBackupWasRestored9Zp";
  expect((await deliver(s, event("checkout.session.completed", checkoutSession({ id: lost, locale: "fr" })))).status).toBe(200);
  expect(
    s.db
      .select()
      .from(orders)
      .all()
      .map((o) => [o.checkoutId, o.status]),
  ).toEqual([
    [id, "paid"],
    [lost, "paid"],
  ]);
});
