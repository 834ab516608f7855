import { afterEach, expect, test } from "bun:test";
import { orders } from "../../db/schema";
import { createTestSite, type TestSite } from "../support/app";

// A page on another site must not be able to make a visitor's browser sign them up, open checkouts
// or pay (a form that posts here). Browsers say where a request comes from (Sec-Fetch-Site, Origin);
// programs send neither and are not refused.

let site: TestSite;
afterEach(() => site?.close());

const EVIL = "https://evil.example";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const leadForm = new URLSearchParams({ email: "visitor@example.com", source: "exit_popup", locale: "fr" }).toString();
const leadCount = (s: TestSite) => s.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM email_leads").get()?.n;

const postLead = (s: TestSite, headers: Record<string, string>) =>
  s.request("/api/leads", { method: "POST", headers: { ...FORM, ...headers }, body: leadForm });
const postPayment = (s: TestSite, headers: Record<string, string>) =>
  s.request("/api/payment", { method: "POST", headers: { ...FORM, ...headers }, body: "locale=fr&acceptTerms=yes" });

test("a form on another site posting to /api/leads is refused with 403 JSON and stores nothing", async () => {
  site = await createTestSite();
  const refused: Record<string, string>[] = [
    { origin: EVIL },
    { origin: "null" },
    { "sec-fetch-site": "cross-site", origin: EVIL },
    { "sec-fetch-site": "same-site", origin: "https://blog.localhost" },
    // Sec-Fetch-Site is a client's word: an Origin that is not this site's settles it.
    { "sec-fetch-site": "same-origin", origin: EVIL },
    { "sec-fetch-site": "same-origin", origin: "http://localhost:8443" },
    { "sec-fetch-site": "none", origin: EVIL },
    { "sec-fetch-site": "cross-site", origin: "null" },
  ];
  for (const headers of refused) {
    const response = await postLead(site, headers);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Cross-site request refused" });
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  }
  expect(leadCount(site)).toBe(0);
});

test("a form on another site posting to /api/payment is refused and creates no order", async () => {
  site = await createTestSite();
  const response = await postPayment(site, { origin: EVIL, "sec-fetch-site": "cross-site" });
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ error: "Cross-site request refused" });
  expect(site.db.select().from(orders).all()).toHaveLength(0);
});

test("the test card form posted from another site is refused and pays nothing", async () => {
  site = await createTestSite();
  const created = await postPayment(site, {});
  const url = created.headers.get("location")!;
  const card = new URLSearchParams({
    email: "a@example.com",
    name: "A B",
    city: "Lyon",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  }).toString();
  const response = await site.request(url, { method: "POST", headers: { ...FORM, origin: EVIL }, body: card });
  expect(response.status).toBe(403);
  expect(response.headers.get("content-type")).toStartWith("text/plain");
  expect(
    site.db
      .select()
      .from(orders)
      .all()
      .map((o) => o.status),
  ).toEqual(["pending"]);
});

test("same-origin posts, with or without JavaScript, and posts with neither header still work", async () => {
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" } });
  // Form posts (no JavaScript) and fetch() from the site's own pages, as browsers send them.
  expect((await postLead(site, { origin: "http://localhost", "sec-fetch-site": "same-origin" })).status).toBe(303);
  expect((await postLead(site, { origin: "http://localhost" })).status).toBe(303);
  expect((await postLead(site, { "sec-fetch-site": "none" })).status).toBe(303);
  // A form on a page sent with Referrer-Policy: no-referrer (an older page, another browser):
  // the browser hides its origin as "null" and still says same-origin.
  expect((await postLead(site, { origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(303);
  // The public address (behind a proxy the server may see another origin than the browser).
  expect((await postLead(site, { origin: "https://shop.example" })).status).toBe(303);
  // curl, the desktop app: neither header.
  expect((await postLead(site, {})).status).toBe(303);
  const json = await site.request("/api/leads", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost", "sec-fetch-site": "same-origin" },
    body: JSON.stringify({ email: "js@example.com", source: "exit_popup", ip_hash: null }),
  });
  expect(json.status).toBe(201);
  expect((await postPayment(site, { origin: "https://shop.example", "sec-fetch-site": "same-origin" })).status).toBe(303);
});

test("behind a trusted proxy that ends TLS, the browser's https origin is the request's own", async () => {
  site = await createTestSite({ env: { TRUST_PROXY: "true" } });
  const response = await site.app.handle(
    new Request("http://shop.example/api/leads", {
      method: "POST",
      headers: { ...FORM, origin: "https://shop.example", "x-forwarded-proto": "https" },
      body: leadForm,
    }),
  );
  expect(response.status).toBe(303);
  const wrongScheme = await site.app.handle(
    new Request("http://shop.example/api/leads", { method: "POST", headers: { ...FORM, origin: "https://shop.example" }, body: leadForm }),
  );
  expect(wrongScheme.status).toBe(403);
});

test("cross-site GETs are untouched; the Stripe webhook, one-click unsubscribe and the licence API are not refused", async () => {
  site = await createTestSite();
  const crossSite = { origin: EVIL, "sec-fetch-site": "cross-site" };
  expect((await site.request("/", { headers: { "sec-fetch-site": "cross-site" } })).status).toBe(200);
  for (const path of ["/api/stripe/webhook", "/unsubscribe", "/api/licenses/check"]) {
    const response = await site.request(path, { method: "POST", headers: { ...FORM, ...crossSite }, body: "x=1" });
    expect({ path, status: response.status }).not.toEqual({ path, status: 403 });
  }
});
