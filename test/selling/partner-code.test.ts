import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { formatExactMoney, formatMoney } from "../../shared/price";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";

// A partner created with a code: the buyer who comes through the partner's link (`?ref=`) sees the
// code applied on the payment page, with and without JavaScript (the server renders the page with
// `?ref=` per request), and pays the reduced price; a code the buyer types wins over the partner's.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
/** The page's text without its tags, spaces made plain. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/[\s\u00a0\u202f]+/g, " ");
const eur = (minor: number) => formatMoney(minor, "EUR", "fr").replace(/[\u00a0\u202f]/g, " ");
/** The code's figures, with their cents as the e-mail and the invoice write them. */
const exact = (minor: number) => formatExactMoney(minor, "EUR", "fr").replace(/[\u00a0\u202f]/g, " ");

/** What the pay form posts without JavaScript: its hidden fields and the code field as rendered, the box ticked. */
function payFormOf(html: string): URLSearchParams {
  const form = html.slice(html.indexOf('<form class="pay-form"'), html.indexOf("</form>"));
  const fields = new URLSearchParams();
  for (const m of form.matchAll(/<input type="hidden" name="([a-z]+)" value="([^"]*)"/g)) fields.set(m[1] ?? "", m[2] ?? "");
  fields.set("code", /<input[^>]*name="code"[^>]*value="([^"]*)"/.exec(form)?.[1] ?? "");
  fields.set("acceptTerms", "yes");
  return fields;
}

test("?ref= of a partner with a code: the page shows the code applied, the plain form pays the reduced price, attributed once", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "CINQ", "--amount", "5")).code).toBe(0);
  expect((await cli(s, "codes", "create", "PRESSE20", "--percent", "20")).code).toBe(0);
  expect((await cli(s, "partners", "create", "blogueur", "--commission", "20", "--code", "CINQ")).code).toBe(0);

  const answer = await s.request("/paiement?ref=blogueur");
  expect(answer.status).toBe(200);
  expect(answer.headers.get("set-cookie")).toBeNull();
  const html = await answer.text();
  const text = textOf(html);
  expect(text).toContain(`Code CINQ appliqué : ${exact(500)} de réduction.`);
  expect(text).toContain(`Payer ${eur(2499)}`);
  // The partner's code is not removed (an empty field gets it again at payment); another code may be typed.
  expect(text).not.toContain("Retirer le code");
  expect(html).toContain('<input type="hidden" name="ref" value="blogueur"/>');
  expect(html).toContain('<a class="lang" href="/en/paiement?ref=blogueur"');

  // Without JavaScript: the form as rendered goes to the card page for the reduced amount.
  const start = await s.request("/api/payment", { method: "POST", headers: FORM, body: payFormOf(html).toString() });
  expect(start.status).toBe(303);
  const cardPage = start.headers.get("location") ?? "";
  expect(cardPage).toStartWith("/checkout/test/");
  expect(textOf(await (await s.request(cardPage)).text())).toContain(eur(2499));
  const card = new URLSearchParams({
    email: "lea@example.com",
    name: "Léa",
    city: "Lyon",
    country: "FR",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  });
  expect((await s.request(cardPage, { method: "POST", headers: FORM, body: card.toString() })).status).toBe(303);
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "lea@example.com")).get();
  expect(order).toMatchObject({ status: "paid", partner: "blogueur", discountCode: "CINQ", amount: 2499 });
  expect(s.db.select().from(orders).all()).toHaveLength(1);
  const invoice = s.db
    .select()
    .from(invoices)
    .where(eq(invoices.orderId, order?.id ?? 0))
    .all();
  expect(invoice).toHaveLength(1);
  expect(invoice[0]).toMatchObject({ kind: "invoice", totalAmount: 2499 });

  // One use of the code, one paid order of the partner: commission 20 % of 24,99 € less 20 % VAT (20,83 €), rounded down.
  expect((await cli(s, "codes", "list")).said).toMatch(/\nCINQ\t5\.00 EUR off\talways\t1\t1\t24\.99 EUR\tactive\t/);
  expect((await cli(s, "partners", "list")).said).toMatch(/\nblogueur\t\d+\t1\t20\.83\t20 %\t4\.16\tCINQ\n/);
});

test("a code the buyer types wins over the partner's; the Apply button without JavaScript keeps the partner; an unusable partner code is left out", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "CINQ", "--amount", "5")).code).toBe(0);
  expect((await cli(s, "codes", "create", "PRESSE20", "--percent", "20")).code).toBe(0);
  expect((await cli(s, "partners", "create", "blogueur", "--code", "CINQ")).code).toBe(0);

  const own = await (await s.request("/paiement?ref=blogueur&code=presse20")).text();
  expect(textOf(own)).toContain(`Code PRESSE20 appliqué : ${exact(600)} de réduction.`);
  expect(textOf(own)).toContain("Retirer le code");
  expect(own).toContain('<a class="lang" href="/en/paiement?code=PRESSE20&amp;ref=blogueur"');

  // The Apply button of a page without JavaScript posts the pay form to the preview: back with both.
  const applied = await s.request("/api/payment/code", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ locale: "fr", code: "PRESSE20", ref: "blogueur" }).toString(),
  });
  expect(applied.headers.get("location")).toBe("/paiement?code=PRESSE20&ref=blogueur");

  // The form of that page pays the buyer's code, attributed to the partner.
  const start = await s.request("/api/payment", { method: "POST", headers: FORM, body: payFormOf(own).toString() });
  const cardPage = start.headers.get("location") ?? "";
  expect(cardPage).toStartWith("/checkout/test/");
  // 20 % of 29,99 € is 5,998 €: the page said 6,00 €, the order takes off the same cent (one rule, shared/discount-code.ts).
  expect(s.db.select().from(orders).get()).toMatchObject({
    partner: "blogueur",
    discountCode: "PRESSE20",
    listAmount: 2999,
    discountAmount: 600,
    amount: 2399,
  });
  expect(textOf(await (await s.request(cardPage)).text())).toContain(eur(2399));

  // A partner's code since disabled: the page shows the price, no refusal (the buyer typed nothing).
  expect((await cli(s, "codes", "disable", "CINQ")).code).toBe(0);
  const gone = textOf(await (await s.request("/paiement?ref=blogueur")).text());
  expect(gone).toContain(`Payer ${eur(2999)}`);
  expect(gone).not.toContain("CINQ");
  // A name no partner has: the plain page.
  const unknown = await (await s.request("/paiement?ref=personne")).text();
  expect(unknown).not.toContain('name="ref"');
  expect(textOf(unknown)).toContain(`Payer ${eur(2999)}`);
});

test("without JavaScript a refused code or an unticked box goes back to the payment page with the partner kept, and the order is theirs", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "partners", "create", "blogueur", "--commission", "10")).code).toBe(0);
  const html = await (await s.request("/en/paiement?ref=blogueur")).text();

  // A code nobody created: back to the page saying so, the partner in the address, no order.
  const typed = payFormOf(html);
  typed.set("code", "FAUX");
  const refused = await s.request("/api/payment", { method: "POST", headers: FORM, body: typed.toString() });
  expect({ status: refused.status, location: refused.headers.get("location") }).toEqual({
    status: 303,
    location: expect.stringMatching(/^\/en\/paiement\?error=code-[a-z-]+&ref=blogueur$/),
  });
  // The terms box left unticked: back with the partner too.
  const unticked = payFormOf(html);
  unticked.delete("acceptTerms");
  const consent = await s.request("/api/payment", { method: "POST", headers: FORM, body: unticked.toString() });
  expect(consent.headers.get("location")).toBe("/en/paiement?error=consent&ref=blogueur");
  expect(s.db.select().from(orders).all()).toEqual([]);

  // The page the buyer lands on carries the partner in its form: paying from it attributes the order.
  const again = await (await s.request(refused.headers.get("location") ?? "")).text();
  expect(again).toContain('<input type="hidden" name="ref" value="blogueur"/>');
  const start = await s.request("/api/payment", { method: "POST", headers: FORM, body: payFormOf(again).toString() });
  expect(start.headers.get("location") ?? "").toStartWith("/checkout/test/");
  expect(s.db.select().from(orders).all()).toMatchObject([{ partner: "blogueur", discountCode: null, amount: 2999 }]);
});
