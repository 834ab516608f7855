import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { discountCodes, orders, ownerActivity } from "../../db/schema";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";

// The console's discount codes: the owner creates and disables codes, sees each code's uses, paid
// orders and revenue with the orders made with it; the audience names the code beside the source.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

async function buyWith(s: TestSite, code: string, email: string) {
  // A browser's request: the counting keeps the checkout's visit (a request without a User-Agent is a program's).
  const browser = { ...FORM, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" };
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: browser,
    body: form({ locale: "en", acceptTerms: "yes", code }),
  });
  const cardPage = start.headers.get("location") ?? "";
  expect(cardPage).toStartWith("/checkout/test/");
  const body = form({ email, name: "Jo Martin", city: "Lyon", country: "FR", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  expect((await s.request(cardPage, { method: "POST", headers: FORM, body })).status).toBe(303);
  return s.db.select().from(orders).where(eq(orders.customerEmail, email)).get()!;
}

test("the owner creates a code in the console, buyers use it, the list shows its uses, orders and revenue; disabled, it is refused", async () => {
  site = await createTestSite();
  const s = site;
  const cookie = await ownerCookie(s);
  const post = (path: string, values: Record<string, string>) =>
    s.request(path, { method: "POST", headers: { cookie, ...FORM }, body: form(values) });

  // Mistakes are refused with what to change, in the owner's language, and create nothing.
  const bad = await post("/admin/codes", { code: "TOO", kind: "percent", value: "120" });
  expect(bad.headers.get("location")).toBe("/admin/codes?problem=percent");
  const badDates = await post("/admin/codes", { code: "DATES", kind: "amount", value: "5", starts: "2026-12-10", ends: "2026-12-01" });
  expect(badDates.headers.get("location")).toBe("/admin/codes?problem=order");
  expect(s.db.select().from(discountCodes).all()).toHaveLength(0);
  const problemPage = await (await s.request("/admin/codes?problem=order", { headers: { cookie, "accept-language": "en" } })).text();
  expect(problemPage).toContain("The last day is before the first day.");

  const created = await post("/admin/codes", { code: "winter-5", kind: "amount", value: "4,50", max: "10", note: "newsletter" });
  expect(created.headers.get("location")).toBe("/admin/codes?done=created");
  expect(s.db.select().from(discountCodes).get()).toMatchObject({
    code: "WINTER-5",
    kind: "amount",
    value: 450,
    maxUses: 10,
    note: "newsletter",
  });
  expect((await post("/admin/codes", { code: "WINTER-5", kind: "percent", value: "5" })).headers.get("location")).toBe(
    "/admin/codes?problem=exists",
  );

  const order = await buyWith(s, "winter-5", "jo@example.com");
  expect(order).toMatchObject({ amount: 2549, discountCode: "WINTER-5" });
  const page = await (await s.request("/admin/codes", { headers: { cookie, "accept-language": "en" } })).text();
  const row = page.slice(page.indexOf('data-code="WINTER-5"'), page.indexOf("</tr>", page.indexOf('data-code="WINTER-5"')));
  expect(row).toContain("€4.50 off");
  expect(row).toContain("<td>1 / 10</td><td>1</td><td>€25.49</td>");
  expect(row).toContain("newsletter");
  expect(page).toContain(`<a href="/admin/orders/${order.id}">${order.reference}</a>`);

  // The audience names the code beside the source of the visit that bought with it (here a visit the
  // counting never saw: a request without JavaScript).
  await s.analytics.flush();
  const audience = await (await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } })).text();
  const revenue = audience.slice(audience.indexOf('id="revenue-source"'));
  expect(revenue).toContain("<tr><td>Unknown (no JavaScript)</td><td>WINTER-5</td><td>1</td><td>€25.49</td></tr>");

  const disabled = await post("/admin/codes/WINTER-5/disable", {});
  expect(disabled.headers.get("location")).toBe("/admin/codes?done=disabled");
  expect((await post("/admin/codes/NOPE/disable", {})).status).toBe(404);
  const refused = await s.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: form({ locale: "en", acceptTerms: "yes", code: "WINTER-5" }),
  });
  expect(refused.headers.get("location")).toBe("/en/paiement?error=code-unknown");
  expect(
    s.db
      .select({ action: ownerActivity.action, detail: ownerActivity.detail })
      .from(ownerActivity)
      .all()
      .filter((a) => a.action.startsWith("code-")),
  ).toEqual([
    { action: "code-created", detail: "code WINTER-5" },
    { action: "code-disabled", detail: "code WINTER-5" },
  ]);
  // Without a session, nothing: the page sends to sign-in and a post changes nothing.
  expect((await s.request("/admin/codes")).status).toBe(303);
  const anonymous = await s.request("/admin/codes", {
    method: "POST",
    headers: FORM,
    body: form({ code: "FREE", kind: "percent", value: "100" }),
  });
  expect(anonymous.status).toBe(401);
  expect(s.db.select().from(discountCodes).all()).toHaveLength(1);
});

test("a code's days read as the owner reads dates, in the owner's language, through its last day", async () => {
  site = await createTestSite();
  const s = site;
  const cookie = await ownerCookie(s);
  const created = await s.request("/admin/codes", {
    method: "POST",
    headers: { cookie, ...FORM },
    body: form({ code: "NOEL", kind: "percent", value: "10", starts: "2026-12-20", ends: "2026-12-31" }),
  });
  expect(created.headers.get("location")).toBe("/admin/codes?done=created");
  const plain = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/[\s\u00a0\u202f]+/g, " ");
  const page = async (language: string) =>
    plain(await (await s.request("/admin/codes", { headers: { cookie, "accept-language": language } })).text());
  const french = await page("fr");
  expect(french).toContain("20 déc. 2026");
  expect(french).toContain("31 déc. 2026");
  expect(french).not.toContain("2026-12-31");
  expect(await page("en")).toContain("20 Dec 2026 to 31 Dec 2026");
});
