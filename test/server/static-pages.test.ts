import { afterAll, beforeAll, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { STATIC_PAGE_CACHE_CONTROL } from "../../server/site/pages/static-pages";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";

// Pages that depend only on their route and language are the same bytes for every visitor
// (docs/product.md, "Languages and routes"), so that they are rendered and compressed once and a
// CDN may keep them.

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const ENCODINGS = ["br", "gzip", null] as const;
const headersFor = (encoding: string | null, extra: Record<string, string> = {}) =>
  encoding === null ? extra : { "accept-encoding": encoding, ...extra };
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

/** Every page of the route table in every language, a flag variant of each form page, and the 404 page. */
const STATIC_PATHS = [
  ...PAGE_IDS.flatMap((page) => LOCALES.map((locale) => pathFor(page, locale))),
  "/?lead=sent",
  "/en?lead=rate-limited",
  "/it/paiement?error=provider",
  "/es/access?status=sent",
];

test("the same page, language and encoding: the same bytes and the same strong ETag, whoever asks", async () => {
  for (const path of STATIC_PATHS) {
    const etags = new Set<string>();
    for (const encoding of ENCODINGS) {
      const first = await site.request(path, { headers: headersFor(encoding) });
      // Another visitor: another address, cookies, a proxy's headers. None of it is in the page.
      const second = await site.request(path, {
        headers: headersFor(encoding, { cookie: "seen=1", "x-forwarded-for": "203.0.113.9", "user-agent": "Other/1.0" }),
      });
      expect({ path, encoding, status: first.status }).toEqual({ path, encoding, status: 200 });
      expect(first.headers.get("content-encoding")).toBe(encoding);
      const etag = first.headers.get("etag") ?? "";
      expect({ path, encoding, etag: /^"[A-Za-z0-9_-]{16,}"$/.test(etag) }).toEqual({ path, encoding, etag: true });
      expect(second.headers.get("etag")).toBe(etag);
      expect(await bytesOf(second)).toEqual(await bytesOf(first));
      etags.add(etag);
    }
    // Each encoding is its own representation, with its own validator.
    expect({ path, etags: etags.size }).toEqual({ path, etags: ENCODINGS.length });
  }
});

test("the compressed bodies are the page itself", async () => {
  const plain = await (await site.request("/en")).text();
  expect(brotliDecompressSync(await bytesOf(await site.request("/en", { headers: { "accept-encoding": "br" } }))).toString()).toBe(plain);
  expect(gunzipSync(await bytesOf(await site.request("/en", { headers: { "accept-encoding": "gzip" } }))).toString()).toBe(plain);
});

test("a query the page does not read does not change it", async () => {
  const plain = await bytesOf(await site.request("/en", { headers: { "accept-encoding": "br" } }));
  const tracked = await site.request("/en?utm_source=newsletter&fbclid=abc", { headers: { "accept-encoding": "br" } });
  expect(await bytesOf(tracked)).toEqual(plain);
  // A flag the page does read gives its own page.
  const flagged = await bytesOf(await site.request("/en?lead=sent", { headers: { "accept-encoding": "br" } }));
  expect(flagged).not.toEqual(plain);
});

test("If-None-Match with the page's ETag answers 304 without a body; another ETag gets the page", async () => {
  for (const encoding of ENCODINGS) {
    const first = await site.request("/paiement", { headers: headersFor(encoding) });
    const etag = first.headers.get("etag") ?? "";
    const again = await site.request("/paiement", { headers: headersFor(encoding, { "if-none-match": etag }) });
    expect({ encoding, status: again.status }).toEqual({ encoding, status: 304 });
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe(STATIC_PAGE_CACHE_CONTROL);
    expect(again.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect((await bytesOf(again)).byteLength).toBe(0);
    // A proxy may weaken the validator, and a client may send several.
    const listed = await site.request("/paiement", { headers: headersFor(encoding, { "if-none-match": `"old", W/${etag}` }) });
    expect(listed.status).toBe(304);
    const stale = await site.request("/paiement", { headers: headersFor(encoding, { "if-none-match": '"not-this-page"' }) });
    expect(stale.status).toBe(200);
    expect(await bytesOf(stale)).toEqual(await bytesOf(first));
  }
  // The ETag of the brotli body does not validate the gzip one.
  const br = (await site.request("/paiement", { headers: { "accept-encoding": "br" } })).headers.get("etag") ?? "";
  expect((await site.request("/paiement", { headers: { "accept-encoding": "gzip", "if-none-match": br } })).status).toBe(200);
});

test("the 404 page is the same bytes for every unknown path of a language, and is never a 304", async () => {
  const a = await site.request("/en/nothing-here", { headers: { "accept-encoding": "br" } });
  const b = await site.request("/en/nor/here?x=1", { headers: { "accept-encoding": "br" } });
  expect([a.status, b.status]).toEqual([404, 404]);
  expect(await bytesOf(b)).toEqual(await bytesOf(a));
  expect(a.headers.get("etag")).toBeNull();
  const conditional = await site.request("/en/nothing-here", { headers: { "if-none-match": "*" } });
  expect(conditional.status).toBe(404);
});

test("pages the same for everyone may be kept by a shared cache; pages of a visitor or an order, and API answers, by none", async () => {
  for (const path of [...STATIC_PATHS, "/nowhere"]) {
    expect({ path, cache: (await site.request(path)).headers.get("cache-control") }).toEqual({ path, cache: STATIC_PAGE_CACHE_CONTROL });
  }
  expect(STATIC_PAGE_CACHE_CONTROL).toMatch(/^public, .*s-maxage=\d+/);

  const paid = await payWithTestCard(site, { locale: "en", email: "buyer@example.com" });
  const orderPage = await site.request(paid.successPath);
  expect(orderPage.status).toBe(200);
  expect(await orderPage.text()).toContain("buyer@example.com");
  const testCheckout = await site.request(paid.cardPage);
  const unknownOrder = await site.request("/payment-success?session_id=cs_test_unknown");
  const api = await site.request("/api/social-proof");
  const apiError = await site.request("/api/leads", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const health = await site.request("/healthz");
  const unsubscribe = await site.request("/unsubscribe?token=0123456789abcdef0123456789abcdef");
  for (const [name, response] of Object.entries({ orderPage, testCheckout, unknownOrder, api, apiError, health, unsubscribe })) {
    expect({ name, cache: response.headers.get("cache-control") }).toEqual({ name, cache: "no-store" });
    expect({ name, etag: response.headers.get("etag") }).toEqual({ name, etag: null });
  }
});

test("every page, static or made for one request, has the strict CSP without a nonce", async () => {
  const paid = await payWithTestCard(site, { locale: "fr", email: "csp@example.com" });
  const paths = [...STATIC_PATHS, "/nowhere", paid.successPath, paid.cardPage, "/unsubscribe?token=0123456789abcdef0123456789abcdef"];
  for (const path of paths) {
    for (const encoding of ENCODINGS) {
      const response = await site.request(path, { headers: headersFor(encoding) });
      const directives = (response.headers.get("content-security-policy") ?? "").split("; ");
      expect({ path, scripts: directives.find((d) => d.startsWith("script-src")) }).toEqual({ path, scripts: "script-src 'self'" });
      for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
        expect({ path, directive, present: directives.includes(directive) }).toEqual({ path, directive, present: true });
      }
      expect({ path, loose: directives.some((d) => /unsafe-|nonce-|\*/.test(d)) }).toEqual({ path, loose: false });
    }
  }
});
