import { afterEach, expect, test } from "bun:test";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";
import { payWithTestCard } from "../support/purchase";
import { plainSpaces } from "../support/text";

// The Audience page once showed "visitors who bought 150 %" and "checkout started 3 (150 %)": buyers
// whose visit was never counted (no JavaScript, so no beacon), a buyer paying twice, and buyers who
// paid from the landing page's own pay button without opening the payment page. Every rate it shows
// is a share of a group its part belongs to, so never above 100 %, and the buyers the counting did
// not see are said apart.

const plainText = (html: string) => plainSpaces(html.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&")).replace(/\s+/g, " ");

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${n} Safari/537.36`;
const visitor = (n: number) => ({ "x-forwarded-for": `198.51.100.${n}`, "user-agent": browser(n) });

async function buy(s: TestSite, who: Record<string, string>, email: string, locale = "en") {
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: { ...FORM, ...who },
    body: `locale=${locale}&acceptTerms=yes`,
  });
  const card = new URLSearchParams({ email, name: "Bea", city: "Lyon", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  const paid = await s.request(start.headers.get("location") ?? "", {
    method: "POST",
    headers: { ...FORM, ...who },
    body: card.toString(),
  });
  expect(paid.status).toBe(303);
}

test("buyers the counting did not see, a buyer paying twice and a pay button on the landing page never make a rate above 100 %", async () => {
  const s = (site = await createTestSite({ env: { TRUST_PROXY: "true" } }));
  const [a, b, c] = [visitor(1), visitor(2), visitor(3)];
  const beacon = (who: Record<string, string>, path: string) =>
    s.request("/api/beacon", {
      method: "POST",
      headers: { "content-type": "text/plain", ...who },
      body: JSON.stringify({ kind: "pageview", path, device: "desktop" }),
    });
  // Two counted visitors: one opens the payment page and pays twice the same day; the other pays
  // from the landing page's button without opening the payment page.
  expect((await beacon(a, "/en")).status).toBe(204);
  await beacon(a, "/en/paiement");
  await buy(s, a, "a@example.com");
  await buy(s, a, "a-gift@example.com");
  await beacon(b, "/en");
  await buy(s, b, "b@example.com");
  // A third buyer without JavaScript: never counted as a visitor.
  await buy(s, c, "c@example.com");
  // And one through a client the counting ignores altogether (no browser).
  await payWithTestCard(s, { locale: "en", email: "d@example.com" });

  const cookie = await ownerCookie(s);
  const text = plainText(await (await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } })).text());
  const rates = [...text.matchAll(/(\d+(?:\.\d+)?)\s?%/g)].map((m) => Number(m[1]));
  expect(rates.length).toBeGreaterThan(3);
  for (const r of rates) expect(r).toBeLessThanOrEqual(100);
  // All traffic: 2 visitors, both went to pay, both started a checkout, both bought.
  expect(text).toMatch(/All\s*2\s*2 \(100\s?%\)\s*2 \(100\s?%\)\s*2 \(100\s?%\)\s*0 \(0\s?%\)/);
  expect(text).toMatch(/100\s?%\s*Visitors who bought/);
  // The paid orders are all there, and the ones whose visit was not counted are said apart.
  expect(text).toMatch(/5\s*Paid orders/);
  expect(text).toContain("2 paid orders came from visits that were not counted");
});

test("one visitor paying in two languages is one buyer (100 %, never 200 %), counted once in each language's row", async () => {
  const s = (site = await createTestSite({ env: { TRUST_PROXY: "true" } }));
  const a = visitor(7);
  const beacon = (path: string) =>
    s.request("/api/beacon", {
      method: "POST",
      headers: { "content-type": "text/plain", ...a },
      body: JSON.stringify({ kind: "pageview", path, device: "desktop" }),
    });
  expect((await beacon("/paiement")).status).toBe(204);
  await beacon("/en/paiement");
  await buy(s, a, "fr@example.com", "fr");
  await buy(s, a, "en@example.com", "en");
  const cookie = await ownerCookie(s);
  const text = plainText(await (await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } })).text());
  for (const r of [...text.matchAll(/(\d+(?:\.\d+)?)\s?%/g)].map((m) => Number(m[1]))) expect(r).toBeLessThanOrEqual(100);
  expect(text).toMatch(/100\s?%\s*Visitors who bought/);
  expect(text).toMatch(/2\s*Paid orders/);
  expect(text).toMatch(/All\s*1\s*1 \(100\s?%\)\s*1 \(100\s?%\)\s*1 \(100\s?%\)/);
});

test("in production the test checkout's orders are neither paid orders nor buyers of the funnel", async () => {
  const s = (site = await createTestSite({ env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", TRUST_PROXY: "true" } }));
  const a = visitor(8);
  await s.request("/api/beacon", {
    method: "POST",
    headers: { "content-type": "text/plain", ...a },
    body: JSON.stringify({ kind: "pageview", path: "/en/paiement", device: "desktop" }),
  });
  await buy(s, a, "tester@example.com");
  const cookie = await ownerCookie(s);
  const text = plainText(await (await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } })).text());
  expect(text).toMatch(/\b0\s*Paid orders/);
  expect(text).toMatch(/0\s?%\s*Visitors who bought/);
});
