import { afterEach, expect, test } from "bun:test";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { plainSpaces } from "../support/text";

const plainText = (html: string) => plainSpaces(html.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&")).replace(/\s+/g, " ");

const sites: TestSite[] = [];
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close();
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${n} Safari/537.36`;

/** One visitor: an address and a browser, as the trusted proxy reports them. */
const visitor = (n: number) => ({ "x-forwarded-for": `198.51.100.${n}`, "user-agent": browser(n) });

const beacon = (s: TestSite, who: Record<string, string>, body: Record<string, string>) =>
  s.request("/api/beacon", {
    method: "POST",
    headers: { "content-type": "text/plain", ...who },
    body: JSON.stringify({ device: "desktop", ...body }),
  });

test("three visitors from three sources, one buys and activates: the console shows the funnel and the sale's source", async () => {
  const s = await createTestSite({ env: { TRUST_PROXY: "true" } });
  sites.push(s);
  const [a, b, c] = [visitor(1), visitor(2), visitor(3)];
  expect((await beacon(s, a, { kind: "pageview", path: "/", referrer: "www.forum.example" })).status).toBe(204);
  await beacon(s, b, { kind: "pageview", path: "/en", utmSource: "newsletter", utmCampaign: "spring" });
  await beacon(s, c, { kind: "pageview", path: "/it" });
  // The newsletter reader goes on to pay.
  await beacon(s, b, { kind: "pageview", path: "/en/paiement" });
  const start = await s.request("/api/payment", { method: "POST", headers: { ...FORM, ...b }, body: "locale=en&acceptTerms=yes" });
  const cardPage = start.headers.get("location") ?? "";
  const card = new URLSearchParams({
    email: "b@example.com",
    name: "Bea",
    city: "Lyon",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  });
  expect((await s.request(cardPage, { method: "POST", headers: { ...FORM, ...b }, body: card.toString() })).status).toBe(303);
  const key = s.db.$client.query<{ key: string }, []>("SELECT key FROM licenses").get()?.key ?? "";
  const activated = await s.request("/api/licenses/activate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, instanceName: "Living-room TV" }),
  });
  expect(activated.status).toBeLessThan(300);

  const cookie = await ownerCookie(s);
  const page = await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } });
  expect(page.status).toBe(200);
  const text = plainText(await page.text());
  // All traffic: 3 visitors, 1 on the payment page, 1 checkout, 1 paid, 1 activated.
  expect(text).toMatch(/All\s*3\s*1 \(33\.3\s?%\)\s*1 \(100\s?%\)\s*1 \(100\s?%\)\s*1 \(100\s?%\)/);
  expect(text).toContain("forum.example");
  expect(text).toContain("spring");
  // The sale is the newsletter's: its row of the revenue table.
  expect(text).toMatch(/newsletter\s*1\s*€29\.99/);
});

test("the audience page is the owner's alone", async () => {
  const s = await createTestSite();
  sites.push(s);
  const page = await s.request("/admin/audience");
  expect(page.status).toBe(303);
});
