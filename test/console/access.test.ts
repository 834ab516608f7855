import { expect, test } from "bun:test";
import { createTestSite } from "../support/app";
import { ownerCookie } from "./owner";

/** Every page of the console: without a session each one sends the browser to the sign-in page. */
const PAGES = [
  "/admin",
  "/admin/orders",
  "/admin/orders?q=someone%40example.com",
  "/admin/orders/1",
  "/admin/leads",
  "/admin/leads.csv",
  "/admin/support",
  "/admin/mail",
  "/admin/activity",
  "/admin/security",
  "/admin/no-such-page",
];

/** Every endpoint that changes something: without a session each one answers 401 and changes nothing. */
const ACTIONS = [
  "/admin/sign-out",
  "/admin/api/confirm/options",
  "/admin/api/confirm",
  "/admin/orders/1/refund",
  "/admin/orders/1/resend",
  "/admin/orders/1/license",
  "/admin/orders/1/devices/reset",
  "/admin/orders/1/devices/1/free",
  "/admin/leads/erase",
  "/admin/mail/1/retry",
  "/admin/sessions/1/end",
  "/admin/passkeys/1/remove",
  "/admin/api/passkeys/register",
];

test("without a session every console page redirects to the sign-in page and every action answers 401", async () => {
  const site = await createTestSite();
  try {
    for (const path of PAGES) {
      const response = await site.request(path);
      expect({ path, status: response.status, location: response.headers.get("location") }).toEqual({
        path,
        status: 303,
        location: "/admin/sign-in",
      });
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    for (const path of ACTIONS) {
      const response = await site.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
    }
    // The passkey registration without an invite is an action of a signed-in owner.
    const options = await site.request("/admin/api/passkeys/register-options", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(options.status).toBe(401);
  } finally {
    await site.close();
  }
});

test("a cookie that names no session opens nothing", async () => {
  const site = await createTestSite();
  try {
    const response = await site.request("/admin/orders", { headers: { cookie: "owner=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/sign-in");
  } finally {
    await site.close();
  }
});

test("the sign-in page is served to anyone, never cached, never indexed, never framed, with a strict CSP", async () => {
  const site = await createTestSite();
  try {
    const response = await site.request("/admin/sign-in", { headers: { "accept-language": "en-GB,en;q=0.8" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-robots-tag")).toContain("noindex");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(html).toContain("Sign in with a passkey");
    expect(html).toContain('lang="en-GB"');
    // The console's script, under /admin only, is served with it.
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await site.request(script ?? "");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
  } finally {
    await site.close();
  }
});

test("a signed-in owner sees console pages; an unknown console page is a 404 then", async () => {
  const site = await createTestSite();
  try {
    const cookie = await ownerCookie(site);
    const security = await site.request("/admin/security", { headers: { cookie } });
    expect(security.status).toBe(200);
    expect(security.headers.get("x-robots-tag")).toContain("noindex");
    const missing = await site.request("/admin/no-such-page", { headers: { cookie } });
    expect(missing.status).toBe(404);
  } finally {
    await site.close();
  }
});

test("a console POST sent from another site is refused, even with the owner's cookie, and the session stays", async () => {
  const site = await createTestSite();
  try {
    const cookie = await ownerCookie(site);
    const forged = await site.request("/admin/sign-out", {
      method: "POST",
      headers: {
        cookie,
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    expect(forged.status).toBe(403);
    expect((await site.request("/admin/security", { headers: { cookie } })).status).toBe(200);
  } finally {
    await site.close();
  }
});
