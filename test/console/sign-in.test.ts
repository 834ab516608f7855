import { expect, test } from "bun:test";
import { runCommand } from "../../server/owner/cli";
import { SIGN_IN_OPTIONS_RATE_LIMIT, SIGN_IN_RATE_LIMIT } from "../../server/owner/console/auth-routes";
import { consumeInvite, createInvite } from "../../server/owner/console/invites";
import { listPasskeys, storePasskey } from "../../server/owner/console/passkeys";
import { findSession, markVerified } from "../../server/owner/console/sessions";
import { createTestSite, type TestSite } from "../support/app";
import { cookieOf, ownerCookie, recoveryCodes, signInWithCode } from "./owner";

const MINUTE = 60 * 1000;

/** A site whose clock the test moves. */
async function siteWithClock(env: Record<string, string> = {}) {
  let at = Date.parse("2026-11-24T09:00:00Z");
  const site = await createTestSite({ env, now: () => new Date(at) });
  return { site, advance: (ms: number) => (at += ms) };
}

async function inviteLink(site: TestSite): Promise<string> {
  const out: string[] = [];
  const code = await runCommand(
    ["owner", "invite"],
    site.config,
    (l) => out.push(l),
    () => {},
  );
  expect(code).toBe(0);
  const link = /https?:\/\/\S+/.exec(out.join(""))?.[0];
  if (link === undefined) throw new Error(`no link in ${out.join("")}`);
  return link;
}

const registerOptions = (site: TestSite, invite: string) =>
  site.request("/admin/api/passkeys/register-options", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invite }),
  });

test("'owner invite' prints an absolute one-time link on PUBLIC_BASE_URL that opens the passkey page", async () => {
  const site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example.org" } });
  try {
    const link = await inviteLink(site);
    expect(link).toMatch(/^https:\/\/shop\.example\.org\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
    const page = await site.request(new URL(link).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-passkey="register"');
    const options = await registerOptions(site, link.split("/").at(-1) ?? "");
    expect(options.status).toBe(200);
    const { options: body } = await options.json();
    expect(body.rp.id).toBe("shop.example.org");
    expect(body.authenticatorSelection.userVerification).toBe("required");
  } finally {
    await site.close();
  }
});

test("an invite link used once is refused the second time", async () => {
  const site = await createTestSite();
  try {
    const link = await inviteLink(site);
    const token = link.split("/").at(-1) ?? "";
    // Registering the passkey uses it up, in the same transaction.
    expect(await site.write((tx) => consumeInvite(tx, token, new Date()))).toBe(true);
    expect(await site.write((tx) => consumeInvite(tx, token, new Date()))).toBe(false);
    const page = await site.request(new URL(link).pathname);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("site owner invite");
    expect((await registerOptions(site, token)).status).toBe(403);
  } finally {
    await site.close();
  }
});

test("an invite link is refused after 15 minutes", async () => {
  const { site, advance } = await siteWithClock();
  try {
    // Made at the site clock's start, as the CLI would at that moment.
    const { token } = await createInvite(site.write, new Date(Date.parse("2026-11-24T09:00:00Z")));
    advance(14 * MINUTE);
    expect((await site.request(`/admin/invite/${token}`)).status).toBe(200);
    advance(1 * MINUTE);
    expect((await site.request(`/admin/invite/${token}`)).status).toBe(403);
    expect((await registerOptions(site, token)).status).toBe(403);
  } finally {
    await site.close();
  }
});

test("a recovery code signs in once, says how many are left, and is refused the second time", async () => {
  const site = await createTestSite();
  try {
    const codes = await recoveryCodes(site);
    expect(codes).toHaveLength(10);
    // Typed in lower case without the dash, as from paper.
    const first = await signInWithCode(site, (codes[3] ?? "").toLowerCase().replace("-", " "));
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/admin/security?codes-left=9");
    const cookie = cookieOf(first);
    const security = await site.request(first.headers.get("location") ?? "", { headers: { cookie, "accept-language": "en" } });
    expect(await security.text()).toContain("Signed in with a recovery code: 9 left.");
    const again = await signInWithCode(site, codes[3] ?? "");
    expect(again.status).toBe(400);
    expect(again.headers.get("set-cookie")).toBeNull();
  } finally {
    await site.close();
  }
});

test("the session cookie is HttpOnly and SameSite=Strict; over HTTPS it is __Host- and Secure", async () => {
  const site = await createTestSite({ env: { TRUST_PROXY: "true" } });
  try {
    const [a, b] = await recoveryCodes(site);
    const plain = (await signInWithCode(site, a ?? "")).headers.get("set-cookie") ?? "";
    expect(plain).toMatch(/^owner=[A-Za-z0-9_-]{43}; Path=\/admin; HttpOnly; SameSite=Strict$/);
    const https = (await signInWithCode(site, b ?? "", { "x-forwarded-proto": "https" })).headers.get("set-cookie") ?? "";
    expect(https).toMatch(/^__Host-owner=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    // Only the hash of the token is stored.
    const token = https.split(";")[0]?.split("=")[1] ?? "";
    const stored = site.db.$client.query("SELECT token_hash FROM owner_sessions").all();
    expect(JSON.stringify(stored)).not.toContain(token);
  } finally {
    await site.close();
  }
});

test("a session ends after 30 minutes without use, and after 12 hours however used", async () => {
  const { site, advance } = await siteWithClock();
  try {
    const [a, b] = await recoveryCodes(site);
    const idle = cookieOf(await signInWithCode(site, a ?? ""));
    const busy = cookieOf(await signInWithCode(site, b ?? ""));
    advance(29 * MINUTE);
    expect((await site.request("/admin/security", { headers: { cookie: busy } })).status).toBe(200);
    advance(2 * MINUTE);
    const expired = await site.request("/admin/security", { headers: { cookie: idle } });
    expect(expired.status).toBe(303);
    // The sign-in page then says why the owner is there.
    expect(expired.headers.get("location")).toBe("/admin/sign-in?notice=expired");
    const signIn = await site.request("/admin/sign-in?notice=expired", { headers: { "accept-language": "en" } });
    expect(await signIn.text()).toContain("Your session has expired: sign in again.");
    // A form of a console page left open: a page that says so and leads back in, not JSON.
    const form = await site.request("/admin/orders/1/resend", {
      method: "POST",
      headers: { cookie: idle, "content-type": "application/x-www-form-urlencoded", "accept-language": "en" },
      body: "",
    });
    expect(form.status).toBe(401);
    expect(form.headers.get("content-type")).toContain("text/html");
    const page = await form.text();
    expect(page).toContain("Your session has expired: sign in again.");
    expect(page).toContain('href="/admin/sign-in"');
    // The other one, used every 20 minutes, lives until the 12th hour.
    for (let elapsed = 31; elapsed < 12 * 60 - 20; elapsed += 20) {
      advance(20 * MINUTE);
      expect((await site.request("/admin/security", { headers: { cookie: busy } })).status).toBe(200);
    }
    advance(20 * MINUTE);
    expect((await site.request("/admin/security", { headers: { cookie: busy } })).headers.get("location")).toBe(
      "/admin/sign-in?notice=expired",
    );
  } finally {
    await site.close();
  }
});

test("signing out ends the session on the server: the old cookie opens nothing", async () => {
  const site = await createTestSite();
  try {
    const [code] = await recoveryCodes(site);
    const cookie = cookieOf(await signInWithCode(site, code ?? ""));
    const out = await site.request("/admin/sign-out", { method: "POST", headers: { cookie } });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await site.request("/admin/security", { headers: { cookie } })).status).toBe(303);
    const log = await site.request("/admin/sign-in?notice=signed-out");
    expect(log.status).toBe(200);
  } finally {
    await site.close();
  }
});

test("the security page lists live sessions and ends another one", async () => {
  const site = await createTestSite();
  try {
    const [a, b] = await recoveryCodes(site);
    const phone = cookieOf(await signInWithCode(site, a ?? "", { "user-agent": "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile" }));
    const desk = cookieOf(await signInWithCode(site, b ?? "", { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" }));
    const page = await (await site.request("/admin/security", { headers: { cookie: desk, "accept-language": "en" } })).text();
    expect(page).toContain("Chrome / Android");
    expect(page).toContain("Firefox / Linux");
    const phoneRow = page.split("<tr").find((row) => row.includes("Chrome / Android")) ?? "";
    const phoneId = /action="\/admin\/sessions\/(\d+)\/end"/.exec(phoneRow)?.[1];
    const ended = await site.request(`/admin/sessions/${phoneId}/end`, { method: "POST", headers: { cookie: desk } });
    expect(ended.status).toBe(303);
    expect((await site.request("/admin/security", { headers: { cookie: phone } })).status).toBe(303);
    expect((await site.request("/admin/security", { headers: { cookie: desk } })).status).toBe(200);
    const activity = await (await site.request("/admin/activity", { headers: { cookie: desk, "accept-language": "en" } })).text();
    expect(activity).toContain("Session ended");
    expect(activity).toContain("Sign-in with a recovery code");
  } finally {
    await site.close();
  }
});

test("failed sign-ins are limited per client: past the limit even a good code is refused with 429", async () => {
  const site = await createTestSite();
  try {
    const [good] = await recoveryCodes(site);
    for (let i = 0; i < SIGN_IN_RATE_LIMIT.limit; i++) expect((await signInWithCode(site, "WRONG-CODE1")).status).toBe(400);
    const blocked = await signInWithCode(site, good ?? "");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    const passkey = await site.request("/admin/api/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(passkey.status).toBe(429);
  } finally {
    await site.close();
  }
});

test("a passkey can be removed while another remains; the last one stays", async () => {
  const site = await createTestSite();
  try {
    const cookie = await ownerCookie(site);
    const stored = (id: string, name: string) =>
      site.write((tx) => storePasskey(tx, { credentialId: id, publicKey: "pk", counter: 0, transports: "[]" }, name, new Date()));
    const phone = await stored("cred-phone", "Phone");
    const laptop = await stored("cred-laptop", "Laptop");
    const page = await (await site.request("/admin/security", { headers: { cookie, "accept-language": "en" } })).text();
    expect(page).toContain("Remove the passkey Laptop");
    expect((await site.request(`/admin/passkeys/${laptop}/remove`, { method: "POST", headers: { cookie } })).status).toBe(303);
    expect((await site.request(`/admin/passkeys/${phone}/remove`, { method: "POST", headers: { cookie } })).status).toBe(409);
    expect(listPasskeys(site.db).map((p) => p.name)).toEqual(["Phone"]);
  } finally {
    await site.close();
  }
});

test("a passkey registration that names a used or expired invite is refused: no passkey stored, no session", async () => {
  const { site, advance } = await siteWithClock();
  try {
    const answer = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: "AAAA", attestationObject: "AAAA" },
    };
    const register = (invite: string) =>
      site.request("/admin/api/passkeys/register", {
        method: "POST",
        headers: { "content-type": "application/json", "accept-language": "en" },
        body: JSON.stringify({ invite, name: "Replayed", response: answer }),
      });
    const used = await createInvite(site.write, new Date(Date.parse("2026-11-24T09:00:00Z")));
    expect(await site.write((tx) => consumeInvite(tx, used.token, new Date(Date.parse("2026-11-24T09:01:00Z"))))).toBe(true);
    const expired = await createInvite(site.write, new Date(Date.parse("2026-11-24T09:00:00Z")));
    advance(16 * MINUTE);
    for (const token of [used.token, expired.token]) {
      const refused = await register(token);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: "This invite link is used or expired" });
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
    expect(listPasskeys(site.db)).toEqual([]);
  } finally {
    await site.close();
  }
});

test("sign-in challenges are limited per client too: past the limit none is written, and the answer says when to try again", async () => {
  const site = await createTestSite();
  try {
    const ask = () => site.request("/admin/api/sign-in/options", { method: "POST", headers: { "accept-language": "en" } });
    const challenges = () => site.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM owner_challenges").get()?.n;
    for (let i = 0; i < SIGN_IN_OPTIONS_RATE_LIMIT.limit; i++) expect((await ask()).status).toBe(200);
    expect(challenges()).toBe(SIGN_IN_OPTIONS_RATE_LIMIT.limit);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toStartWith("Too many sign-in attempts: try again in");
    expect(challenges()).toBe(SIGN_IN_OPTIONS_RATE_LIMIT.limit);
  } finally {
    await site.close();
  }
});

test("adding a passkey needs a fresh check: a recovery-code sign-in allows it for 5 minutes, then a passkey check must come first", async () => {
  const { site, advance } = await siteWithClock();
  try {
    const cookie = await ownerCookie(site);
    const options = () =>
      site.request("/admin/api/passkeys/register-options", {
        method: "POST",
        headers: { cookie, "content-type": "application/json", "accept-language": "en" },
        body: "{}",
      });
    const security = async () => (await site.request("/admin/security", { headers: { cookie, "accept-language": "en" } })).text();
    // Just signed in with a recovery code: that is how a lost passkey is replaced.
    expect((await options()).status).toBe(200);
    expect(await security()).toContain('data-passkey="register"');

    const now = new Date(advance(6 * MINUTE));
    const refused = await options();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain("passkey check from the last 5 minutes");
    const register = await site.request("/admin/api/passkeys/register", {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({
        name: "",
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "public-key",
          clientExtensionResults: {},
          response: { clientDataJSON: "AAAA", attestationObject: "AAAA" },
        },
      }),
    });
    expect(register.status).toBe(403);
    expect(listPasskeys(site.db)).toEqual([]);
    const page = await security();
    expect(page).not.toContain('data-passkey="register"');
    expect(page).toContain("To add or remove a passkey, first confirm with a passkey you have");

    // A passkey check (the console's confirm ceremony) opens it again for 5 minutes.
    const session = findSession(site.db, cookie.split("=")[1] ?? "", now);
    if (session === null) throw new Error("no live session");
    await site.write((tx) => markVerified(tx, session.id, now));
    expect((await options()).status).toBe(200);
  } finally {
    await site.close();
  }
});
