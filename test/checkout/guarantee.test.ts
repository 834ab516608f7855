import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, licenses, mailOutbox, orders, processedEvents } from "../../db/schema";
import { signOrderLink } from "../../server/shop/checkout/order-links";
import type { StripeConnection } from "../../server/shop/checkout/stripe-provider";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand } from "../support/cli";
import { payWithTestCard, testClock } from "../support/purchase";
import { type FakeStripe, startFakeStripe } from "./fake-stripe";
import { charge, checkoutSession, event, signed } from "./stripe-events";

// The 7-day money-back guarantee, kept by the site: the refund page of the order's signed link
// refunds on one confirmation inside the window (or queues the request for the owner with
// REFUND_MODE=request), and never twice.

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
const DAY_MS = 24 * 60 * 60 * 1000;
const OWNER = { OWNER_EMAIL: "owner@shop.example" };

async function shop(
  env: Record<string, string> = {},
  options: { stripeConnection?: StripeConnection; clock?: ReturnType<typeof testClock> } = {},
) {
  site = await createTestSite({ env: { ...OWNER, ...env }, stripeConnection: options.stripeConnection, now: options.clock?.now });
  return site;
}

/** Buys with the test card and follows the success page's refund link, as the buyer would. */
async function buyAndFindRefundLink(s: TestSite, email: string) {
  const { successPath } = await payWithTestCard(s, { locale: "en", email });
  const html = (await (await s.request(successPath)).text()).replace(/&amp;/g, "&");
  const refundPath = /href="(\/en\/remboursement\?order=[^"]+)"/.exec(html)?.[1] ?? "";
  expect(refundPath).toStartWith("/en/remboursement?order=");
  const query = new URL(refundPath, "http://x").searchParams;
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, email)).get();
  if (order === undefined) throw new Error("no order");
  return {
    refundPath,
    order,
    form: new URLSearchParams({ order: query.get("order") ?? "", t: query.get("t") ?? "", locale: "en", confirm: "yes" }).toString(),
  };
}

const confirm = (s: TestSite, form: string) => s.request("/api/refund", { method: "POST", headers: FORM, body: form });
const mails = (s: TestSite, orderId: number) =>
  s.db
    .select({ kind: mailOutbox.kind, recipient: mailOutbox.recipient })
    .from(mailOutbox)
    .where(eq(mailOutbox.orderId, orderId))
    .all()
    .map((m) => `${m.kind} ${m.recipient}`);
const licenseOf = (s: TestSite, orderId: number) => s.db.select().from(licenses).where(eq(licenses.orderId, orderId)).get();
/** The numbers of an order's invoice and credit note, as issued. */
const documentsOf = (s: TestSite, orderId: number) =>
  s.db
    .select({ id: invoices.id, kind: invoices.kind, number: invoices.number, credits: invoices.creditsInvoiceId })
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .all();
const h1Of = (html: string) => /<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1] ?? "";

test("within 7 days one confirmation refunds the order: licence disabled, a credit note issued, the buyer and the owner e-mailed", async () => {
  const s = await shop();
  const { refundPath, order, form } = await buyAndFindRefundLink(s, "within@example.com");
  const page = await s.request(refundPath);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(h1Of(html)).toBe("Ask for a refund");
  expect(html).toContain(`Order ${order.reference}, €29.99`);
  // The deadline names its zone, as the access e-mail does.
  expect(html).toMatch(/The money-back guarantee runs until \d{1,2} \w+ \d{4}(,| at) \d{2}:\d{2} \(Paris time\)\./);
  expect(html).toContain('action="/api/refund"');

  const done = await confirm(s, form);
  expect(done.status).toBe(303);
  expect(done.headers.get("location")).toStartWith(`/en/remboursement?order=${order.reference}&t=`);
  const after = s.db.select().from(orders).where(eq(orders.id, order.id)).get();
  expect(after?.status).toBe("refunded");
  expect(licenseOf(s, order.id)?.status).toBe("disabled");
  expect(mails(s, order.id).sort()).toEqual(
    ["access within@example.com", "owner-refund owner@shop.example", "owner-sale owner@shop.example", "refund within@example.com"].sort(),
  );
  // The credit note, numbered in its own sequence, cancels the order's invoice.
  const documents = documentsOf(s, order.id);
  const invoice = documents.find((d) => d.kind === "invoice");
  expect(documents.find((d) => d.kind === "credit-note")).toMatchObject({
    number: `TEST-AV-${new Date().getFullYear()}-000001`,
    credits: invoice?.id,
  });
  const refunded = await (await s.request(done.headers.get("location") ?? "")).text();
  expect(h1Of(refunded)).toBe("Order refunded");
});

test("after 7 days the page says the guarantee has ended, with the support address, and a confirmation changes nothing", async () => {
  const clock = testClock();
  const s = await shop({}, { clock });
  const { refundPath, order, form } = await buyAndFindRefundLink(s, "late@example.com");
  clock.advance(7 * DAY_MS + 60_000);
  const html = await (await s.request(refundPath)).text();
  expect(h1Of(html)).toBe("The 7-day guarantee has ended");
  expect(html).toMatch(/ended on \d{1,2} \w+ \d{4}(,| at) \d{2}:\d{2} \(Paris time\)\./);
  expect(html).toContain("support@example.com");
  expect(html).not.toContain('action="/api/refund"');
  const before = mails(s, order.id);
  expect((await confirm(s, form)).status).toBe(303);
  const json = await s.request("/api/refund", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(Object.fromEntries(new URLSearchParams(form))),
  });
  expect(json.status).toBe(409);
  expect(s.db.select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("paid");
  expect(licenseOf(s, order.id)?.status).toBe("active");
  expect(mails(s, order.id)).toEqual(before);
  expect(documentsOf(s, order.id).map((d) => d.kind)).toEqual(["invoice"]);
});

test("the payment page's guarantee box sends the buyer to the refund link of the access e-mail, as the refund mode works", async () => {
  const box = (html: string) => /<section class="panel money-back"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  const instant = box(await (await (await shop()).request("/en/paiement")).text());
  expect(instant).toContain(
    "Within 7 days of payment, one click on the refund link (in your access e-mail and on the page shown after payment) refunds you in full, straight away",
  );
  expect(instant).toContain("You can also write to support@example.com.");
  await site?.close();
  const french = box(await (await (await shop()).request("/paiement")).text());
  expect(french).toContain("Dans les 7 jours suivant le paiement, un clic sur le lien de remboursement (dans votre email d&#x27;accès");
  await site?.close();
  const request = box(await (await (await shop({ REFUND_MODE: "request" })).request("/en/paiement")).text());
  expect(request).toContain(
    "Ask for a refund within 7 days of payment, with the link in your access e-mail or on the page shown after payment",
  );
  expect(request).toContain("as soon as we have handled the request");
  expect(request).not.toContain("at once");
});

test("the refund asked many times at once happens once: one refund event, one notice to the buyer, one to the owner", async () => {
  const s = await shop();
  const { order, form } = await buyAndFindRefundLink(s, "twice@example.com");
  const answers = await Promise.all(Array.from({ length: 6 }, () => confirm(s, form)));
  expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 303, 303, 303]);
  expect(s.db.select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("refunded");
  expect(mails(s, order.id).filter((m) => m.startsWith("refund ") || m.startsWith("owner-refund "))).toEqual([
    "refund twice@example.com",
    "owner-refund owner@shop.example",
  ]);
  expect(s.db.select().from(processedEvents).where(eq(processedEvents.type, "charge.refunded")).all()).toHaveLength(1);
  expect(
    documentsOf(s, order.id)
      .map((d) => d.kind)
      .sort(),
  ).toEqual(["credit-note", "invoice"]);
  expect((await confirm(s, form)).status).toBe(303);
  expect(mails(s, order.id).filter((m) => m.startsWith("refund "))).toHaveLength(1);
});

test("a Stripe order is refunded through Stripe's Refund API once, also with concurrent confirmations racing Stripe's charge.refunded webhook", async () => {
  const secret = "whsec_guarantee";
  const s = await shop(
    { STRIPE_SECRET_KEY: "sk_test_guarantee", STRIPE_WEBHOOK_SECRET: secret, PUBLIC_BASE_URL: "https://shop.example" },
    {
      stripeConnection: fake.connection,
    },
  );
  const deliver = async (body: unknown) => {
    const payload = JSON.stringify(body);
    return s.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
      body: payload,
    });
  };
  const paid = await deliver(
    event("checkout.session.completed", checkoutSession({ id: "cs_test_guarantee1", email: "stripe@example.com" })),
  );
  expect(paid.status).toBe(200);
  const order = s.db.select().from(orders).get();
  if (order === undefined) throw new Error("no order");
  const t = await signOrderLink(s.licenseKeys, order.reference, new Date());
  const form = new URLSearchParams({ order: order.reference, t, locale: "fr", confirm: "yes" }).toString();
  const before = fake.requests.length;
  const answers = await Promise.all([
    confirm(s, form),
    confirm(s, form),
    deliver(event("charge.refunded", charge("pi_for_cs_test_guarantee1"))),
    confirm(s, form),
  ]);
  expect(answers.map((a) => a.status)).toEqual([303, 303, 200, 303]);
  const refundCalls = fake.requests.slice(before).filter((r) => r.path === "/v1/refunds");
  expect(refundCalls.length).toBeLessThanOrEqual(1);
  if (refundCalls[0] !== undefined) {
    expect(refundCalls[0].body.get("payment_intent")).toBe("pi_for_cs_test_guarantee1");
    expect(refundCalls[0].headers.get("idempotency-key")).toBe(`refund-order-${order.id}`);
  }
  expect(s.db.select().from(orders).get()?.status).toBe("refunded");
  expect(mails(s, order.id).filter((m) => m.startsWith("refund ") || m.startsWith("owner-refund "))).toEqual([
    "refund stripe@example.com",
    "owner-refund owner@shop.example",
  ]);
  // Stripe's webhook for the site's own refund, arriving afterwards, changes nothing either.
  expect((await deliver(event("charge.refunded", charge("pi_for_cs_test_guarantee1")))).status).toBe(200);
  expect(mails(s, order.id).filter((m) => m.startsWith("refund "))).toHaveLength(1);
});

test("a Stripe order confirmed alone is refunded with one call to Stripe's Refund API", async () => {
  const secret = "whsec_guarantee2";
  const s = await shop(
    { STRIPE_SECRET_KEY: "sk_test_guarantee", STRIPE_WEBHOOK_SECRET: secret, PUBLIC_BASE_URL: "https://shop.example" },
    {
      stripeConnection: fake.connection,
    },
  );
  const payload = JSON.stringify(
    event("checkout.session.completed", checkoutSession({ id: "cs_test_guarantee2", email: "one@example.com" })),
  );
  await s.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
    body: payload,
  });
  const order = s.db.select().from(orders).get();
  if (order === undefined) throw new Error("no order");
  const t = await signOrderLink(s.licenseKeys, order.reference, new Date());
  const form = new URLSearchParams({ order: order.reference, t, locale: "en", confirm: "yes" }).toString();
  const before = fake.requests.length;
  const answers = await Promise.all([confirm(s, form), confirm(s, form), confirm(s, form)]);
  expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
  expect(fake.requests.slice(before).filter((r) => r.path === "/v1/refunds")).toHaveLength(1);
  expect(s.db.select().from(orders).get()?.status).toBe("refunded");
  expect(licenseOf(s, order.id)?.status).toBe("disabled");
});

test("with REFUND_MODE=request the confirmation queues the request and tells the owner once; the owner approves it in the console with one click", async () => {
  const s = await shop({ REFUND_MODE: "request" });
  const { refundPath, order, form } = await buyAndFindRefundLink(s, "request@example.com");
  expect(await (await s.request(refundPath)).text()).toContain("your request is sent to us");
  expect((await confirm(s, form)).status).toBe(303);
  expect((await confirm(s, form)).status).toBe(303);
  const queued = s.db.select().from(orders).where(eq(orders.id, order.id)).get();
  expect(queued?.status).toBe("paid");
  expect(queued?.refundRequestedAt).toBeInstanceOf(Date);
  expect(mails(s, order.id).filter((m) => m.startsWith("owner-refund-request"))).toEqual(["owner-refund-request owner@shop.example"]);
  expect(h1Of(await (await s.request(refundPath)).text())).toBe("Refund request received");

  const approve = `/admin/orders/${order.id}/approve-refund`;
  // Without a session, and from another site's page, nothing happens.
  const anonymous = await s.request(approve, { method: "POST", headers: FORM, body: "confirm=yes" });
  expect([401, 403, 303]).toContain(anonymous.status);
  expect(anonymous.headers.get("location") ?? "").not.toContain("done=approved");
  const cookie = await ownerCookie(s);
  const crossSite = await s.request(approve, {
    method: "POST",
    headers: { ...FORM, cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    body: "confirm=yes",
  });
  expect(crossSite.status).toBe(403);
  expect(s.db.select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("paid");

  const list = await (await s.request("/admin/orders", { headers: { cookie, "accept-language": "en" } })).text();
  expect(list).toContain("Refund requests waiting");
  expect(list).toContain(order.reference);
  const orderPage = await (await s.request(`/admin/orders/${order.id}`, { headers: { cookie, "accept-language": "en" } })).text();
  expect(orderPage).toContain(`action="${approve}"`);

  const approved = await s.request(approve, { method: "POST", headers: { ...FORM, cookie }, body: "confirm=yes" });
  expect(approved.status).toBe(303);
  expect(approved.headers.get("location")).toBe(`/admin/orders/${order.id}?done=approved`);
  expect(s.db.select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("refunded");
  expect(licenseOf(s, order.id)?.status).toBe("disabled");
  expect(mails(s, order.id).filter((m) => m.startsWith("refund "))).toEqual(["refund request@example.com"]);
  expect((await s.request(approve, { method: "POST", headers: { ...FORM, cookie }, body: "confirm=yes" })).status).toBe(409);
});

test("the refund form refuses a post from another site, an altered link and a missing confirmation, changing nothing", async () => {
  const s = await shop();
  const { order, form } = await buyAndFindRefundLink(s, "guarded@example.com");
  const crossSite = await s.request("/api/refund", {
    method: "POST",
    headers: { ...FORM, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    body: form,
  });
  expect(crossSite.status).toBe(403);
  const json = (body: Record<string, string>) =>
    s.request("/api/refund", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const fields = Object.fromEntries(new URLSearchParams(form));
  expect((await json({ ...fields, t: `${fields.t?.slice(0, -4)}AAAA` })).status).toBe(403);
  expect((await json({ ...fields, confirm: "no" })).status).toBe(400);
  expect((await json({ ...fields, order: "ZZZZ-ZZZZ-ZZZZ" })).status).toBe(403);
  expect(s.db.select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("paid");
});

test("a free access (100 % code) opened on the refund page by hand offers no refund of nothing, and a confirmation changes nothing", async () => {
  const s = await shop();
  expect((await runSiteCommand(s, "codes", "create", "PRESS", "--percent", "100")).code).toBe(0);
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ locale: "en", acceptTerms: "yes", code: "press" }).toString(),
  });
  const claim = new URLSearchParams({ email: "press@example.com", name: "Camille", city: "Paris", country: "FR" });
  expect((await s.request(start.headers.get("location") ?? "", { method: "POST", headers: FORM, body: claim.toString() })).status).toBe(
    303,
  );
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "press@example.com")).get();
  if (order === undefined) throw new Error("no order");
  const t = await signOrderLink(s.licenseKeys, order.reference, new Date());
  const html = await (await s.request(`/en/remboursement?order=${order.reference}&t=${t}`)).text();
  expect(h1Of(html)).toBe("Nothing to refund");
  expect(html).toContain("nothing was paid, so there is nothing to refund");
  expect(html).not.toContain("Refund me");
  const form = new URLSearchParams({ order: order.reference, t, locale: "en", confirm: "yes" });
  const json = await s.request("/api/refund", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(Object.fromEntries(form)),
  });
  expect(json.status).toBe(409);
  expect(((await json.json()) as { outcome: string }).outcome).toBe("free");
  expect((await confirm(s, form.toString())).status).toBe(303);
  expect(s.db.select().from(orders).where(eq(orders.id, order.id)).get()?.status).toBe("paid");
  expect(licenseOf(s, order.id)?.status).toBe("active");
  expect(mails(s, order.id).filter((m) => m.includes("refund"))).toEqual([]);
});
