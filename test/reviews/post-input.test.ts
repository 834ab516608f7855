import { afterAll, beforeAll, expect, test } from "bun:test";
import { ORDER_PAGES_RATE_LIMIT } from "../../server/shop/checkout/refund-controller";
import { createTestSite, type TestSite } from "../support/app";

// Writing a review: what cannot be read or cannot be a review form is refused before any order is
// looked up: a script gets the JSON refusal, the page's form goes back to its review page saying why,
// and the order pages' limit counts a post before its body is read.

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const LINK = { order: "A1B2C3", k: "A".repeat(22) };
const JSON_TYPE = { "content-type": "application/json" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };
const post = (body: string, headers: Record<string, string> = JSON_TYPE) => site.request("/api/reviews", { method: "POST", headers, body });
const answer = async (response: Response) => ({ status: response.status, said: typeof (await response.json()).error === "string" });
const refused = (status: number) => ({ status, said: true });

test("a review post that cannot be read or cannot be a review form is refused: 422, 400, 415, 413; an unsigned link 403", async () => {
  expect(await answer(await post(JSON.stringify({ ...LINK, k: "short" })))).toEqual(refused(422));
  expect(await answer(await post(JSON.stringify({ k: LINK.k })))).toEqual(refused(400));
  expect(await answer(await post(JSON.stringify({ ...LINK, rating: 5 })))).toEqual(refused(400));
  expect(await answer(await post("{not json"))).toEqual(refused(400));
  expect(await answer(await post("order=A1B2C3", { "content-type": "text/plain" }))).toEqual(refused(415));
  expect(await answer(await post(JSON.stringify({ ...LINK, text: "a".repeat(17 * 1024) })))).toEqual(refused(413));
  expect(await answer(await post(JSON.stringify({ ...LINK, rating: "5", text: "Works well on the TV and the phone." })))).toEqual(
    refused(403),
  );
});

test("a refused form post goes back to its review page in its language, and past the limit says to wait, before its body is read", async () => {
  const from = { ...FORM_TYPE, "x-forwarded-for": "198.51.100.42" };
  const wrongKey = await post(new URLSearchParams({ order: LINK.order, k: "short", locale: "it" }).toString(), from);
  expect({ status: wrongKey.status, location: wrongKey.headers.get("location") }).toEqual({
    status: 303,
    location: expect.stringMatching(/^\/it\/[^?]+\?order=&k=&status=error$/),
  });
  for (let i = 1; i < ORDER_PAGES_RATE_LIMIT.limit; i++) await post(new URLSearchParams({ ...LINK, locale: "es" }).toString(), from);
  const limited = await post(new URLSearchParams({ ...LINK, locale: "es" }).toString(), from);
  expect({ status: limited.status, location: limited.headers.get("location") }).toEqual({
    status: 303,
    location: expect.stringMatching(new RegExp(`^/es/[^?]+\\?order=${LINK.order}&k=${LINK.k}&status=rate-limited$`)),
  });
});
