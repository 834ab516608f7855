import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { licenses, mailOutbox, orders, ownerActivity } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import type { StripeConnection } from "../../server/shop/checkout/stripe-provider";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { charge, checkoutSession, event, signed } from "../checkout/stripe-events";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { confirmWithPasskey, ownerCookie } from "./owner";

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
const EN = { "accept-language": "en" };

/** Delivers a Stripe event to the site's webhook, signed with `secret` as Stripe signs it. */
const webhookTo = (s: TestSite, secret: string) => async (body: unknown) => {
  const payload = JSON.stringify(body);
  return s.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
    body: payload,
  });
};

async function shopWithOwner(env: Record<string, string> = {}, stripeConnection?: StripeConnection) {
  const s = (site = await createTestSite({ env, stripeConnection }));
  const cookie = await ownerCookie(s);
  return { s, cookie, get: (path: string) => s.request(path, { headers: { cookie, ...EN } }) };
}

const post = (s: TestSite, cookie: string, path: string, body = "") =>
  s.request(path, { method: "POST", headers: { cookie, ...FORM, ...EN }, body });
const verify = async (s: TestSite, key: string) =>
  (
    await s.request("/api/licenses/verify", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key }),
    })
  ).json();
const mailsOf = (s: TestSite, orderId: number) => s.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, orderId)).all();

test("orders are listed newest first and found by the beginning of an address, by licence key and by number", async () => {
  const { s, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "Alice.Martin@example.com" });
  await payWithTestCard(s, { locale: "en", email: "bob@example.org" });
  const list = await (await get("/admin/orders")).text();
  expect(list.indexOf("bob@example.org")).toBeLessThan(list.indexOf("lice.martin@example.com"));
  const byEmail = await (await get("/admin/orders?q=ALICE.m")).text();
  expect(byEmail).toContain("/admin/orders/1");
  expect(byEmail).not.toContain("bob@example.org");
  const key = s.db.select().from(licenses).where(eq(licenses.orderId, 2)).get()?.key ?? "";
  const byKey = await (await get(`/admin/orders?q=${encodeURIComponent(key.toLowerCase().replaceAll("-", ""))}`)).text();
  expect(byKey).toContain("bob@example.org");
  expect(byKey).not.toContain('/admin/orders/1"');
  expect(await (await get("/admin/orders?q=%232")).text()).toContain("bob@example.org");
  expect(await (await get("/admin/orders?q=nobody%40")).text()).toContain("No order matches");
});

test("an order is found by the reference its buyer quotes, in any case, with or without dashes, and shown by it", async () => {
  const { s, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "alice@example.com" });
  await payWithTestCard(s, { locale: "en", email: "bob@example.org" });
  const reference = s.db.select().from(orders).where(eq(orders.id, 2)).get()?.reference ?? "";
  expect(reference).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  const found = await (await get(`/admin/orders?q=${reference.toLowerCase().replaceAll("-", "")}`)).text();
  expect(found).toContain(`<a href="/admin/orders/2">${reference}</a>`);
  expect(found).not.toContain("alice@example.com");
  expect(await (await get("/admin/orders/2")).text()).toContain(`<h1>Order ${reference}</h1>`);
});

test("an order's page shows its timeline: started, consent, paid, its e-mails, its devices activated and freed", async () => {
  const { s, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "claire@example.com" });
  const key = s.db.select().from(licenses).get()?.key ?? "";
  await s.request("/api/licenses/activate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, instanceName: "Salon TV" }),
  });
  // The buyer frees another device from the app: the timeline shows it come and go.
  const phone = await (
    await s.request("/api/licenses/activate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key, instanceName: "Old phone" }),
    })
  ).json();
  await s.request("/api/licenses/deactivate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, instanceId: phone.instanceId }),
  });
  const page = await get("/admin/orders/1");
  expect(page.status).toBe(200);
  const html = await page.text();
  for (const text of [
    "Checkout started",
    "Terms accepted",
    "Paid",
    "E-mail “access” to claire@example.com",
    "Device activated: Salon TV",
    "Device activated: Old phone",
    "Device freed: Old phone",
    key,
  ]) {
    expect(html).toContain(text);
  }
  expect((await get("/admin/orders/999")).status).toBe(404);
  expect((await get("/admin/orders/abc")).status).toBe(404);
});

test("a refund needs a passkey check from the last 5 minutes; then the test order is refunded once, exactly as by a webhook", async () => {
  const { s, cookie } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "dora@example.com" });
  const key = s.db.select().from(licenses).get()?.key ?? "";
  // Signed in with a recovery code: no passkey check yet.
  const refused = await post(s, cookie, "/admin/orders/1/refund", "confirm=yes");
  expect(refused.status).toBe(403);
  expect(s.db.select().from(orders).get()?.status).toBe("paid");
  await confirmWithPasskey(s, cookie);
  expect((await post(s, cookie, "/admin/orders/1/refund", "")).status).toBe(400);
  const done = await post(s, cookie, "/admin/orders/1/refund", "confirm=yes");
  expect(done.status).toBe(303);
  expect(done.headers.get("location")).toBe("/admin/orders/1?done=refunded");
  expect(s.db.select().from(orders).get()?.status).toBe("refunded");
  expect(await verify(s, key)).toMatchObject({ valid: false, status: "disabled" });
  const kinds = () =>
    mailsOf(s, 1)
      .map((m) => m.kind)
      .sort();
  // The buyer's refund notice is queued (no OWNER_EMAIL here, so no owner notices).
  expect(kinds()).toEqual(["access", "refund"]);
  // Twice (a second click, the CLI) counts once.
  expect((await post(s, cookie, "/admin/orders/1/refund", "confirm=yes")).status).toBe(409);
  expect(
    await runCommand(
      ["orders", "refund", "1"],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(1);
  expect(kinds()).toEqual(["access", "refund"]);
  const log = s.db.select().from(ownerActivity).where(eq(ownerActivity.action, "refund")).all();
  expect(log).toHaveLength(1);
  expect(log[0]?.sessionId).not.toBeNull();
  // The refunded order's page says so, says there is nothing left to do, and offers no action.
  const page = await (await s.request("/admin/orders/1?done=refunded", { headers: { cookie, ...EN } })).text();
  expect(page).toContain("Order refunded: licence disabled, the buyer is told.");
  expect(page).toContain("Nothing left to do on this order: it was refunded by you in the console.");
  expect(page).not.toContain('action="/admin/orders/1/');
});

test("a Stripe order is refunded through Stripe's Refund API; Stripe's own charge.refunded webhook afterwards changes nothing", async () => {
  const secret = "whsec_console";
  const { s, cookie } = await shopWithOwner(
    {
      STRIPE_SECRET_KEY: "sk_test_console",
      STRIPE_WEBHOOK_SECRET: secret,
      PUBLIC_BASE_URL: "https://shop.example",
    },
    fake.connection,
  );
  const deliver = webhookTo(s, secret);
  expect(
    (await deliver(event("checkout.session.completed", checkoutSession({ id: "cs_test_console1", email: "eve@example.com" })))).status,
  ).toBe(200);
  const order = s.db.select().from(orders).get();
  expect(order?.status).toBe("paid");
  await confirmWithPasskey(s, cookie);
  const before = fake.requests.length;
  expect((await post(s, cookie, `/admin/orders/${order?.id}/refund`, "confirm=yes")).status).toBe(303);
  const refundCall = fake.requests.slice(before).find((r) => r.path === "/v1/refunds");
  expect(refundCall?.body.get("payment_intent")).toBe("pi_for_cs_test_console1");
  expect(refundCall?.headers.get("idempotency-key")).toBe(`refund-order-${order?.id}`);
  expect(s.db.select().from(orders).get()?.status).toBe("refunded");
  expect((await deliver(event("charge.refunded", charge("pi_for_cs_test_console1")))).status).toBe(200);
  const refunds = mailsOf(s, order?.id ?? 0).filter((m) => m.kind === "refund");
  expect(refunds).toHaveLength(1);
});

test("when Stripe refuses the refund, the console says so and nothing changes", async () => {
  const secret = "whsec_console";
  const { s, cookie } = await shopWithOwner(
    {
      STRIPE_SECRET_KEY: "sk_test_console",
      STRIPE_WEBHOOK_SECRET: secret,
      PUBLIC_BASE_URL: "https://shop.example",
    },
    fake.connection,
  );
  const payload = JSON.stringify(event("checkout.session.completed", checkoutSession({ id: "cs_test_console2" })));
  await s.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
    body: payload,
  });
  await confirmWithPasskey(s, cookie);
  fake.mode = { kind: "error", status: 402, type: "card_error", message: "insufficient balance" };
  try {
    const response = await post(s, cookie, "/admin/orders/1/refund", "confirm=yes");
    expect(response.status).toBe(502);
    expect(await response.text()).toContain("Nothing was changed");
  } finally {
    fake.mode = { kind: "ok" };
  }
  expect(s.db.select().from(orders).get()?.status).toBe("paid");
  expect(mailsOf(s, 1).filter((m) => m.kind === "refund")).toHaveLength(0);
});

test("resend, disable and enable the licence, free one device and reset all, each logged", async () => {
  const { s, cookie } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "fanny@example.com" });
  const key = s.db.select().from(licenses).get()?.key ?? "";
  const activate = (name: string) =>
    s.request("/api/licenses/activate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key, instanceName: name }),
    });
  for (const name of ["Phone", "Laptop", "TV"]) await activate(name);

  expect((await post(s, cookie, "/admin/orders/1/resend")).status).toBe(303);
  expect(mailsOf(s, 1).filter((m) => m.kind === "access")).toHaveLength(2);

  expect((await post(s, cookie, "/admin/orders/1/license", "enabled=no")).status).toBe(303);
  expect(await verify(s, key)).toMatchObject({ valid: false, status: "disabled" });
  expect((await post(s, cookie, "/admin/orders/1/license", "enabled=maybe")).status).toBe(400);
  expect((await post(s, cookie, "/admin/orders/1/license", "enabled=yes")).status).toBe(303);
  expect(await verify(s, key)).toMatchObject({ valid: true, activations: 3 });

  const page = await (await s.request("/admin/orders/1", { headers: { cookie, ...EN } })).text();
  const tvId = page
    .split("<li>")
    .find((li) => li.startsWith("TV"))
    ?.match(/devices\/(\d+)\/free/)?.[1];
  expect((await post(s, cookie, `/admin/orders/1/devices/${tvId}/free`)).status).toBe(303);
  expect(await verify(s, key)).toMatchObject({ activations: 2 });
  expect((await post(s, cookie, `/admin/orders/1/devices/${tvId}/free`)).status).toBe(409);
  expect((await post(s, cookie, "/admin/orders/1/devices/reset")).status).toBe(303);
  expect(await verify(s, key)).toMatchObject({ valid: true, activations: 0 });

  const actions = s.db
    .select({ action: ownerActivity.action })
    .from(ownerActivity)
    .all()
    .map((a) => a.action);
  expect(actions).toEqual(["sign-in-recovery", "resend", "license-disabled", "license-enabled", "device-freed", "devices-reset"]);
});

test("the CLI's refund and resend use the same services and appear in the activity log as the command line", async () => {
  const { s, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "jules@example.com" });
  expect(
    await runCommand(
      ["orders", "resend", "1"],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  expect(
    await runCommand(
      ["orders", "refund", "1"],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  const cli = s.db
    .select()
    .from(ownerActivity)
    .all()
    .filter((a) => a.sessionId === null);
  expect(cli.map((a) => [a.action, a.detail])).toEqual([
    ["resend", "order 1"],
    ["refund", "order 1"],
  ]);
  const activity = await (await get("/admin/activity")).text();
  expect(activity).toContain("command line");
  expect(
    mailsOf(s, 1)
      .map((m) => m.kind)
      .sort(),
  ).toEqual(["access", "access", "refund"]);
});

test("an order's invoice, and once refunded its credit note, download from its page as console answers: never stored, indexed or framed", async () => {
  const { s, cookie, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "karim@example.com" });
  expect(await (await get("/admin/orders/1")).text()).toContain('href="/admin/orders/1/invoice.pdf"');
  const download = async (file: string) => {
    const response = await get(`/admin/orders/1/${file}`);
    return { response, start: new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5)) };
  };
  const invoice = await download("invoice.pdf");
  expect(invoice.response.status).toBe(200);
  expect(invoice.start).toBe("%PDF-");
  expect(invoice.response.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"]+\.pdf"$/);
  expect(invoice.response.headers.get("cache-control")).toBe("no-store");
  expect(invoice.response.headers.get("x-robots-tag")).toContain("noindex");
  expect(invoice.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  // No credit note before a refund; after it, one.
  expect((await get("/admin/orders/1/credit-note.pdf")).status).toBe(404);
  await confirmWithPasskey(s, cookie);
  expect((await post(s, cookie, "/admin/orders/1/refund", "confirm=yes")).status).toBe(303);
  const note = await download("credit-note.pdf");
  expect(note.response.status).toBe(200);
  expect(note.start).toBe("%PDF-");
  expect(note.response.headers.get("x-robots-tag")).toContain("noindex");
  expect((await get("/admin/orders/1/receipt.pdf")).status).toBe(404);
});

test("the activity log says each detail in the owner's language and names an order by its reference, linked; the command line's licence actions reach the order's page", async () => {
  const { s, cookie, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "fr", email: "lea@example.com" });
  const { key, reference } = s.db
    .select({ key: licenses.key, reference: orders.reference })
    .from(licenses)
    .innerJoin(orders, eq(orders.id, licenses.orderId))
    .get() ?? { key: "", reference: "" };
  const cli = (args: string[]) =>
    runCommand(
      args,
      s.config,
      () => {},
      () => {},
    );
  expect(await cli(["licenses", "disable", key])).toBe(0);
  expect(await cli(["licenses", "enable", key])).toBe(0);
  expect((await post(s, cookie, "/admin/orders/1/resend")).status).toBe(303);

  const fr = await (await s.request("/admin/activity", { headers: { cookie, "accept-language": "fr" } })).text();
  expect(fr.split(`<a href="/admin/orders/1">Commande ${reference}</a>`)).toHaveLength(4);
  expect(fr).toContain("9 codes de secours restants");
  expect(fr).not.toContain("order 1");
  expect(fr).not.toContain("recovery codes left");
  const en = await (await get("/admin/activity")).text();
  expect(en).toContain(`<a href="/admin/orders/1">Order ${reference}</a>`);
  expect(en).toContain("9 recovery codes left");

  const page = await (await get("/admin/orders/1")).text();
  expect(page).toContain("You: Licence disabled");
  expect(page).toContain("You: Licence enabled");
  expect(page).toContain("You: Access e-mail resent");
});

test("a refunded order's page says it is refunded, and by whom: the console, the command line, the buyer's refund page; an unpaid one says it is not paid", async () => {
  const { s, cookie, get } = await shopWithOwner();
  await payWithTestCard(s, { locale: "en", email: "by-console@example.com" });
  await payWithTestCard(s, { locale: "en", email: "by-cli@example.com" });
  const { successPath } = await payWithTestCard(s, { locale: "en", email: "by-buyer@example.com" });
  await s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  await confirmWithPasskey(s, cookie);
  expect((await post(s, cookie, "/admin/orders/1/refund", "confirm=yes")).status).toBe(303);
  expect(
    await runCommand(
      ["orders", "refund", "2"],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  // The buyer follows the success page's refund link and confirms.
  const success = (await (await s.request(successPath)).text()).replace(/&amp;/g, "&");
  const link = new URL(/href="(\/en\/remboursement\?order=[^"]+)"/.exec(success)?.[1] ?? "/", "http://x").searchParams;
  const form = new URLSearchParams({ order: link.get("order") ?? "", t: link.get("t") ?? "", locale: "en", confirm: "yes" });
  expect((await s.request("/api/refund", { method: "POST", headers: FORM, body: form.toString() })).status).toBe(303);

  const text = async (id: number) => (await (await get(`/admin/orders/${id}`)).text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  const console = await text(1);
  expect(console).toContain("Nothing left to do on this order: it was refunded by you in the console.");
  expect(console).toContain("Refunded by you in the console");
  const cli = await text(2);
  expect(cli).toContain("it was refunded by you from the command line.");
  expect(cli).toContain("Refunded by you from the command line");
  const buyer = await text(3);
  expect(buyer).toContain("it was refunded by the buyer from the refund page.");
  expect(buyer).toContain("Refunded by the buyer from the refund page");
  expect(await text(4)).toContain("Nothing to do on this order: it is not paid (pending).");
});

test("an order refunded in Stripe alone (its charge.refunded webhook) says so on its page", async () => {
  const secret = "whsec_console_alone";
  const { s, get } = await shopWithOwner(
    { STRIPE_SECRET_KEY: "sk_test_console", STRIPE_WEBHOOK_SECRET: secret, PUBLIC_BASE_URL: "https://shop.example" },
    fake.connection,
  );
  const deliver = webhookTo(s, secret);
  expect(
    (await deliver(event("checkout.session.completed", checkoutSession({ id: "cs_test_alone", email: "al@example.com" })))).status,
  ).toBe(200);
  expect((await deliver(event("charge.refunded", charge("pi_for_cs_test_alone")))).status).toBe(200);
  const order = s.db.select().from(orders).get();
  expect(order?.status).toBe("refunded");
  const page = (await (await get(`/admin/orders/${order?.id}`)).text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  expect(page.replace(/&#x27;/g, "'")).toContain("it was refunded in Stripe (Stripe's notification told the site).");
});

test("free access claimed under the test checkout is marked as a test in the orders list and on its page, like a test card's", async () => {
  site = await createTestSite();
  const s = site;
  expect(
    await runCommand(
      ["codes", "create", "PRESS", "--percent", "100"],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ locale: "en", acceptTerms: "yes", code: "press" }).toString(),
  });
  const claimPage = start.headers.get("location") ?? "";
  expect(claimPage).toStartWith("/checkout/test/cs_free_test_");
  const claim = new URLSearchParams({ email: "press@example.com", name: "Camille", city: "Paris", country: "FR" });
  expect((await s.request(claimPage, { method: "POST", headers: FORM, body: claim.toString() })).status).toBe(303);
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "press@example.com")).get();
  expect(order).toMatchObject({ provider: "free", status: "paid" });

  const cookie = await ownerCookie(s);
  const text = async (path: string) =>
    (await (await s.request(path, { headers: { cookie, ...EN } })).text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
  expect(await text("/admin/orders")).toMatch(new RegExp(`${order?.reference}.*paid · test payment`));
  expect(await text(`/admin/orders/${order?.id}`)).toContain("paid (free access, test payment)");
});
