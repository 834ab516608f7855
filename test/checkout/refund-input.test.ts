import { afterAll, beforeAll, expect, test } from "bun:test";
import { ORDER_PAGES_RATE_LIMIT } from "../../server/shop/checkout/refund-controller";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

// The refund confirmation's input, refused before anything is asked of the order: a form post goes
// back to its link's refund page (in its language) saying so, a script gets the refusal in JSON.

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const LINK = { order: "A1B2C3", t: "aaaa.bbbb.cccc" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const post = (body: string, headers: Record<string, string> = FORM) => site.request("/api/refund", { method: "POST", headers, body });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

test("a refund form that cannot be right goes back to its link's refund page, in its language, saying something went wrong", async () => {
  const unconfirmed = await post(form({ ...LINK, locale: "it", confirm: "no" }));
  expect(unconfirmed.status).toBe(303);
  expect(unconfirmed.headers.get("location")).toBe(`${pathFor("refund", "it")}?order=A1B2C3&t=aaaa.bbbb.cccc&status=error`);
  // Without a link it can name, the refund page in the default language.
  const noLink = await post(form({ order: "A1B2C3", locale: "en", confirm: "yes" }));
  expect(noLink.status).toBe(303);
  expect(noLink.headers.get("location")).toBe(pathFor("refund", "fr"));
  // A link the site never signed: back to its page, which says the link is not valid.
  const unsigned = await post(form({ ...LINK, locale: "en", confirm: "yes" }));
  expect(unsigned.status).toBe(303);
  expect(unsigned.headers.get("location")).toBe(`${pathFor("refund", "en")}?order=A1B2C3&t=aaaa.bbbb.cccc`);
});

test("a refund asked by a script is refused in JSON: 422 a value that cannot be right, 400 a wrong shape or choice, 415, 413, 403 an unsigned link", async () => {
  const json = { "content-type": "application/json" };
  const answer = async (response: Response) => ({ status: response.status, said: typeof (await response.json()).error === "string" });
  const refused = (status: number) => ({ status, said: true });
  expect(await answer(await post(JSON.stringify({ ...LINK, order: "A".repeat(41), confirm: "yes" }), json))).toEqual(refused(422));
  expect(await answer(await post(JSON.stringify({ ...LINK, t: "not-a-link", confirm: "yes" }), json))).toEqual(refused(422));
  expect(await answer(await post(JSON.stringify({ ...LINK, confirm: "no" }), json))).toEqual(refused(400));
  expect(await answer(await post(JSON.stringify({ ...LINK, confirm: "yes", locale: "de" }), json))).toEqual(refused(400));
  expect(await answer(await post(JSON.stringify({ ...LINK, order: 7, confirm: "yes" }), json))).toEqual({ status: 400, said: true });
  expect(await answer(await post("{not json", json))).toEqual({ status: 400, said: true });
  expect(await answer(await post("confirm=yes", { "content-type": "text/plain" }))).toEqual({ status: 415, said: true });
  expect(await answer(await post(JSON.stringify({ ...LINK, confirm: "yes", x: "a".repeat(5000) }), json))).toEqual({
    status: 413,
    said: true,
  });
  expect(await answer(await post(JSON.stringify({ ...LINK, confirm: "yes" }), json))).toEqual({ status: 403, said: true });
});

test("past the order pages' limit, a refund form goes back to its page saying so, and a script is told when to try again", async () => {
  const from = { ...FORM, "x-forwarded-for": "198.51.100.23" };
  for (let i = 0; i < ORDER_PAGES_RATE_LIMIT.limit; i++) await post(form({ ...LINK, locale: "fr", confirm: "no" }), from);
  const limited = await post(form({ ...LINK, locale: "es", confirm: "yes" }), from);
  expect(limited.status).toBe(303);
  expect(limited.headers.get("location")).toBe(`${pathFor("refund", "es")}?order=A1B2C3&t=aaaa.bbbb.cccc&status=rate-limited`);
  const script = await post(JSON.stringify({ ...LINK, confirm: "yes" }), {
    "content-type": "application/json",
    "x-forwarded-for": "198.51.100.23",
  });
  expect(script.status).toBe(429);
  expect(Number(script.headers.get("retry-after"))).toBeGreaterThan(0);
});
