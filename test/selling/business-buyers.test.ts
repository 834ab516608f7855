import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { createPaperwork } from "../../server/shop/paperwork/documents";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { ownerCookie } from "../console/owner";
import { pdfText } from "../paperwork/pdf-text";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";

// Business buyers: the payment page's company section, sent as a plain form (no JavaScript) and as
// the pay button's JSON. A German company with a valid VAT number is reverse-charged and pays the
// price excluding VAT, on the card page and at Stripe; a malformed number is refused and changes
// nothing; a French company pays French VAT with its details on the invoice and the credit note.

let site: TestSite | undefined;
let fake: FakeStripe;
beforeAll(() => {
  fake = startFakeStripe();
});
afterAll(() => fake.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const SELLER = { SELLER_VAT_ID: "FR40303265045" };

const startAsCompany = (s: TestSite, fields: Record<string, string>, locale = "en") =>
  s.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ locale, acceptTerms: "yes", ...fields }).toString(),
  });

async function payCard(s: TestSite, cardPage: string, email: string, country: string) {
  const body = new URLSearchParams({
    email,
    name: "Jonas Weber",
    city: "Berlin",
    country,
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  }).toString();
  const paid = await s.request(cardPage, { method: "POST", headers: FORM, body });
  expect(paid.status).toBe(303);
  return s.db.select().from(orders).where(eq(orders.customerEmail, email)).get()!;
}

async function documentText(s: TestSite, reference: string, kind: "invoice" | "credit-note" = "invoice"): Promise<string> {
  const file = await createPaperwork({ db: s.db, config: s.config, content: s.content }).invoiceByReference(reference, kind);
  expect(file).not.toBeNull();
  // Lines wrapped by the layout read as one.
  return pdfText(file?.content ?? Buffer.alloc(0)).replace(/\s+/g, " ");
}

const GERMAN = {
  company: "Weber Medien GmbH",
  companyAddress: "Friedrichstraße 10, 10117 Berlin",
  companyCountry: "DE",
  vatNumber: "de 136 695 976",
};

for (const scheme of ["fr", "oss"] as const) {
  test(`${scheme}: a German company with a valid VAT number pays the price excl. VAT, reverse-charged, both VAT numbers on the invoice and the credit note`, async () => {
    site = await createTestSite({ env: { VAT_SCHEME: scheme, ...SELLER } });
    const s = site;
    const start = await startAsCompany(s, GERMAN);
    expect(start.status).toBe(303);
    const cardPage = start.headers.get("location") ?? "";
    // 29.99 € less the 20 % French VAT it includes: 24.99 €, on the card page and charged.
    expect(await (await s.request(cardPage)).text()).toContain("€24.99");
    const order = await payCard(s, cardPage, "einkauf@weber-medien.de", "DE");
    expect(order).toMatchObject({
      status: "paid",
      amount: 2499,
      company: "Weber Medien GmbH",
      companyCountry: "DE",
      buyerVatNumber: "DE136695976",
    });
    expect(JSON.parse(order.taxEvidence ?? "null")).toMatchObject({
      rule: "reverse-charge",
      companyCountry: "DE",
      vatNumber: "DE136695976",
      vatNumberChecked: "check-digits",
      ipCountry: null,
    });
    // The console's order page says which rule applied and why, in the owner's language.
    const cookie = await ownerCookie(s);
    const orderPage = async (language: string) =>
      (await (await s.request(`/admin/orders/${order.id}`, { headers: { cookie, "accept-language": language } })).text())
        .replace(/<[^>]+>/g, " ")
        .replace(/&#x27;|&#39;/g, "'")
        .replace(/\s+/g, " ");
    expect(await orderPage("en")).toContain(
      "Why A company in another EU member state (Germany) with a VAT number: reverse charge; it pays the price excluding VAT and accounts for the VAT itself.",
    );
    expect((await orderPage("fr")).replace(/\u202f|\u00a0/g, " ")).toContain(
      "Motif Entreprise d'un autre État membre de l'UE (Allemagne) avec un numéro de TVA : autoliquidation ;",
    );
    const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
    expect(invoice).toMatchObject({
      vatRule: "reverse-charge",
      vatCountry: "DE",
      vatRate: 0,
      vatAmount: 0,
      netAmount: 2499,
      totalAmount: 2499,
    });
    const text = await documentText(s, order.reference);
    expect(text).toContain("Weber Medien GmbH");
    expect(text).toContain("Friedrichstraße 10, 10117 Berlin");
    expect(text).toContain("VAT no.: DE136695976");
    expect(text).toContain(
      "Autoliquidation (reverse charge): VAT is due by the customer (French CGI art. 283-2; Directive 2006/112/EC art. 196).",
    );
    expect(text).toContain("Seller's VAT no. FR40303265045; customer's VAT no. DE136695976.");
    expect(text).toContain("VAT: reverse charge €0.00 Total €24.99");
    expect(text).not.toContain("incl. VAT");
    expect(text).not.toContain("20%");
    // The VAT line names the rule: German VAT is not 0 %.
    expect(text).toContain("VAT: reverse charge €0.00");
    expect(text).not.toMatch(/VAT 0%/);

    // The refund and its credit note: what was paid, the company and the rule again.
    expect((await cli(s, "orders", "refund", String(order.id))).code).toBe(0);
    const note = s.db.select().from(invoices).where(eq(invoices.kind, "credit-note")).get()!;
    expect(note).toMatchObject({ vatRule: "reverse-charge", totalAmount: 2499, vatAmount: 0 });
    const credit = await documentText(s, order.reference, "credit-note");
    expect(credit).toContain("Weber Medien GmbH");
    expect(credit).toContain("Autoliquidation");
    expect(credit).toContain("VAT: reverse charge");
    expect(credit).toContain("-€24.99");

    // The console's export carries the company and the rule's evidence.
    const exported = await cli(s, "orders", "export");
    expect(exported.said).toContain("Weber Medien GmbH");
    expect(exported.said).toContain("DE136695976");
    expect(exported.said).toContain("reverse-charge");
  });
}

test("a code applies first, then the reverse charge: the invoice reads list price and reduction excl. VAT", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr", ...SELLER } });
  const s = site;
  expect((await cli(s, "codes", "create", "SPRING20", "--percent", "20")).code).toBe(0);
  const start = await startAsCompany(s, { ...GERMAN, code: "spring20" });
  const order = await payCard(s, start.headers.get("location") ?? "", "einkauf@weber-medien.de", "DE");
  // 29.99 − 20 % = 23.99 incl. VAT → 19.99 excl.; list 24.99 excl., so the reduction is 5.00 excl.
  expect(order).toMatchObject({ amount: 1999, listAmount: 2499, discountAmount: 500, discountCode: "SPRING20" });
  const text = await documentText(s, order.reference);
  expect(text).toContain("List price €24.99");
  expect(text).toContain("Discount (code SPRING20) -€5.00");
  expect(text).toContain("VAT: reverse charge €0.00 Total €19.99");
});

/** A page's visible text: tags dropped, entities and spaces plain. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\u202f|\u00a0/g, " ")
    .replace(/\s+/g, " ");

test("the payment page's figures for a reverse-charged company are what the checkout charges, with and without a code", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr", ...SELLER } });
  const s = site;
  expect((await cli(s, "codes", "create", "SPRING20", "--percent", "20")).code).toBe(0);
  // The page's script gets the price excluding VAT, computed by the server as the checkout charges it.
  const page = await (await s.request("/paiement")).text();
  expect(page).toContain('"price":"29,99\u00a0€","businessPrice":"24,99\u00a0€"');
  // The Apply button's answer carries the company's figures beside the consumer's.
  const preview = await s.request("/api/payment/code", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", code: "spring20" }),
  });
  expect(await preview.json()).toEqual({
    code: "SPRING20",
    list: "€29.99",
    off: "€6.00",
    total: "€23.99",
    free: false,
    business: { list: "€24.99", off: "€5.00", total: "€19.99" },
  });
  // What the card page then asks of a German company: the same figures, without and with the code.
  const cardText = async (fields: Record<string, string>) => {
    const start = await startAsCompany(s, { ...GERMAN, ...fields });
    expect(start.status).toBe(303);
    return visibleText(await (await s.request(start.headers.get("location") ?? "")).text());
  };
  expect(await cardText({})).toContain("€24.99");
  expect(await cardText({ code: "spring20" })).toContain("€19.99");

  // Without JavaScript, a post sent back (the terms box not ticked) comes back with the company's
  // details: the page is rendered with the total the company will pay, excluding VAT, and says why.
  const back = await s.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ locale: "fr", ...GERMAN, code: "spring20" }).toString(),
  });
  expect(back.status).toBe(303);
  const sentBack = visibleText(await (await s.request(back.headers.get("location") ?? "")).text());
  expect(sentBack).toContain("Total HT Prix sans le code : 24,99 € 19,99 €");
  expect(sentBack).toContain("Réduction SPRING20 : −5,00 €");
  expect(sentBack).toContain("Hors TVA : autoliquidation, la TVA est due par votre entreprise (art. 196 de la directive 2006/112/CE).");
  expect(sentBack).toContain("Payer 19,99 € HT");
  expect(sentBack).not.toContain("TVA incluse");
});

test("without JavaScript the page says, in each language, that such a company pays the price excluding VAT", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr", ...SELLER } });
  const said = {
    fr: "Une entreprise établie dans un autre pays de l'UE que la France, avec un numéro de TVA, paie le prix hors taxes (autoliquidation).",
    en: "A company established in an EU country other than France, with a VAT number, pays the price excluding VAT (reverse charge).",
    it: "Un'azienda stabilita in un paese dell'UE diverso dalla Francia, con partita IVA, paga il prezzo IVA esclusa (inversione contabile).",
    es: "Una empresa establecida en un país de la UE distinto de Francia, con número de IVA, paga el precio sin IVA (inversión del sujeto pasivo).",
  } as const;
  for (const [locale, sentence] of Object.entries(said)) {
    const path = locale === "fr" ? "/paiement" : `/${locale}/paiement`;
    const text = visibleText(await (await site.request(path)).text());
    expect(text).toContain(sentence);
  }
  // Under the franchise there is no VAT to take off: the page's script gets no other price.
  await site.close();
  site = await createTestSite({ env: { VAT_SCHEME: "franchise" } });
  expect(await (await site.request("/paiement")).text()).not.toContain("businessPrice");
});

test('in French, the reverse-charged invoice and its credit note read "TVA : autoliquidation", never German VAT at 0 %', async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss", ...SELLER } });
  const s = site;
  const start = await startAsCompany(s, GERMAN, "fr");
  const order = await payCard(s, start.headers.get("location") ?? "", "achats@weber-medien.de", "DE");
  const invoice = await documentText(s, order.reference);
  expect(invoice).toContain("TVA : autoliquidation 0,00 €");
  expect(invoice).not.toMatch(/TVA 0 ?%/);
  // No VAT is charged: neither the line nor the last total says "TTC".
  expect(invoice).toContain("Total HT 24,99 €");
  expect(invoice).not.toContain("TTC");
  expect((await cli(s, "orders", "refund", String(order.id))).code).toBe(0);
  const credit = await documentText(s, order.reference, "credit-note");
  expect(credit).toContain("TVA : autoliquidation");
  expect(credit).not.toMatch(/TVA 0 ?%/);
  expect(credit).not.toContain("TTC");
});

test("a malformed or mistyped German VAT number is refused in the page's language, and nothing is stored or started", async () => {
  site = await createTestSite({ env: { ...SELLER } });
  const s = site;
  const before = {
    orders: s.db.select().from(orders).all().length,
    sessions: s.db.$client.query("SELECT count(*) AS n FROM test_checkout_sessions").get(),
  };
  // A digit wrong: the check digit no longer matches.
  const altered = await startAsCompany(s, { ...GERMAN, vatNumber: "DE136695977" }, "fr");
  expect(altered.status).toBe(303);
  // What was typed comes back with the page (without JavaScript nothing is typed twice).
  expect(altered.headers.get("location")).toBe(
    "/paiement?error=business-vatCheck&company=Weber+Medien+GmbH&companyAddress=Friedrichstra%C3%9Fe+10%2C+10117+Berlin&companyCountry=DE&vatNumber=DE136695977",
  );
  // Too short for a German number.
  const short = await startAsCompany(s, { ...GERMAN, vatNumber: "DE12345" }, "en");
  expect(short.headers.get("location")).toBe(
    "/en/paiement?error=business-vatNumber&company=Weber+Medien+GmbH&companyAddress=Friedrichstra%C3%9Fe+10%2C+10117+Berlin&companyCountry=DE&vatNumber=DE12345",
  );
  // Another country's number for a German company.
  const other = await startAsCompany(s, { ...GERMAN, vatNumber: "FR40303265045" }, "en");
  expect(other.headers.get("location")).toBe(
    "/en/paiement?error=business-vatCountry&company=Weber+Medien+GmbH&companyAddress=Friedrichstra%C3%9Fe+10%2C+10117+Berlin&companyCountry=DE&vatNumber=FR40303265045",
  );
  // The pay button's JSON: every field's problem, 422.
  const json = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true, company: "", companyAddress: "x", companyCountry: "DE", vatNumber: "DE000" }),
  });
  expect(json.status).toBe(422);
  expect(await json.json()).toMatchObject({ code: "business-invalid", fields: { company: "business.error.company" } });
  const after = {
    orders: s.db.select().from(orders).all().length,
    sessions: s.db.$client.query("SELECT count(*) AS n FROM test_checkout_sessions").get(),
  };
  expect(after).toEqual(before);
  // The page says why, in its language, beside the field.
  const fr = await (await s.request("/paiement?error=business-vatCheck")).text();
  expect(fr).toContain("La clé de contrôle de ce numéro de TVA ne correspond pas");
  const en = await (await s.request("/en/paiement?error=business-vatNumber")).text();
  expect(en).toContain("This VAT number doesn&#x27;t have the form used in the chosen country");
  // The page the refusal leads to gives back every field as typed, the section open; the terms box
  // stays for the buyer to tick (consent is given, never carried), and no cache keeps the page.
  const back = await s.request(altered.headers.get("location") ?? "");
  expect(back.status).toBe(200);
  expect(back.headers.get("cache-control")).toContain("no-store");
  const page = await back.text();
  expect(page).toContain("La clé de contrôle de ce numéro de TVA ne correspond pas");
  expect(page).toMatch(/<details class="business" open=""/);
  expect(page).toMatch(/id="business-company"[^>]*value="Weber Medien GmbH"/);
  expect(page).toMatch(/<textarea id="business-address"[^>]*>Friedrichstraße 10, 10117 Berlin<\/textarea>/);
  expect(page).toMatch(/<option value="DE" selected="">/);
  expect(page).toMatch(/id="business-vat"[^>]*value="DE136695977"/);
  expect(page).not.toMatch(/id="accept-terms"[^>]*checked/);
  // A company outside the short list of countries comes back with every country listed.
  const abroad = await startAsCompany(
    s,
    { company: "", companyAddress: "Bahnhofstrasse 1, Zürich", companyCountry: "US", vatNumber: "" },
    "en",
  );
  expect(abroad.headers.get("location")).toBe(
    "/en/paiement?error=business-company&companyAddress=Bahnhofstrasse+1%2C+Z%C3%BCrich&companyCountry=US&countries=all",
  );
  expect(await (await s.request(abroad.headers.get("location") ?? "")).text()).toMatch(/<option value="US" selected="">/);
});

test("a French company pays French VAT (the full price), its name, address and VAT number on the invoice", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss", ...SELLER } });
  const s = site;
  const start = await startAsCompany(
    s,
    { company: "Durand Conseil SARL", companyAddress: "12 rue de la Paix, 75002 Paris", companyCountry: "FR", vatNumber: "FR83404833048" },
    "fr",
  );
  const order = await payCard(s, start.headers.get("location") ?? "", "compta@durand-conseil.fr", "FR");
  expect(order).toMatchObject({ amount: 2999, company: "Durand Conseil SARL", buyerVatNumber: "FR83404833048" });
  expect(JSON.parse(order.taxEvidence ?? "null")).toMatchObject({ rule: "eu-consumer", why: "Business in France: French VAT" });
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
  expect(invoice).toMatchObject({ vatCountry: "FR", vatRate: 2000, vatAmount: 500, netAmount: 2499, totalAmount: 2999 });
  const text = await documentText(s, order.reference);
  expect(text).toContain("Durand Conseil SARL");
  expect(text).toContain("12 rue de la Paix, 75002 Paris");
  expect(text).toContain("N° de TVA : FR83404833048");
  expect(text).not.toContain("Autoliquidation");
});

test("a company outside the EU follows the rules for buyers outside the EU: no VAT, the full price", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr", ...SELLER } });
  const s = site;
  const start = await startAsCompany(s, {
    company: "Acme Inc.",
    companyAddress: "1 Main St, Boston MA",
    companyCountry: "US",
    vatNumber: "",
  });
  const order = await payCard(s, start.headers.get("location") ?? "", "buyer@acme.example", "US");
  expect(order.amount).toBe(2999);
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
  expect(invoice).toMatchObject({ vatRule: "outside-eu", vatCountry: "US", vatAmount: 0 });
});

test("the page lists the countries the rules tell apart; every other one is a link away without JavaScript", async () => {
  site = await createTestSite({ env: { ...SELLER } });
  const countriesOf = async (path: string) => {
    const html = await (await site!.request(path)).text();
    const select = html.match(/<select[^>]*name="companyCountry"[^>]*>([\s\S]*?)<\/select>/)?.[1] ?? "";
    return { html, codes: [...select.matchAll(/<option value="([A-Z]{2})"/g)].map((m) => m[1]) };
  };
  const short = await countriesOf("/en/paiement");
  // The 27 member states and the three countries where a seller may register (UK, Switzerland, Norway).
  expect(short.codes).toHaveLength(30);
  expect(short.codes).toEqual(expect.arrayContaining(["DE", "FR", "GR", "GB", "CH", "NO"]));
  expect(short.codes).not.toContain("US");
  expect(short.html).toContain('href="/en/paiement?countries=all#business-country"');
  expect(short.html).toContain("Another country? Show every country");

  const every = await countriesOf("/en/paiement?countries=all");
  expect(every.codes.length).toBeGreaterThan(240);
  expect(every.codes).toContain("US");
  // Opened at the company section, without the link it no longer needs.
  expect(every.html).toMatch(/<details class="business"[^>]* open/);
  expect(every.html).not.toContain("?countries=all");
});

test("Stripe Checkout is created for the business amount excl. VAT (real SDK, fake Stripe on loopback)", async () => {
  site = await createTestSite({
    env: { STRIPE_SECRET_KEY: "sk_test_biz", STRIPE_WEBHOOK_SECRET: "whsec_biz", PUBLIC_BASE_URL: "https://shop.example", ...SELLER },
    stripeConnection: fake.connection,
  });
  const s = site;
  fake.requests.length = 0;
  const answer = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "en", acceptTerms: true, ...GERMAN }),
  });
  expect(answer.status).toBe(200);
  const sent = fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
  expect(sent.body.get("line_items[0][price_data][unit_amount]")).toBe("2499");
  expect(s.db.select().from(orders).get()).toMatchObject({ provider: "stripe", amount: 2499, buyerVatNumber: "DE136695976" });
});
