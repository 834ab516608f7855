import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mailOutbox, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { composeMail } from "../../server/shop/mail/compose";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";

// What an owner and an accountant read: refused payments with their reason (not "pending"), the
// orders export with the documents' numbers, country and VAT, and owner notices in the owner's language.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

test("a declined card is shown on the order's page with the provider's reason and the address typed, and counted on the overview", async () => {
  site = await createTestSite();
  const s = site;
  const start = await s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  const cardPage = start.headers.get("location") ?? "";
  const declined = await s.request(cardPage, {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({
      email: "nadia@example.com",
      name: "Nadia Benali",
      city: "Lille",
      country: "FR",
      card: "4000 0000 0000 0002",
      expiry: "12/34",
      cvc: "123",
    }).toString(),
  });
  expect(declined.status).toBe(402);
  const order = s.db.select().from(orders).get()!;
  expect(order.status).toBe("pending");

  const cookie = await ownerCookie(s);
  const get = async (path: string) => text(await (await s.request(path, { headers: { cookie, "accept-language": "en" } })).text());
  const page = await get(`/admin/orders/${order.id}`);
  expect(page).toContain("Declined");
  expect(page).toContain("provider's reason: card_declined: Your card was declined.");
  expect(page).toContain("Payment declined: card_declined: Your card was declined. (nadia@example.com)");
  expect(page).not.toMatch(/Status Pending/);
  // Another buyer's checkout, started and left before any card was typed: still pending in the list.
  const left = await s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  expect(left.status).toBe(303);
  const abandoned = s.db
    .select()
    .from(orders)
    .where(eq(orders.status, "pending"))
    .all()
    .find((o) => o.id !== order.id)!;
  const list = await get("/admin/orders");
  expect(list).toContain(`${order.reference}`);
  expect(list.match(/Declined · test payment/g)?.length).toBe(1);
  expect(list).toMatch(new RegExp(`${abandoned.reference} .*? pending · test payment`));
  const overview = await get("/admin");
  expect(overview).toContain("1 Declined payments (30 days)");
});

test("orders export carries the invoice and credit-note numbers, the country, the VAT scheme, rate and amount, in euros", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss" } });
  const s = site;
  await payWithTestCard(s, { locale: "en", email: "anna@example.de", country: "DE" });
  const order = s.db.select().from(orders).get()!;
  expect((await s.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" })).status).toBe(303);
  expect(
    await runCommand(
      ["orders", "refund", String(order.id)],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  const out: string[] = [];
  expect(
    await runCommand(
      ["orders", "export"],
      s.config,
      (l) => out.push(l),
      () => {},
    ),
  ).toBe(0);
  const [header, row, unpaid] = out.join("").trim().split("\r\n");
  const cells = Object.fromEntries((header ?? "").split(",").map((name, i) => [name, (row ?? "").split(",")[i]]));
  const year = new Date().getFullYear();
  // A checkout started and never paid has no invoice: no rate or amount of one, not zeros.
  const left = Object.fromEntries((header ?? "").split(",").map((name, i) => [name, (unpaid ?? "").split(",")[i]]));
  expect(left).toMatchObject({
    status: "pending",
    amount: "29.99",
    invoice_number: "",
    vat_rate_percent: "",
    net_amount: "",
    vat_amount: "",
  });
  expect(cells).toMatchObject({
    invoice_number: `TEST-${year}-000001`,
    credit_note_number: `TEST-AV-${year}-000001`,
    country: "DE",
    vat_scheme: "oss",
    vat_rule: "eu-consumer",
    vat_country: "DE",
    vat_rate_percent: "19.00",
    net_amount: "25.20",
    vat_amount: "4.79",
    list_amount: "29.99",
    discount_amount: "0.00",
  });
});

test("orders export names the code, its reduction and the partner of an order made through a partner's link", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  const run = (...argv: string[]) =>
    runCommand(
      argv,
      s.config,
      () => {},
      () => {},
    );
  expect(await run("codes", "create", "ANNA20", "--percent", "20")).toBe(0);
  expect(await run("partners", "create", "anna", "--commission", "10")).toBe(0);
  await payWithTestCard(s, { locale: "fr", email: "buyer@example.fr", country: "FR", payment: { code: "anna20", ref: "anna" } });
  const out: string[] = [];
  expect(
    await runCommand(
      ["orders", "export"],
      s.config,
      (l) => out.push(l),
      () => {},
    ),
  ).toBe(0);
  const [header, row] = out.join("").trim().split("\r\n");
  const cells = Object.fromEntries((header ?? "").split(",").map((name, i) => [name, (row ?? "").split(",")[i]]));
  expect(cells).toMatchObject({
    amount: "23.99",
    country: "FR",
    vat_scheme: "fr",
    vat_rate_percent: "20.00",
    vat_amount: "4.00",
    list_amount: "29.99",
    discount_code: "ANNA20",
    discount_amount: "6.00",
    partner: "anna",
    credit_note_number: "",
  });
});

test("owner notices are written in the language the console last spoke at sign-in, as the digest is", async () => {
  site = await createTestSite({ env: { OWNER_EMAIL: "owner@shop.example" } });
  const s = site;
  // The owner signs in with an English browser; the buyer pays in French.
  const [code] = await (await import("../console/owner")).recoveryCodes(s);
  const signIn = await s.request("/admin/sign-in/recovery", {
    method: "POST",
    headers: { ...FORM, "accept-language": "en-GB,en;q=0.9" },
    body: new URLSearchParams({ code: code ?? "" }).toString(),
  });
  expect(signIn.status).toBe(303);
  await payWithTestCard(s, { locale: "fr", email: "camille@example.fr" });
  const notices = s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "owner-sale")).all();
  expect(notices.map((n) => n.locale)).toEqual(["en"]);
  // The buyer's own e-mail stays in the buyer's language.
  expect(
    s.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "access"))
      .all()
      .map((m) => m.locale),
  ).toEqual(["fr"]);
});

test("an owner's notice names the buyer's language in the owner's, and a refund request links to the order's own page", async () => {
  site = await createTestSite({ env: { OWNER_EMAIL: "owner@shop.example" } });
  const s = site;
  // The owner signs in with an Italian browser; the buyer pays in English.
  const [code] = await (await import("../console/owner")).recoveryCodes(s);
  const signIn = await s.request("/admin/sign-in/recovery", {
    method: "POST",
    headers: { ...FORM, "accept-language": "it-IT,it;q=0.9" },
    body: new URLSearchParams({ code: code ?? "" }).toString(),
  });
  expect(signIn.status).toBe(303);
  await payWithTestCard(s, { locale: "en", email: "oliver@example.co.uk" });
  const row = s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "owner-sale")).get();
  expect(row?.locale).toBe("it");
  if (row === undefined) throw new Error("no owner notice");
  const sale = await composeMail(row, s.config, s.content.current());
  expect(sale?.text).toMatch(/Lingua:?\s+inglese/i);
  expect(sale?.text).not.toMatch(/Lingua:?\s+en\b/);
  // A refund request carries the same facts: its link leads to the order itself, not to the list.
  const request = await composeMail({ ...row, kind: "owner-refund-request" }, s.config, s.content.current());
  const orderPage = `${s.config.publicBaseUrl}/admin/orders/${row.orderId}`;
  expect(request?.text).toContain("Approvalo con un clic nella console, nella pagina dell'ordine:");
  expect(request?.text).toContain(orderPage);
  expect(request?.html).toContain(`href="${orderPage}"`);
  expect(request?.text).not.toContain("(/admin/orders)");
});

test('every CSV for a spreadsheet starts with a UTF-8 BOM, so Excel reads "Friedrichstraße"; --no-bom gives a script the plain CSV', async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({
      locale: "en",
      acceptTerms: "yes",
      company: "Weber Medien GmbH",
      companyAddress: "Friedrichstraße 10, 10117 Berlin",
      companyCountry: "DE",
      vatNumber: "DE136695976",
    }).toString(),
  });
  expect(start.status).toBe(303);
  const exported = async (...argv: string[]) => {
    const out: string[] = [];
    expect(
      await runCommand(
        argv,
        s.config,
        (l) => out.push(l),
        () => {},
      ),
    ).toBe(0);
    return out.join("");
  };
  const orders = await exported("orders", "export");
  expect(orders.startsWith("\uFEFFid,reference,")).toBe(true);
  expect(orders).toContain("Friedrichstraße 10");
  const plain = await exported("orders", "export", "--no-bom");
  expect(plain).toBe(orders.slice(1));
  expect((await exported("vat", "export")).startsWith("\uFEFF")).toBe(true);
  expect((await exported("vat", "export", "--ereporting")).startsWith("\uFEFF")).toBe(true);
  expect((await exported("vat", "export", "--no-bom")).startsWith("\uFEFF")).toBe(false);
  expect((await exported("partners", "list", "--csv")).startsWith("\uFEFF")).toBe(true);
  // The console's download: its first bytes are the BOM's.
  expect(await exported("partners", "create", "anna")).toContain("anna");
  const cookie = await ownerCookie(s);
  const page = await (await s.request("/admin/partners", { headers: { cookie } })).text();
  const link = /href="(\/admin\/partners\.csv\?[^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&") ?? "";
  const download = await s.request(link, { headers: { cookie } });
  expect(download.status).toBe(200);
  expect([...new Uint8Array(await download.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
});
