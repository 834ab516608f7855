import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { orders, processedEvents } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";
import { plainSpaces } from "../support/text";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";
import { charge, checkoutSession, event, type SessionFields, signed } from "./stripe-events";

// POST /api/stripe/webhook: signed deliveries through the real SDK's verification, and the orders
// table after each.

const SECRET = "whsec_webhook_tests";
let fake: FakeStripe;
let site: TestSite;

beforeAll(() => {
  fake = startFakeStripe();
});
afterAll(() => fake.close());
afterEach(() => site?.close());

async function stripeSite(now?: () => Date) {
  const env = { STRIPE_SECRET_KEY: "sk_test_webhooks", STRIPE_WEBHOOK_SECRET: SECRET, PUBLIC_BASE_URL: "https://shop.example" };
  site = await createTestSite(now ? { env, now, stripeConnection: fake.connection } : { env, stripeConnection: fake.connection });
  return site;
}

async function deliver(body: unknown, options: { secret?: string; timestamp?: number; signature?: string | null } = {}) {
  const payload = JSON.stringify(body);
  const signature =
    options.signature === undefined ? await signed(payload, options.secret ?? SECRET, options.timestamp) : options.signature;
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (signature !== null) headers["stripe-signature"] = signature;
  return site.request("/api/stripe/webhook", { method: "POST", headers, body: payload });
}

const h1Of = (html: string) => plainSpaces(/<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1]);
const allOrders = () => site.db.select().from(orders).all();
const completed = (fields: SessionFields) => event("checkout.session.completed", checkoutSession(fields));

test("a signed checkout.session.completed with payment_status paid records one paid order", async () => {
  await stripeSite();
  const response = await deliver(
    completed({ id: "cs_1", name: "  Marie Claire Dupont ", city: "Lyon", email: "marie@example.com", locale: "en" }),
  );
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, duplicate: false });
  const rows = allOrders();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    provider: "stripe",
    checkoutId: "cs_1",
    status: "paid",
    amount: 2999,
    currency: "EUR",
    locale: "en",
    customerEmail: "marie@example.com",
    firstName: "Marie",
    city: "Lyon",
    paymentIntentId: "pi_for_cs_1",
  });
  expect(rows[0]!.paidAt).toBeInstanceOf(Date);
});

test("a forged signature is refused with 400 and nothing changes", async () => {
  await stripeSite();
  const response = await deliver(completed({ id: "cs_forged" }), { secret: "whsec_someone_else" });
  expect(response.status).toBe(400);
  expect((await response.json()).error).toContain("signature");
  expect(allOrders()).toHaveLength(0);
  expect(site.db.select().from(processedEvents).all()).toHaveLength(0);
});

test("a missing signature and a tampered body are refused", async () => {
  await stripeSite();
  expect((await deliver(completed({ id: "cs_nosig" }), { signature: null })).status).toBe(400);
  const original = JSON.stringify(completed({ id: "cs_tamper", payment_status: "unpaid" }));
  const header = await signed(original, SECRET);
  const tampered = original.replace('"payment_status":"unpaid"', '"payment_status":"paid"');
  const response = await site.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": header },
    body: tampered,
  });
  expect(response.status).toBe(400);
  expect(allOrders()).toHaveLength(0);
});

test("a delivery signed more than five minutes ago (stale timestamp) is refused", async () => {
  await stripeSite();
  const response = await deliver(completed({ id: "cs_stale" }), { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
  expect(response.status).toBe(400);
  expect(allOrders()).toHaveLength(0);
});

test("a replayed event is acknowledged but counted once", async () => {
  await stripeSite();
  const body = completed({ id: "cs_replay" });
  expect(await (await deliver(body)).json()).toEqual({ received: true, duplicate: false });
  const paidAt = allOrders()[0]!.paidAt;
  const again = await deliver(body);
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual({ received: true, duplicate: true });
  expect(allOrders()).toHaveLength(1);
  expect(allOrders()[0]!.paidAt).toEqual(paidAt);
});

test("the same event delivered twice at the same moment makes one order", async () => {
  await stripeSite();
  const body = completed({ id: "cs_twice" });
  const responses = await Promise.all([deliver(body), deliver(body), deliver(body)]);
  expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
  const duplicates = (await Promise.all(responses.map((r) => r.json()))).filter((b) => b.duplicate).length;
  expect(duplicates).toBe(2);
  expect(allOrders()).toHaveLength(1);
  expect(site.db.select().from(processedEvents).all()).toHaveLength(1);
});

test("completed and async_payment_succeeded for one checkout are one paid order", async () => {
  await stripeSite();
  await Promise.all([
    deliver(completed({ id: "cs_both" })),
    deliver(event("checkout.session.async_payment_succeeded", checkoutSession({ id: "cs_both" }))),
  ]);
  const rows = allOrders();
  expect(rows).toHaveLength(1);
  expect(rows[0]!.status).toBe("paid");
});

test("a refund delivered before the completion leaves the order refunded, never paid", async () => {
  await stripeSite();
  expect((await deliver(event("charge.refunded", charge("pi_early")))).status).toBe(200);
  expect(allOrders()).toHaveLength(0);
  await deliver(completed({ id: "cs_early", payment_intent: "pi_early" }));
  const [row] = allOrders();
  expect(row).toMatchObject({ checkoutId: "cs_early", status: "refunded" });
  expect(row!.refundedAt).toBeInstanceOf(Date);
});

test("a refund after payment is final: later success events do not make it paid again", async () => {
  await stripeSite();
  await deliver(completed({ id: "cs_refund", payment_intent: "pi_refund" }));
  await deliver(event("charge.refunded", charge("pi_refund")));
  expect(allOrders()[0]!.status).toBe("refunded");
  await deliver(event("checkout.session.async_payment_succeeded", checkoutSession({ id: "cs_refund", payment_intent: "pi_refund" })));
  await deliver(completed({ id: "cs_refund", payment_intent: "pi_refund" }));
  const [row] = allOrders();
  expect(row!.status).toBe("refunded");
  expect(row!.paidAt).toBeInstanceOf(Date);
});

test("a partial refund leaves the order paid", async () => {
  await stripeSite();
  await deliver(completed({ id: "cs_partial", payment_intent: "pi_partial" }));
  await deliver(event("charge.refunded", charge("pi_partial", false)));
  expect(allOrders()[0]!.status).toBe("paid");
});

test("a partial refund delivered before the completion leaves the order paid", async () => {
  await stripeSite();
  await deliver(event("charge.refunded", charge("pi_partial_early", false)));
  await deliver(completed({ id: "cs_partial_early", payment_intent: "pi_partial_early" }));
  expect(allOrders()[0]).toMatchObject({ checkoutId: "cs_partial_early", status: "paid" });
});

test("completed but unpaid waits as pending; async success then pays, async failure fails", async () => {
  await stripeSite();
  await deliver(completed({ id: "cs_async_ok", payment_status: "unpaid", payment_intent: null }));
  await deliver(completed({ id: "cs_async_ko", payment_status: "unpaid", payment_intent: null }));
  expect(allOrders().map((o) => o.status)).toEqual(["pending", "pending"]);
  expect(allOrders().every((o) => o.paidAt === null)).toBe(true);

  await deliver(event("checkout.session.async_payment_succeeded", checkoutSession({ id: "cs_async_ok" })));
  await deliver(event("checkout.session.async_payment_failed", checkoutSession({ id: "cs_async_ko", payment_status: "unpaid" })));
  const byId = (id: string) => site.db.select().from(orders).where(eq(orders.checkoutId, id)).get();
  expect(byId("cs_async_ok")!.status).toBe("paid");
  expect(byId("cs_async_ko")!.status).toBe("failed");
});

test("an expired checkout expires its pending order, but an expiry arriving late does not undo a payment", async () => {
  const s = await stripeSite();
  // A pending order as POST /api/payment leaves it.
  const created = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  expect(created.status).toBe(200);
  const [pending] = allOrders();
  await deliver(
    event(
      "checkout.session.expired",
      checkoutSession({ id: pending!.checkoutId, status: "expired", payment_status: "unpaid", payment_intent: null }),
    ),
  );
  expect(allOrders()[0]!.status).toBe("expired");

  await deliver(completed({ id: "cs_late" }));
  await deliver(event("checkout.session.expired", checkoutSession({ id: "cs_late", status: "expired", payment_status: "unpaid" })));
  expect(site.db.select().from(orders).where(eq(orders.checkoutId, "cs_late")).get()!.status).toBe("paid");
});

test("a completion whose payment_status is not paid never makes a paid order", async () => {
  await stripeSite();
  await deliver(completed({ id: "cs_free", payment_status: "no_payment_required" }));
  expect(allOrders()[0]!.status).toBe("pending");
});

test("a free checkout (100 % promotion code, nothing to pay) is a paid order of 0, and the buyer is thanked", async () => {
  await stripeSite();
  await deliver(completed({ id: "cs_free_code", payment_status: "no_payment_required", amount_total: 0, email: "free@example.com" }));
  const [row] = allOrders();
  expect(row).toMatchObject({ checkoutId: "cs_free_code", status: "paid", amount: 0, customerEmail: "free@example.com" });
  expect(row!.paidAt).toBeInstanceOf(Date);
  const page = await (await site.request("/payment-success?session_id=cs_free_code")).text();
  // Nothing was paid: the page says the access is ready, not that a payment went through.
  expect(h1Of(page)).toBe("Votre accès est prêt — Merci !");
});

test("a checkout another product created on the same Stripe account makes no order", async () => {
  await stripeSite();
  const session = { ...checkoutSession({ id: "cs_other_product" }), metadata: {} };
  expect((await deliver(event("checkout.session.completed", session))).status).toBe(200);
  expect(allOrders()).toHaveLength(0);
});

test("a signed event with fields of the wrong type or no object is refused with 400 and changes nothing", async () => {
  await stripeSite();
  const odd = { ...checkoutSession({ id: "cs_odd" }), currency: 5 };
  const wrongType = await deliver(event("checkout.session.completed", odd));
  expect(wrongType.status).toBe(400);
  expect((await wrongType.json()).error).toStartWith("Malformed event");
  const empty = { ...event("checkout.session.completed", {}), data: {} };
  expect((await deliver(empty)).status).toBe(400);
  expect((await deliver(event("charge.refunded", { payment_intent: "pi_x", refunded: "yes" }))).status).toBe(400);
  expect(allOrders()).toHaveLength(0);
  expect(site.db.select().from(processedEvents).all()).toHaveLength(0);
});

test("other event types are acknowledged with 200 and change nothing", async () => {
  await stripeSite();
  const response = await deliver(event("customer.created", { id: "cus_1", object: "customer" }));
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, ignored: "customer.created" });
  expect(allOrders()).toHaveLength(0);
  expect(site.db.select().from(processedEvents).all()).toHaveLength(0);
});

test("an oversized delivery is refused with 413", async () => {
  await stripeSite();
  const response = await site.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=x" },
    body: "x".repeat(600 * 1024),
  });
  expect(response.status).toBe(413);
});

test("without Stripe keys the webhook endpoint does not exist", async () => {
  site = await createTestSite();
  const response = await deliver(completed({ id: "cs_test_mode" }));
  expect(response.status).toBe(404);
  expect(allOrders()).toHaveLength(0);
});

test("success page: paid order thanks the buyer, pending waits, unknown id is neutral with the support address", async () => {
  await stripeSite();
  await deliver(completed({ id: "cs_paidpage", email: "paul@example.com" }));
  const paid = await (await site.request("/en/payment-success?session_id=cs_paidpage")).text();
  expect(paid).toContain("paul@example.com");
  expect(h1Of(paid)).toBe("Payment successful — Thank you!");

  const created = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  const pendingId = allOrders().find((o) => o.status === "pending")!.checkoutId;
  expect(created.status).toBe(200);
  const pending = await (await site.request(`/payment-success?session_id=${pendingId}`)).text();
  expect(h1Of(pending)).toBe("Confirmation de votre paiement…");

  const unknown = await (await site.request("/payment-success?session_id=cs_nobody")).text();
  expect(h1Of(unknown)).toBe("Nous n&#x27;avons pas trouvé cette commande");
  expect(unknown).toContain(site.config.site.supportEmail);
  // An id this site never created is not looked up at Stripe: nobody can make the page call it.
  expect(fake.requests.filter((r) => r.path.includes("cs_nobody"))).toEqual([]);

  // No order id: nothing to confirm, so no "payment successful".
  const none = await (await site.request("/payment-success")).text();
  expect(h1Of(none)).toBe("Vous cherchez votre commande ?");
});

test("success page: when Stripe says paid before the webhook arrives, the order is paid once", async () => {
  await stripeSite();
  await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  const id = allOrders()[0]!.checkoutId;
  const session = fake.sessions.get(id)!;
  Object.assign(session, checkoutSession({ id, email: "lea@example.com", name: "Léa Martin", city: "Nantes" }));
  const page = await (await site.request(`/payment-success?session_id=${id}`)).text();
  expect(h1Of(page)).toBe("Paiement réussi — Merci !");
  // The webhook then arrives: still one paid order.
  await deliver(completed({ id, email: "lea@example.com", name: "Léa Martin", city: "Nantes" }));
  const rows = allOrders();
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: "paid", firstName: "Léa", city: "Nantes" });
});

test("success page: reloading a pending order quickly asks Stripe once per few seconds, not once per load", async () => {
  let clock = new Date("2026-05-01T10:00:00Z");
  await stripeSite(() => clock);
  await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  const id = allOrders()[0]!.checkoutId;
  const lookups = () => fake.requests.filter((r) => r.method === "GET" && r.path.endsWith(`/${id}`)).length;
  const pages = await Promise.all(Array.from({ length: 5 }, () => site.request(`/payment-success?session_id=${id}`)));
  for (const response of pages) expect(h1Of(await response.text())).toBe("Confirmation de votre paiement…");
  expect(lookups()).toBe(1);

  // Stripe now says paid; the next reload after the interval asks again and thanks the buyer.
  Object.assign(fake.sessions.get(id)!, checkoutSession({ id }));
  clock = new Date(clock.getTime() + 5000);
  expect(h1Of(await (await site.request(`/payment-success?session_id=${id}`)).text())).toBe("Paiement réussi — Merci !");
  expect(lookups()).toBe(2);
  expect(allOrders()[0]!.status).toBe("paid");
});
