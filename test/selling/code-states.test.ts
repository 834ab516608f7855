import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";

// A code's state as the owner reads it in `site codes list` and on the console's Codes page: one
// that has ended (its last day is over, Paris time), one not yet started, one used up and one
// disabled are not "active"; those a buyer may use now come first.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

/** 23:30 in Paris on 31 January 2027 (UTC+1): still the last day of a code ending that day, already 31 January in UTC too. */
const AT = new Date("2027-01-31T22:30:00Z");

async function cli(s: TestSite, ...argv: string[]) {
  const said: string[] = [];
  const code = await runCommand(
    argv,
    s.config,
    (l) => said.push(l),
    (l) => said.push(l),
    { now: () => AT },
  );
  return { code, said: said.join("") };
}

async function buyWith(s: TestSite, code: string, email: string) {
  const start = await s.request("/api/payment", { method: "POST", headers: FORM, body: form({ locale: "en", acceptTerms: "yes", code }) });
  const cardPage = start.headers.get("location") ?? "";
  expect(cardPage).toStartWith("/checkout/test/");
  const body = form({ email, name: "Jo Martin", city: "Lyon", country: "FR", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  expect((await s.request(cardPage, { method: "POST", headers: FORM, body })).status).toBe(303);
  expect(s.db.select().from(orders).where(eq(orders.customerEmail, email)).get()?.status).toBe("paid");
}

test("codes list and the console say each code's state at the app's clock, the usable ones first; plurals read right", async () => {
  site = await createTestSite({ now: () => AT });
  const s = site;
  expect((await cli(s, "codes", "create", "ENDED", "--percent", "10", "--ends", "2027-01-30")).code).toBe(0);
  expect((await cli(s, "codes", "create", "LASTDAY", "--percent", "10", "--ends", "2027-01-31")).code).toBe(0);
  expect((await cli(s, "codes", "create", "LATER", "--percent", "10", "--starts", "2027-02-01")).code).toBe(0);
  // The owner's sentence counts uses as a reader would: one use, two uses.
  expect(await cli(s, "codes", "create", "ONCE", "--amount", "5", "--max", "1")).toEqual({
    code: 0,
    said: "Created ONCE: 5.00 EUR off, no dates, at most 1 use.\n",
  });
  expect((await cli(s, "codes", "create", "TWICE", "--percent", "20", "--max", "2")).said).toBe(
    "Created TWICE: 20 %, no dates, at most 2 uses.\n",
  );
  expect((await cli(s, "codes", "create", "OFF", "--percent", "10")).code).toBe(0);
  expect((await cli(s, "codes", "disable", "OFF")).code).toBe(0);
  await buyWith(s, "ONCE", "once@example.com");

  const listed = (await cli(s, "codes", "list")).said.split("\n").filter((l) => l !== "");
  const states = listed.slice(1).map((l) => {
    const cells = l.split("\t");
    return [cells[0], cells[6]];
  });
  // Newest first within each state; a code valid through its last day still applies at 23:30 that day.
  expect(states).toEqual([
    ["TWICE", "active"],
    ["LASTDAY", "active"],
    ["LATER", "not yet valid"],
    ["ONCE", "used up"],
    ["ENDED", "expired"],
    ["OFF", "disabled"],
  ]);

  // The console says the same in the owner's language, in the same order.
  const cookie = await ownerCookie(s);
  const statesOn = async (language: string) => {
    const page = await (await s.request("/admin/codes", { headers: { cookie, "accept-language": language } })).text();
    return [...page.matchAll(/<tr data-code="([A-Z]+)">[\s\S]*?<td data-status="([a-z-]+)">(?:<form[^>]*>)?([^<]*)/g)].map((m) => [
      m[1],
      m[2],
      (m[3] ?? "").trim(),
    ]);
  };
  const fr = await statesOn("fr");
  expect(fr.map((r) => r[0])).toEqual(["TWICE", "LASTDAY", "LATER", "ONCE", "ENDED", "OFF"]);
  expect(fr.slice(0, 5)).toEqual([
    ["TWICE", "active", "actif"],
    ["LASTDAY", "active", "actif"],
    ["LATER", "scheduled", "pas encore valable"],
    ["ONCE", "used-up", "épuisé"],
    ["ENDED", "expired", "expiré"],
  ]);
  expect(fr[5]?.slice(0, 2)).toEqual(["OFF", "disabled"]);
  expect(fr[5]?.[2]).toStartWith("désactivé le");
  expect((await statesOn("en")).slice(2, 5).map((r) => r[2])).toEqual(["not yet valid", "used up", "expired"]);
  expect((await statesOn("it")).slice(2, 5).map((r) => r[2])).toEqual(["non ancora valido", "esaurito", "scaduto"]);
  expect((await statesOn("es")).slice(2, 5).map((r) => r[2])).toEqual(["aún no válido", "agotado", "caducado"]);
});
