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

const beacon = (s: TestSite, who: Record<string, string>, body: Record<string, string | number>) =>
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
  // The sale is the newsletter's: its row of the revenue table (no discount code: a dash in the code column).
  expect(text).toMatch(/newsletter\s*—\s*1\s*€29\.99/);
});

test("the audience page is the owner's alone", async () => {
  const s = await createTestSite();
  sites.push(s);
  const page = await s.request("/admin/audience");
  expect(page.status).toBe(303);
});

test("real-user speed: the 75th percentile of LCP, INP and CLS per page and device class, each against its 'good' threshold", async () => {
  const s = await createTestSite({ env: { TRUST_PROXY: "true" } });
  sites.push(s);
  const measures: [device: string, metric: string, values: number[]][] = [
    ["mobile", "LCP", [1200, 1800, 2300, 2400]],
    ["mobile", "INP", [50, 120, 180, 350]],
    ["mobile", "CLS", [0, 0.05, 0.3, 0.31]],
    ["desktop", "LCP", [3000, 3100, 3200, 4000]],
  ];
  let n = 10;
  for (const [device, metric, values] of measures)
    for (const value of values)
      expect((await beacon(s, visitor(n++), { kind: "vital", path: "/en", device, metric, value })).status).toBe(204);
  const cookie = await ownerCookie(s);
  const text = plainText(await (await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } })).text());
  // Three of four measures at or under the figure shown; over the threshold is "needs work".
  expect(text).toMatch(/landing Phone 2,400 ms \(good\) 190 ms \(good\) 0\.31 \(needs work\) 4/);
  expect(text).toMatch(/landing Computer 3,300 ms \(needs work\) — — 4/);
});

test("one visitor reading the four languages on a phone then a computer: each language and device gets its own page views", async () => {
  const s = await createTestSite({ env: { TRUST_PROXY: "true" } });
  sites.push(s);
  const a = visitor(7);
  for (const device of ["mobile", "desktop"])
    for (const path of ["/", "/en", "/it", "/es"]) expect((await beacon(s, a, { kind: "pageview", path, device })).status).toBe(204);
  // The visitor saw the payment page in English only.
  await beacon(s, a, { kind: "pageview", path: "/en/paiement", device: "desktop" });

  const cookie = await ownerCookie(s);
  const page = await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } });
  const html = await page.text();
  const rows = (id: string) => {
    const table = html.slice(html.indexOf(`id="${id}"`), html.indexOf("</table>", html.indexOf(`id="${id}"`)));
    return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((r) => plainText(r[1] ?? "").trim()).filter((r) => !/^\D+$/.test(r));
  };
  // Per language: the one visitor in each, with the views it made in that language.
  expect(rows("top-languages").sort()).toEqual(["en 1 3", "es 1 2", "fr 1 2", "it 1 2"]);
  expect(rows("top-devices").sort()).toEqual(["Computer 1 5", "Phone 1 4"]);
  // The whole: one visitor, nine page views.
  expect(plainText(html)).toMatch(/1\s*Visitors\s*9\s*Page views/);
  // The payment page was reached in English, not in the other languages.
  const byLocale = rows("funnel-locale").join(" | ");
  expect(byLocale).not.toMatch(/fr 1 1/);
});
