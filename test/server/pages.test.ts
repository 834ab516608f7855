import { afterAll, beforeAll, expect, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";
import { logEntries } from "../support/logs";

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

test("every page answers 200 in every language with its lang, title, description, canonical and alternates", async () => {
  for (const page of PAGE_IDS) {
    for (const locale of LOCALES) {
      const path = pathFor(page, locale);
      const response = await site.request(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const html = await response.text();
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(html).toContain(`<html lang="${locale}"`);
      expect(titleOf(html)?.length ?? 0).toBeGreaterThan(5);
      expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html).toContain(`<link rel="canonical" href="http://localhost:3000${path}"/>`);
      for (const other of LOCALES) {
        expect(html).toContain(`<link rel="alternate" hrefLang="${other}" href="http://localhost:3000${pathFor(page, other)}"/>`);
      }
      expect(html).toContain('<meta property="og:title"');
      expect(html).toContain('<meta property="og:image"');
    }
  }
});

test("pages are in their language", async () => {
  expect(titleOf(await (await site.request("/")).text())).toContain("un seul paiement");
  expect(titleOf(await (await site.request("/en")).text())).toContain("one payment for life");
  expect(await (await site.request("/es/payment-canceled")).text()).toContain("Pago cancelado");
  // Without an order id there is nothing to confirm: the page says what it is for.
  expect(await (await site.request("/payment-success")).text()).toContain("Vous cherchez votre commande\u00a0?");
});

test("on the success page of an order, the language links keep the order, by its signed reference", async () => {
  const start = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "locale=fr&acceptTerms=yes",
  });
  const checkoutId = (start.headers.get("location") ?? "").split("/").at(-1) ?? "";
  const html = (await (await site.request(`/payment-success?session_id=${checkoutId}`)).text()).replace(/&amp;/g, "&");
  expect(html).toMatch(/href="\/en\/payment-success\?order=[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}&t=[\w.-]+"/);
  expect(html).not.toContain(`session_id=${checkoutId}"`);
  expect(html).toContain('<link rel="canonical" href="http://localhost:3000/payment-success"/>');
  // Without an order, the plain pages.
  expect(await (await site.request("/payment-success")).text()).toContain('href="/en/payment-success"');
});

test("the footer's section links point to the landing page from every page", async () => {
  for (const path of ["/paiement", "/payment-canceled", "/en/payment-success"]) {
    const html = await (await site.request(path)).text();
    expect({ path, bare: /href="#(features|pricing|faq)"/.test(html) }).toEqual({ path, bare: false });
  }
  expect(await (await site.request("/paiement")).text()).toContain('href="/#pricing"');
});

test("after a plain form post that failed, the payment page says why", async () => {
  expect(await (await site.request("/en/paiement?error=rate-limited")).text()).toContain(
    "Too many attempts. Please wait a few minutes and try again.",
  );
  const provider = await (await site.request("/en/paiement?error=provider")).text();
  expect(provider).toContain("Please try again in a moment.");
  expect(await (await site.request("/en/paiement?error=whatever")).text()).toContain("Please try again in a moment.");
  expect(await (await site.request("/en/paiement")).text()).not.toContain('role="alert"');
});

test("an unknown path answers 404 with the localized not-found page, a link home, and a log line", async () => {
  const response = await site.request("/en/no-such-page");
  expect(response.status).toBe(404);
  const html = await response.text();
  expect(html).toContain('<html lang="en"');
  expect(html).toContain("Oops! Page not found");
  expect(html).toContain('href="/en"');
  expect(logEntries(site.logs).some((e) => e.msg === "404 page not found" && e.path === "/en/no-such-page")).toBe(true);

  const fr = await site.request("/nulle-part");
  expect(fr.status).toBe(404);
  expect(await fr.text()).toContain("Oups");
});

test("paths and methods the site does not serve get 404 or 405, in JSON for the API", async () => {
  const get = await site.request("/api/leads");
  expect(get.status).toBe(405);
  expect(get.headers.get("allow")).toBe("POST");
  expect(await get.json()).toEqual({ error: "Method not allowed: use POST" });
  const put = await site.request("/api/leads", { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
  expect(put.status).toBe(405);
  expect(put.headers.get("allow")).toBe("POST");
  const post = await site.request("/nope", { method: "POST" });
  expect(post.status).toBe(404);
  const postToPage = await site.request("/en", { method: "POST" });
  expect(postToPage.status).toBe(405);
  expect(postToPage.headers.get("allow")).toBe("GET");
  const missing = await site.request("/api/nothing-here");
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: "Not found" });
});

test("an unknown language prefix is a 404, not a French page", async () => {
  for (const path of ["/de", "/de/paiement", "/en/paiement/x", "/fr/nope"]) {
    expect({ path, status: (await site.request(path)).status }).toEqual({ path, status: 404 });
  }
});

test("the redundant /fr prefix redirects to the canonical French page, whatever the Host header says", async () => {
  const spoofed = await site.request("/fr", { headers: { host: "evil.example" } });
  expect(spoofed.headers.get("location")).toBe("/");
  const redirects: [string, string][] = [
    ["/fr/paiement", "/paiement"],
    ["/fr", "/"],
    ["/fr/payment-success", "/payment-success"],
  ];
  for (const [from, to] of redirects) {
    const response = await site.request(from);
    expect({ from, status: response.status, location: response.headers.get("location") }).toEqual({ from, status: 308, location: to });
  }
});

test("an exception while rendering answers 500 with the error screen and no stack trace", async () => {
  // Reviews come from the database; a broken entry makes the landing page throw while rendering.
  const broken = await createTestSite();
  // JSON.parse stands for a row gone wrong: the type says a review, the value is null.
  const proof = broken.content.current().site.proof;
  proof.count = 2;
  proof.ratingSum = 10;
  proof.latest = [JSON.parse("null")];
  try {
    const response = await broken.request("/en");
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toContain("TypeError");
    expect(html).not.toMatch(/at .*\.tsx/);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(broken.logs.some((l) => l.includes("render failed"))).toBe(true);
  } finally {
    broken.close();
  }
});

test("an exception in any route (page or API) is logged and answered without its text", async () => {
  const broken = await createTestSite();
  // The disk going away under the server: every database call now throws.
  broken.db.$client.close();
  try {
    const page = await broken.request("/payment-success?session_id=cs_test_abc");
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toMatch(/closed database|Error:/i);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    const api = await broken.request("/api/social-proof");
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({ error: "Internal error" });
    expect(broken.logs.filter((l) => l.includes("unhandled error")).length).toBeGreaterThanOrEqual(2);
  } finally {
    broken.close();
  }
});

test("security headers are on pages, assets, errors and API answers", async () => {
  const paths = ["/", "/en/paiement", "/nowhere", "/robots.txt", "/api/does-not-exist"];
  for (const path of paths) {
    const headers = (await site.request(path)).headers;
    const csp = headers.get("content-security-policy") ?? "";
    expect({ path, scripts: csp.split("; ").find((d) => d.startsWith("script-src")) }).toEqual({ path, scripts: "script-src 'self'" });
    expect(csp).not.toContain("unsafe-");
    expect(csp).not.toContain("nonce-");
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) expect(csp).toContain(directive);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("permissions-policy")).toContain("camera=()");
    expect(headers.get("strict-transport-security")).toBeNull();
  }
});

test("no page runs inline code: scripts come from the site's files, the page data is JSON", async () => {
  for (const page of PAGE_IDS) {
    for (const locale of LOCALES) {
      const path = pathFor(page, locale);
      const html = await (await site.request(path)).text();
      for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        // The page data and the structured data (JSON-LD) are data blocks: no browser runs them.
        const json = /type="application\/(?:ld\+)?json"/.test(attributes ?? "");
        // Anything else must be an external file, allowed by script-src 'self', with nothing inline.
        expect({ path, ok: json || (/ src="\/assets\/[^"]+"/.test(attributes ?? "") && body === "") }).toEqual({ path, ok: true });
      }
      expect({
        path,
        handlers: /<[^>]+\son[a-z]+=/i.test(html),
        jsUrls: /(?:href|src|action)="\s*javascript:/i.test(html),
        nonce: html.includes("nonce="),
      }).toEqual({
        path,
        handlers: false,
        jsUrls: false,
        nonce: false,
      });
    }
  }
});

test("the page's only script is a file of the site's own, which script-src 'self' allows: nothing inline, nothing per request", async () => {
  const html = await (await site.request("/")).text();
  const scripts = [...html.matchAll(/<script(?![^>]*type="application\/(?:ld\+)?json")([^>]*)>([^<]*)<\/script>/g)];
  expect(scripts.map((m) => [/ src="(\/assets\/entry-[a-z0-9]+\.js)"/.test(m[1]!), m[2]])).toEqual([[true, ""]]);
  expect(html).not.toContain("nonce=");
});

test("HSTS is sent over HTTPS and behind a trusted proxy that says so", async () => {
  const direct = await site.app.handle(new Request("https://localhost/"));
  expect(direct.headers.get("strict-transport-security")).toContain("max-age=");
  const untrusted = await site.request("/", { headers: { "x-forwarded-proto": "https" } });
  expect(untrusted.headers.get("strict-transport-security")).toBeNull();
  const proxied = await createTestSite({ env: { TRUST_PROXY: "true" } });
  try {
    const response = await proxied.request("/", { headers: { "x-forwarded-proto": "https" } });
    expect(response.headers.get("strict-transport-security")).toContain("max-age=");
  } finally {
    proxied.close();
  }
});

test("HTML is compressed when the client accepts it", async () => {
  const plain = await (await site.request("/")).text();
  const response = await site.request("/", { headers: { "accept-encoding": "gzip, deflate, br" } });
  expect(response.headers.get("content-encoding")).toBe("br");
  const body = new Uint8Array(await response.arrayBuffer());
  expect(body.byteLength).toBeLessThan(plain.length / 3);
  const text = brotliDecompressSync(body).toString("utf8");
  expect(text).toContain('<html lang="fr"');
  const gz = await site.request("/", { headers: { "accept-encoding": "gzip" } });
  expect(gz.headers.get("content-encoding")).toBe("gzip");
});

test("static assets have content-hashed names and are cached for a year", async () => {
  const html = await (await site.request("/")).text();
  const urls = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  expect(urls.some((u) => /\/assets\/entry-[a-z0-9]+\.js$/.test(u))).toBe(true);
  expect(urls.some((u) => /\/assets\/styles-[a-z0-9]+\.css$/.test(u))).toBe(true);
  for (const url of new Set(urls)) {
    const response = await site.request(url, { headers: { "accept-encoding": "br" } });
    expect({ url, status: response.status }).toEqual({ url, status: 200 });
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  }
  expect((await site.request("/assets/entry-nothere.js")).status).toBe(404);
});

test("the demo video is served at /demo-video.mp4 with byte ranges", async () => {
  const full = await site.request("/demo-video.mp4");
  expect(full.status).toBe(200);
  expect(full.headers.get("content-type")).toBe("video/mp4");
  const size = (await full.arrayBuffer()).byteLength;
  const part = await site.request("/demo-video.mp4", { headers: { range: "bytes=0-9" } });
  expect(part.status).toBe(206);
  expect(part.headers.get("content-range")).toBe(`bytes 0-9/${size}`);
  expect((await part.arrayBuffer()).byteLength).toBe(10);
  expect((await site.request("/demo-video.mp4", { headers: { range: `bytes=${size + 5}-` } })).status).toBe(416);
  const unreadable = await site.request("/demo-video.mp4", { headers: { range: "bytes=abc" } });
  expect(unreadable.status).toBe(200);
  expect((await unreadable.arrayBuffer()).byteLength).toBe(size);
});

test("no secret reaches the browser", async () => {
  const secretSite = await createTestSite({
    env: {
      STRIPE_SECRET_KEY: "sk_test_supersecret123",
      STRIPE_WEBHOOK_SECRET: "whsec_topsecret456",
      ANTHROPIC_API_KEY: "sk-ant-hidden-789",
      IP_HASH_SECRET: "pepper-pepper-pepper",
    },
  });
  try {
    for (const path of ["/", "/en/paiement", "/payment-success"]) {
      const html = await (await secretSite.request(path)).text();
      for (const secret of ["supersecret", "topsecret", "hidden-789", "pepper-pepper"]) expect(html).not.toContain(secret);
    }
  } finally {
    secretSite.close();
  }
});
