import { expect, test } from "bun:test";
import { createTestSite } from "../support/app";
import { confirmWithPasskey, ownerCookie } from "./owner";

/**
 * The console's routes reachable without a session, each for a reason: signing in (the page, a
 * recovery code, a passkey's challenge and answer), the invite link, and the console's own script
 * and stylesheet. Anything else under /admin is the signed-in owner's.
 */
const OPEN = [
  "GET /admin/sign-in",
  "POST /admin/sign-in/recovery",
  "POST /admin/api/sign-in/options",
  "POST /admin/api/sign-in",
  "GET /admin/invite/:token",
  "GET /admin/assets/:name",
];

/** A path of the route, its parameters filled in as a request could (an order 1, a device 1...). */
const pathOf = (route: string) => route.replace(/:[a-z]+/g, "1").replace("*", "anything");

test("without a session every console route is refused: pages (and their HEAD) go to the sign-in page, everything else is 401", async () => {
  const site = await createTestSite();
  try {
    // Taken from the app itself, so a route added later is covered without being listed here.
    const routes = site.app.routes.map((r) => `${r.method} ${r.path}`).filter((r) => / \/admin(\/|$)/.test(r));
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((r) => OPEN.includes(r)).sort()).toEqual([...OPEN].sort());
    for (const route of routes.filter((r) => !OPEN.includes(r))) {
      const [method = "", path = ""] = route.split(" ");
      const url = pathOf(path);
      if (method === "GET" && !path.startsWith("/admin/api/")) {
        for (const asked of ["GET", "HEAD"]) {
          const response = await site.request(url, { method: asked });
          expect({ route, asked, status: response.status, location: response.headers.get("location") }).toEqual({
            route,
            asked,
            status: 303,
            location: "/admin/sign-in",
          });
          expect(response.headers.get("cache-control")).toBe("no-store");
        }
      } else {
        const response = await site.request(url, { method, headers: { "content-type": "application/json" }, body: "{}" });
        expect({ route, status: response.status }).toEqual({ route, status: 401 });
        expect(response.headers.get("cache-control")).toBe("no-store");
      }
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
    const cookie = "owner=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const response = await site.request("/admin/orders", { headers: { cookie } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/sign-in?notice=expired");
    const action = await site.request("/admin/orders/1/refund", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "confirm=yes",
    });
    expect(action.status).toBe(401);
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

test("a refusal is written in the owner's language, on a page and in the JSON the console's script shows", async () => {
  const site = await createTestSite();
  try {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    // The page as read, its escaped apostrophes back to what the owner sees.
    const text = async (response: Response) => ({ status: response.status, text: (await response.text()).replaceAll("&#x27;", "'") });
    // Signed in with a recovery code: no passkey check yet, so exports and erasures are refused.
    const cookie = await ownerCookie(site);
    const exportIn = (language: string) => site.request("/admin/leads.csv", { headers: { cookie, "accept-language": language } });
    expect(await text(await exportIn("fr-FR,fr;q=0.9"))).toMatchObject({
      status: 403,
      text: expect.stringContaining("Un export demande une vérification par clé d'accès de moins de 5 minutes"),
    });
    expect(await text(await exportIn("en"))).toMatchObject({
      status: 403,
      text: expect.stringContaining("An export needs a passkey check from the last 5 minutes"),
    });
    const erase = (language: string, email: string) =>
      site.request("/admin/leads/erase", {
        method: "POST",
        headers: { cookie, ...form, "accept-language": language },
        body: `email=${email}`,
      });
    expect(await text(await erase("es", "x%40example.com"))).toMatchObject({
      status: 403,
      text: expect.stringContaining("Un borrado necesita una verificación con llave de acceso"),
    });
    await confirmWithPasskey(site, cookie);
    // A mistyped address, as the owner may type it.
    expect(await text(await erase("fr", "pas-une-adresse"))).toMatchObject({
      status: 400,
      text: expect.stringContaining("Ce n'est pas une adresse email : rien n'a été effacé."),
    });

    // The passkey check's answer the script shows beside its button.
    const answer = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
    };
    const confirm = await site.request("/admin/api/confirm", {
      method: "POST",
      headers: { cookie, "content-type": "application/json", "accept-language": "it" },
      body: JSON.stringify({ response: answer }),
    });
    expect(confirm.status).toBe(401);
    expect(await confirm.json()).toEqual({ error: "Impossibile verificare questa passkey: riprova." });
    const anonymous = await site.request("/admin/api/confirm/options", { method: "POST", headers: { "accept-language": "fr" } });
    expect(await anonymous.json()).toEqual({ error: "Connectez-vous d'abord à la console." });
  } finally {
    await site.close();
  }
});
