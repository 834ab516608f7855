import { expect, test } from "bun:test";
import { CONSOLE_CSP } from "../../server/owner/console/http";
import { CONSOLE_MAX_BODY_BYTES } from "../../server/owner/console/kit";
import { createTestSite, type TestSite } from "../support/app";
import { ownerCookie } from "./owner";

// The console's routes declare their input (body, path, query) and the site's parser reads it; a
// refusal is answered the console's way: a page in the owner's language (JSON under /admin/api/),
// never the site's JSON, and nothing about the input to someone without a session.

const EN = { "accept-language": "en" };
const FORM = { ...EN, "content-type": "application/x-www-form-urlencoded" };

async function withOwner(run: (site: TestSite, cookie: string) => Promise<void>): Promise<void> {
  const site = await createTestSite();
  try {
    await run(site, await ownerCookie(site));
  } finally {
    await site.close();
  }
}

/** A console page refusing the request: its status, its text, the console's own headers. */
async function refusedPage(response: Response, status: number, text: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("text/html");
  expect(response.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(await response.text()).toContain(text);
}

const BAD_REQUEST = "This request could not be read. Go back to the page and try again.";
const NOT_FOUND = "This console page does not exist.";

/** Signed-in form routes, each with a form its page would send. */
const FORMS: [string, string][] = [
  ["/admin/codes", "code=SPRING&kind=percent&value=10"],
  ["/admin/codes/SPRING/disable", ""],
  ["/admin/partners", "name=Ciné+Club&commission=10"],
  ["/admin/leads/erase", "email=paul%40example.com"],
  ["/admin/reviews/1/publish", ""],
  ["/admin/reviews/1/refuse", "reason=spam"],
  ["/admin/reviews/1/reply", "reply=Merci"],
  ["/admin/reviews/figures", "kind=buyers&threshold=10"],
  ["/admin/orders/1/refund", "confirm=yes"],
  ["/admin/orders/1/approve-refund", "confirm=yes"],
  ["/admin/orders/1/license", "enabled=no"],
];

/** Signed-in routes whose path names a row by its id, with an id that cannot be one. */
const BAD_IDS = [
  "/admin/codes/no%20such%20code!/disable",
  "/admin/reviews/abc/publish",
  "/admin/reviews/1x/reply",
  "/admin/sessions/-1/end",
  "/admin/passkeys/abc/remove",
  "/admin/mail/1.5/retry",
  "/admin/orders/abc/resend",
  "/admin/orders/1/devices/x/free",
  "/admin/orders/x/devices/reset",
  "/admin/content/guide/Not_A_Device/move",
];

test("a console form sent as JSON, too large, or with a field of the wrong shape is refused on a console page, in the owner's language", async () => {
  await withOwner(async (site, cookie) => {
    for (const [path] of FORMS) {
      const json = await site.request(path, { method: "POST", headers: { cookie, ...EN, "content-type": "application/json" }, body: "{}" });
      await refusedPage(json, 415, BAD_REQUEST);
      const huge = await site.request(path, {
        method: "POST",
        headers: { cookie, ...FORM },
        body: `x=${"a".repeat(CONSOLE_MAX_BODY_BYTES)}`,
      });
      await refusedPage(huge, 413, BAD_REQUEST);
    }
    // A discount code of a kind the form never offers.
    await refusedPage(
      await site.request("/admin/codes", { method: "POST", headers: { cookie, ...FORM }, body: "code=SPRING&kind=gift&value=10" }),
      400,
      BAD_REQUEST,
    );
    // An id in the path that cannot be one is a page that does not exist.
    await refusedPage(
      await site.request("/admin/codes/no%20such%20code!/disable", { method: "POST", headers: { cookie, ...FORM }, body: "" }),
      404,
      NOT_FOUND,
    );
  });
});

test("without a session, a console form's input is not looked at: the answer is the same 401 whatever was sent", async () => {
  const site = await createTestSite();
  try {
    for (const [path, form] of FORMS) {
      for (const init of [
        { headers: FORM, body: form },
        { headers: { ...EN, "content-type": "application/json" }, body: "{}" },
        { headers: FORM, body: `x=${"a".repeat(CONSOLE_MAX_BODY_BYTES)}` },
        { headers: FORM, body: "kind=gift" },
      ]) {
        const response = await site.request(path, { method: "POST", ...init });
        expect({ path, status: response.status }).toEqual({ path, status: 401 });
      }
    }
    for (const path of BAD_IDS) {
      const response = await site.request(path, { method: "POST", headers: FORM, body: "" });
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
    }
  } finally {
    await site.close();
  }
});

test("a console page whose address names no row it could show is the page that does not exist; without a session, the sign-in page", async () => {
  await withOwner(async (site, cookie) => {
    for (const path of [
      "/admin/orders/abc",
      "/admin/orders/99999999999999",
      "/admin/orders/1/receipt.pdf",
      "/admin/orders/x/invoice.pdf",
    ]) {
      await refusedPage(await site.request(path, { headers: { cookie, ...EN } }), 404, NOT_FOUND);
      const anonymous = await site.request(path);
      expect({ path, status: anonymous.status, location: anonymous.headers.get("location") }).toEqual({
        path,
        status: 303,
        location: "/admin/sign-in",
      });
    }
  });
});

test("a console route that reads no body answers whatever was sent: an unknown address is not found, signing out signs out", async () => {
  await withOwner(async (site, cookie) => {
    const garbage = { method: "POST", headers: { cookie, ...EN, "content-type": "application/json" }, body: "{not json" };
    await refusedPage(await site.request("/admin/no-such-page", garbage), 404, NOT_FOUND);
    const out = await site.request("/admin/sign-out", garbage);
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/admin/sign-in?notice=signed-out");
  });
});

test("a console page's notice in the address is shown only when the page knows it; anything else is ignored, never refused", async () => {
  await withOwner(async (site, cookie) => {
    const known = await site.request("/admin/codes?done=created", { headers: { cookie, ...EN } });
    expect(known.status).toBe(200);
    const plain = await (await site.request("/admin/codes", { headers: { cookie, ...EN } })).text();
    for (const query of ["done=<b>hi</b>", "done=created&done=disabled", "problem=%ZZ", "done="]) {
      const response = await site.request(`/admin/codes?${query}`, { headers: { cookie, ...EN } });
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      expect(await response.text()).toBe(plain);
    }
    expect(await known.text()).not.toBe(plain);
    for (const path of ["/admin/leads?erased=abc", "/admin/security?codes-left=1000", "/admin/partners?problem=<i>", "/admin/mail?x=1"]) {
      const response = await site.request(path, { headers: { cookie, ...EN } });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
    // A count the address names is said; the period asked is the one shown, a wrong one refused by the page.
    expect(await (await site.request("/admin/leads?erased=3", { headers: { cookie, ...EN } })).text()).toContain("3 items erased.");
    expect(await (await site.request("/admin/leads?erased=abc", { headers: { cookie, ...EN } })).text()).not.toContain("erased.");
    const period = await site.request("/admin/partners.csv?from=2026-01-01&to=2026-01-31", { headers: { cookie } });
    expect(period.headers.get("content-disposition")).toBe('attachment; filename="partners-2026-01-01-2026-01-31.csv"');
  });
});

test("the open sign-in routes refuse what cannot be read in the owner's language: the recovery form on the sign-in page, the passkey routes in JSON", async () => {
  const site = await createTestSite();
  try {
    const JSON_EN = { ...EN, "content-type": "application/json" };
    // The recovery form: whatever is wrong with what was sent, the sign-in page saying the code is not valid.
    for (const init of [
      { headers: JSON_EN, body: '{"code":"A"}' },
      { headers: FORM, body: `code=${"A".repeat(CONSOLE_MAX_BODY_BYTES)}` },
      { headers: FORM, body: "code=" },
    ]) {
      const response = await site.request("/admin/sign-in/recovery", { method: "POST", ...init });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
      expect(await response.text()).toContain("This code is not valid or has already been used.");
    }
    const badRequest = { error: BAD_REQUEST };
    for (const path of ["/admin/api/sign-in", "/admin/api/passkeys/register-options", "/admin/api/passkeys/register"]) {
      const form = await site.request(path, { method: "POST", headers: FORM, body: "invite=x" });
      expect({ path, status: form.status, body: await form.json() }).toEqual({ path, status: 415, body: badRequest });
      const huge = await site.request(path, { method: "POST", headers: JSON_EN, body: `{"x":"${"a".repeat(CONSOLE_MAX_BODY_BYTES)}"}` });
      expect({ path, status: huge.status, body: await huge.json() }).toEqual({ path, status: 413, body: badRequest });
      const broken = await site.request(path, { method: "POST", headers: JSON_EN, body: "{not json" });
      expect({ path, status: broken.status, body: await broken.json() }).toEqual({ path, status: 400, body: badRequest });
    }
    // A registration with an invite but no passkey's answer is a bad request; one naming no invite
    // (or something that cannot be one), without a session, the sign-in refusal whatever else it sent.
    const invited = { method: "POST", headers: JSON_EN, body: `{"invite":"${"A".repeat(24)}"}` };
    const noAnswer = await site.request("/admin/api/passkeys/register", invited);
    expect({ status: noAnswer.status, body: await noAnswer.json() }).toEqual({ status: 400, body: badRequest });
    for (const body of ['{"name":7}', '{"invite":"short"}']) {
      const anonymous = await site.request("/admin/api/passkeys/register", { method: "POST", headers: JSON_EN, body });
      expect({ body, status: anonymous.status, json: await anonymous.json() }).toEqual({
        body,
        status: 401,
        json: { error: "Sign in to the console first" },
      });
    }
  } finally {
    await site.close();
  }
});

test("the sign-in page says only a notice it knows", async () => {
  const site = await createTestSite();
  try {
    const plain = await (await site.request("/admin/sign-in", { headers: EN })).text();
    const expired = await (await site.request("/admin/sign-in?notice=expired", { headers: EN })).text();
    expect(expired).not.toBe(plain);
    for (const query of ["notice=<b>hi</b>", "notice=expired&notice=signed-out", "notice="]) {
      const response = await site.request(`/admin/sign-in?${query}`, { headers: EN });
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      expect(await response.text()).toBe(plain);
    }
  } finally {
    await site.close();
  }
});

/** The content's and the catalogue's forms, read within their own larger limit (a section in four languages). */
const CONTENT_FORMS: [string, string][] = [
  ["/admin/content/publish", "revision=0"],
  ["/admin/content/discard", "revision=0"],
  ["/admin/content/rebase", "revision=0"],
  ["/admin/content/offer", "revision=0"],
  ["/admin/content/texts/hero", "revision=0"],
  ["/admin/content/faq/answer", "question=Why%3F&lang=en"],
  ["/admin/content/faq/new", "revision=0"],
  ["/admin/content/faq/faq1", "revision=0"],
  ["/admin/content/faq/faq1/up", "revision=0"],
  ["/admin/content/comparison", "revision=0"],
  ["/admin/content/restore", "version=0"],
  ["/admin/catalogue/rights", "rights:fr=x"],
  ["/admin/catalogue/claims", "confirmed=yes"],
  ["/admin/catalogue/captions", "captions:fr="],
];
const CONTENT_MAX_BYTES = 256 * 1024;

test("the content's and the catalogue's forms refuse what cannot be read on a console page, and nothing without a session", async () => {
  await withOwner(async (site, cookie) => {
    for (const [path, form] of CONTENT_FORMS) {
      const json = await site.request(path, { method: "POST", headers: { cookie, ...EN, "content-type": "application/json" }, body: "{}" });
      await refusedPage(json, 415, BAD_REQUEST);
      const huge = await site.request(path, { method: "POST", headers: { cookie, ...FORM }, body: `x=${"a".repeat(CONTENT_MAX_BYTES)}` });
      await refusedPage(huge, 413, BAD_REQUEST);
      for (const init of [
        { headers: FORM, body: form },
        { headers: { ...EN, "content-type": "application/json" }, body: "{}" },
      ]) {
        const anonymous = await site.request(path, { method: "POST", ...init });
        expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
      }
    }
    // A revision, a version or a language that cannot be one.
    for (const [path, body] of [
      ["/admin/content/publish", "revision=abc"],
      ["/admin/content/offer", "revision="],
      ["/admin/content/faq/faq1/toggle", ""],
      ["/admin/content/restore", "version=-1"],
      ["/admin/content/faq/answer", "question=Why%3F&lang=de"],
      ["/admin/content/faq/answer", "question=+++&lang=en"],
    ] as const)
      await refusedPage(await site.request(path, { method: "POST", headers: { cookie, ...FORM }, body }), 400, BAD_REQUEST);
    // A section, an entry or a move that cannot be one is a page that does not exist.
    for (const path of ["/admin/content/texts/nope", "/admin/content/faq/Not_An_Entry", "/admin/content/faq/faq1/sideways"]) {
      await refusedPage(await site.request(path, { method: "POST", headers: { cookie, ...FORM }, body: "revision=0" }), 404, NOT_FOUND);
      const anonymous = await site.request(path, { method: "POST", headers: FORM, body: "revision=0" });
      expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
    }
    for (const path of ["/admin/content/texts/nope", "/admin/content/faq/Not_An_Entry"])
      await refusedPage(await site.request(path, { headers: { cookie, ...EN } }), 404, NOT_FOUND);
    // The pages' notices: only one they know, anything else ignored.
    for (const path of [
      "/admin/content",
      "/admin/content/offer",
      "/admin/content/texts/hero",
      "/admin/content/history",
      "/admin/catalogue",
    ]) {
      const plain = await (await site.request(path, { headers: { cookie, ...EN } })).text();
      const odd = await site.request(`${path}?done=<b>hi</b>`, { headers: { cookie, ...EN } });
      expect({ path, status: odd.status }).toEqual({ path, status: 200 });
      expect(await odd.text()).toBe(plain);
      const known = await (
        await site.request(`${path}?done=${path === "/admin/catalogue" ? "rights" : "saved"}`, { headers: { cookie, ...EN } })
      ).text();
      expect({ path, same: known === plain }).toEqual({ path, same: false });
    }
  });
});
