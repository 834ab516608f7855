import { afterAll, beforeAll, expect, test } from "bun:test";
import { ORDER_PAGES_RATE_LIMIT } from "../../server/shop/checkout/refund-controller";
import { createTestSite, type TestSite } from "../support/app";

// Deleting a review: what cannot be read or cannot be a review link is refused before any order is
// looked up, in JSON (the page's form and a script alike), and the order pages' limit applies.

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const LINK = { order: "A1B2C3", k: "A".repeat(22) };
const JSON_TYPE = { "content-type": "application/json" };
const del = (body: string, headers: Record<string, string> = JSON_TYPE) =>
  site.request("/api/reviews/delete", { method: "POST", headers, body });
const answer = async (response: Response) => ({ status: response.status, said: typeof (await response.json()).error === "string" });
const refused = (status: number) => ({ status, said: true });

test("a review deletion that cannot be read or cannot be a link is refused: 422, 400, 415, 413; an unsigned link 403", async () => {
  expect(await answer(await del(JSON.stringify({ ...LINK, k: "short" })))).toEqual(refused(422));
  expect(await answer(await del(JSON.stringify({ k: LINK.k })))).toEqual(refused(400));
  expect(await answer(await del(JSON.stringify({ ...LINK, locale: "de" })))).toEqual(refused(400));
  expect(await answer(await del("{not json"))).toEqual(refused(400));
  expect(await answer(await del("order=A1B2C3", { "content-type": "text/plain" }))).toEqual(refused(415));
  expect(await answer(await del(JSON.stringify({ ...LINK, x: "a".repeat(16 * 1024) })))).toEqual(refused(413));
  expect(await answer(await del(JSON.stringify(LINK)))).toEqual(refused(403));
  const form = await del(new URLSearchParams({ ...LINK, locale: "en" }).toString(), {
    "content-type": "application/x-www-form-urlencoded",
  });
  expect(form.status).toBe(403);
  expect(form.headers.get("content-type")).toContain("text/html");
});

test("past the order pages' limit a review deletion is refused with 429 and when to try again, before its body is read", async () => {
  const from = { ...JSON_TYPE, "x-forwarded-for": "198.51.100.41" };
  for (let i = 0; i < ORDER_PAGES_RATE_LIMIT.limit; i++) await del(JSON.stringify(LINK), from);
  const limited = await del("{not json", from);
  expect(await answer(limited)).toEqual(refused(429));
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
});
