import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { emailLeads, orders } from "../../db/schema";
import { ORDER_PAGES_RATE_LIMIT } from "../../server/shop/checkout/refund-controller";
import { TEST_CHECKOUT_RATE_LIMIT } from "../../server/shop/checkout/test-checkout-controller";
import { UNSUBSCRIBE_RATE_LIMIT } from "../../server/shop/leads/unsubscribe";
import { devicesLink } from "../../server/shop/licenses/tokens";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";

// The devices page, the unsubscribe address and the test checkout's card form each read or write
// the database for whoever calls them: past a per-client limit they answer 429 with Retry-After,
// and change nothing.

const FORM = { "content-type": "application/x-www-form-urlencoded" };

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const retryAfter = (response: Response) => Number(response.headers.get("retry-after"));

test("the devices page answers 429 with Retry-After past its limit, and shows no device", async () => {
  const s = (site = await createTestSite());
  await payWithTestCard(s, { locale: "en", email: "buyer@example.com" });
  const reference = s.db.select().from(orders).get()?.reference ?? "";
  const link = new URL(await devicesLink(s.licenseKeys, "http://localhost", reference, "en", new Date()));
  const path = link.pathname + link.search;
  // It counts among the client's order pages (success, refund, devices).
  for (let i = 0; i < ORDER_PAGES_RATE_LIMIT.limit; i++) expect((await s.request(path)).status).toBe(200);
  const refused = await s.request(path);
  expect(refused.status).toBe(429);
  expect(retryAfter(refused)).toBeGreaterThan(0);
  expect(refused.headers.get("referrer-policy")).toBe("strict-origin");
  const html = await refused.text();
  expect(html).toContain("Too many requests");
  expect(html).not.toContain('data-island="devices"');
});

test("unsubscribing answers 429 with Retry-After past its limit, and the lead stays subscribed", async () => {
  const s = (site = await createTestSite());
  const token = "0123456789abcdef0123456789abcdef";
  await s.write((tx) =>
    tx
      .insert(emailLeads)
      .values({ email: "lead@example.com", source: "exit_popup", locale: "en", createdAt: new Date(), unsubscribeToken: token })
      .run(),
  );
  // Someone trying tokens: every try counts, found or not.
  for (let i = 0; i < UNSUBSCRIBE_RATE_LIMIT.limit; i++) {
    const wrong = `${i.toString(16).padStart(2, "0")}${"0".repeat(30)}`;
    expect(
      (await s.request(`/unsubscribe?token=${wrong}`, i % 2 === 0 ? {} : { method: "POST", body: "List-Unsubscribe=One-Click" })).status,
    ).toBe(404);
  }
  const page = await s.request(`/unsubscribe?token=${token}`);
  expect(page.status).toBe(429);
  expect(retryAfter(page)).toBeGreaterThan(0);
  expect(page.headers.get("referrer-policy")).toBe("strict-origin");
  expect(await page.text()).toContain("Réessayez dans quelques minutes");
  const oneClick = await s.request(`/unsubscribe?token=${token}`, { method: "POST", headers: FORM, body: "List-Unsubscribe=One-Click" });
  expect(oneClick.status).toBe(429);
  expect(retryAfter(oneClick)).toBeGreaterThan(0);
  expect(s.db.select().from(emailLeads).where(eq(emailLeads.email, "lead@example.com")).get()?.unsubscribedAt).toBeNull();
});

test("the test checkout's card form answers 429 with Retry-After past its limit, and pays nothing", async () => {
  const s = (site = await createTestSite());
  const start = await s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  const cardPage = start.headers.get("location") ?? "";
  expect(cardPage).toStartWith("/checkout/test/");
  const card = (number: string) =>
    new URLSearchParams({
      email: "buyer@example.com",
      name: "Camille Durand",
      city: "Lyon",
      card: number,
      expiry: "12/34",
      cvc: "123",
    }).toString();
  // A script trying cards: each declined.
  for (let i = 0; i < TEST_CHECKOUT_RATE_LIMIT.limit; i++)
    expect((await s.request(cardPage, { method: "POST", headers: FORM, body: card("4000 0000 0000 0002") })).status).toBe(402);
  const refused = await s.request(cardPage, { method: "POST", headers: FORM, body: card("4242 4242 4242 4242") });
  expect(refused.status).toBe(429);
  expect(retryAfter(refused)).toBeGreaterThan(0);
  expect(await refused.text()).toContain("Too many attempts");
  expect(
    s.db
      .select()
      .from(orders)
      .all()
      .map((o) => o.status),
  ).toEqual(["pending"]);
});
