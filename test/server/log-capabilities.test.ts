import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { runCommand } from "../../server/owner/cli";
import { maskPath } from "../../server/platform/log-mask";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { checkoutSession, event, signed } from "../checkout/stripe-events";
import { createTestSite, type TestSite } from "../support/app";
import { logEntries } from "../support/logs";
import { payWithTestCard } from "../support/purchase";

// Whoever reads the log (the owner's host, a log shipper) must not find a capability in it: an
// invite token registers a passkey, a checkout id opens the order's success page.

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

async function inviteToken(s: TestSite): Promise<string> {
  const out: string[] = [];
  expect(
    await runCommand(
      ["owner", "invite"],
      s.config,
      (l) => out.push(l),
      () => {},
    ),
  ).toBe(0);
  const link = /https?:\/\/\S+/.exec(out.join(""))?.[0] ?? "";
  const token = link.split("/").at(-1) ?? "";
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

test("after an invite is opened (and mistyped) no log line holds its token", async () => {
  site = await createTestSite();
  const token = await inviteToken(site);
  expect((await site.request(`/admin/invite/${token}`)).status).toBe(200);
  // A mistyped link, and the token pasted under other paths (a 404, the console's sign-in).
  expect((await site.request(`/admin/invite/${token}x`)).status).toBe(403);
  expect((await site.request(`/en/${token}`)).status).toBe(404);
  expect((await site.request(`/admin/invite/${token}/more`)).status).toBe(303);
  const requests = logEntries(site.logs).filter((e) => e.msg === "request");
  expect(requests.map((e) => e.path)).toContain("/admin/invite/[redacted]");
  expect(logEntries(site.logs).some((e) => e.msg === "404 page not found")).toBe(true);
  expect(site.logs.join("\n")).not.toContain(token);
  expect(site.logs.join("\n")).not.toContain(token.slice(0, 24));
});

test("a purchase through the test checkout leaves no checkout id in the log", async () => {
  site = await createTestSite();
  const { cardPage, successPath } = await payWithTestCard(site, { locale: "en", email: "marie@example.com" });
  const id = cardPage.split("/").at(-1) ?? "";
  expect(id).toMatch(/^cs_test_[A-Za-z0-9]{20,}$/);
  expect(successPath).toContain(id);
  expect((await site.request(successPath)).status).toBe(200);
  expect((await site.request(cardPage)).status).toBe(200);
  const messages = logEntries(site.logs).map((e) => e.msg);
  // The lines are there, only without the id.
  expect(messages).toContain("checkout created");
  expect(messages).toContain("test checkout paid");
  expect(
    logEntries(site.logs)
      .filter((e) => e.msg === "request")
      .map((e) => e.path),
  ).toContain("/checkout/test/[redacted]");
  expect(site.logs.join("\n")).not.toContain(id);
  // Nor enough of it to open anything: at most its first characters, to match a checkout's lines.
  expect(site.logs.join("\n")).not.toContain(id.slice(0, 16));
});

test("a Stripe purchase's webhook and success page leave no checkout id in the log", async () => {
  const secret = "whsec_log_capabilities";
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_logs", STRIPE_WEBHOOK_SECRET: secret, PUBLIC_BASE_URL: "https://shop.example" },
    stripeConnection: fake.connection,
  });
  const start = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true }),
  });
  expect(start.status).toBe(200);
  const id = [...fake.sessions.keys()].at(-1) ?? "";
  expect(id).toStartWith("cs_test_");
  const payload = JSON.stringify(event("checkout.session.completed", checkoutSession({ id, locale: "en" })));
  const delivered = await site.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
    body: payload,
  });
  expect(delivered.status).toBe(200);
  expect((await site.request(`/en/payment-success?session_id=${id}`)).status).toBe(200);
  expect(logEntries(site.logs).map((e) => e.msg)).toContain("webhook applied");
  expect(site.logs.join("\n")).not.toContain(id);
});

test("maskPath hides the capabilities a path may hold and keeps the rest", () => {
  expect(maskPath("/admin/invite/abcDEF123_-xyz")).toBe("/admin/invite/[redacted]");
  expect(maskPath("/checkout/test/cs_test_a1B2c3D4e5F6g7H8i9J0")).toBe("/checkout/test/[redacted]");
  expect(maskPath("/en/payment-success")).toBe("/en/payment-success");
  expect(maskPath("/documents/K7M2-9QXD/invoice.pdf")).toBe("/documents/K7M2-9QXD/invoice.pdf");
  expect(maskPath("/wp-admin/Zq8vX3nR7tY2pL9sK4mW6bH1/x.php")).toBe("/wp-admin/[redacted]/x.php");
  expect(maskPath(`/${"a".repeat(5000)}`)).toHaveLength(201);
});

test("every page whose address holds a capability tells the browser to send no Referer to anyone", async () => {
  site = await createTestSite();
  const token = await inviteToken(site);
  const { cardPage, successPath } = await payWithTestCard(site, { locale: "en", email: "marie@example.com" });
  const success = await site.request(successPath);
  const html = await success.text();
  // The order's own pages, as the success page links to them (refund, invoice, language switcher).
  const links = [...html.matchAll(/href="(\/[^"]*(?:[?&](?:t|k|order)=)[^"]*)"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
  expect(links.some((l) => l.includes("/documents/"))).toBe(true);
  expect(links.some((l) => l.includes("remboursement"))).toBe(true);
  // strict-origin: a link or form from these pages tells no one their address (it holds the
  // capability), only the site's origin. Not no-referrer: a form posted from a page with it comes
  // with `Origin: null`, and a browser on plain HTTP with another host than localhost (an owner
  // trying a server before HTTPS) sends no Sec-Fetch-Site either: the same-origin guard refused
  // the card page's "Pay".
  const pages = [`/admin/invite/${token}`, cardPage, successPath, ...links];
  for (const path of pages) {
    const response = await site.request(path);
    expect({ path, status: response.status < 400, policy: response.headers.get("referrer-policy") }).toEqual({
      path,
      status: true,
      policy: "strict-origin",
    });
  }
});

test("review and stop links, opened, posted and mistyped, leave no capability in the log", async () => {
  site = await createTestSite();
  const { reviewCapability } = await import("../../server/shop/reviews/links");
  const { SITE_SECRET } = await import("../support/app");
  const { orders } = await import("../../db/schema");
  await payWithTestCard(site, { locale: "en", email: "marie@example.com" });
  const reference = site.db.select({ reference: orders.reference }).from(orders).get()?.reference ?? "";
  const k = reviewCapability(SITE_SECRET, reference, "review");
  const stop = reviewCapability(SITE_SECRET, reference, "review-stop");
  const form = { "content-type": "application/x-www-form-urlencoded" };
  expect((await site.request(`/en/mon-avis?order=${reference}&k=${k}`)).status).toBe(200);
  expect((await site.request(`/en/mon-avis?order=${reference}&k=${k}x`)).status).toBe(404);
  const body = new URLSearchParams({ order: reference, k, locale: "en", rating: "5", text: "x", consent: "yes" }).toString();
  // Mistyped (a one-letter text): back to the review page with the errors (Post/Redirect/Get).
  const mistyped = await site.request("/api/reviews", { method: "POST", headers: form, body });
  expect(mistyped.status).toBe(303);
  expect(mistyped.headers.get("location")).toContain("status=invalid");
  expect((await site.request(`/reviews/stop?order=${reference}&k=${stop}&lang=en`)).status).toBe(200);
  expect((await site.request(`/reviews/stop?order=${reference}&k=${stop}`, { method: "POST", headers: form, body: "" })).status).toBe(200);
  const all = site.logs.join("\n");
  expect(logEntries(site.logs).some((e) => e.msg === "review e-mails stopped by the buyer")).toBe(true);
  for (const secret of [k, stop]) expect(all).not.toContain(secret);
});
