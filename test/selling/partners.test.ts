import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { orders } from "../../db/schema";
import { partnerReport } from "../../server/shop/partners/service";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";
import { plainSpaces } from "../support/text";

// Partner links: `?ref=NAME` attributes a visit (the page's counting takes it as the source) and its
// order (the payment carries it) to a partner; `partners list` gives visitors, paid orders, net
// revenue excluding VAT and the commission owed, refunds deducted, rounded down to the cent.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const visitor = (n: number) => ({
  "x-forwarded-for": `198.51.100.${n}`,
  "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${n} Safari/537.36`,
});

const beacon = (s: TestSite, who: Record<string, string>, body: Record<string, string>) =>
  s.request("/api/beacon", {
    method: "POST",
    headers: { "content-type": "text/plain", ...who },
    body: JSON.stringify({ device: "desktop", ...body }),
  });

/** A visitor on the payment page who pays: the pay button sends the partner it found in the address. */
async function buy(s: TestSite, who: Record<string, string>, email: string, ref: string) {
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json", ...who },
    body: JSON.stringify({ locale: "fr", acceptTerms: true, ref }),
  });
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const card = new URLSearchParams({
    email,
    name: "Léa",
    city: "Lyon",
    country: "FR",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  });
  expect((await s.request(url, { method: "POST", headers: { ...FORM, ...who }, body: card.toString() })).status).toBe(303);
  return s.db.select().from(orders).where(eq(orders.customerEmail, email)).get()!;
}

test("a partner's link: visit, purchase, the partner's row and CSV with the commission on what was paid excluding VAT, refunds deducted", async () => {
  site = await createTestSite({ env: { TRUST_PROXY: "true", VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "partners", "create", "Blog-Anna", "--commission", "20")).said).toBe(
    "Created blog-anna: link ?ref=blog-anna, 20 % commission.\n",
  );
  expect(await cli(s, "partners", "create", "blog-anna")).toEqual({ code: 1, said: "The partner blog-anna exists already.\n" });
  expect((await cli(s, "partners", "create", "x", "--commission", "20")).code).toBe(1);

  // Three visitors come through the link (the page's script sends the ref as the visit's source);
  // two buy, one of them is refunded; a fourth buyer names a partner that does not exist.
  for (const n of [1, 2, 3])
    expect((await beacon(s, visitor(n), { kind: "pageview", path: "/", utmSource: "blog-anna" })).status).toBe(204);
  const first = await buy(s, visitor(1), "one@example.com", "BLOG-ANNA");
  const second = await buy(s, visitor(2), "two@example.com", "blog-anna");
  const stranger = await buy(s, visitor(4), "four@example.com", "nobody");
  expect(first.partner).toBe("blog-anna");
  expect(second.partner).toBe("blog-anna");
  expect(stranger.partner).toBeNull();
  expect((await cli(s, "orders", "refund", String(second.id))).code).toBe(0);
  await s.analytics.flush();
  await s.analytics.rollUp();

  const listed = await cli(s, "partners", "list");
  expect(listed.code).toBe(0);
  // 29.99 incl. 20 % VAT is 24.99 excluding VAT; 20 % of it is 4.998, owed 4.99.
  expect(listed.said).toContain("blog-anna\t3\t1\t24.99\t20 %\t4.99\t\n");
  const csv = await cli(s, "partners", "list", "--csv");
  const [header, row] = csv.said.trim().split("\r\n");
  expect(header).toBe("partner,from,to,visitors,paid_orders,net_revenue_excl_vat,commission_percent,commission_owed,code");
  expect(row).toMatch(/^blog-anna,\d{4}-\d{2}-01,\d{4}-\d{2}-\d{2},3,1,24\.99,20,4\.99,$/);
  // A period before the sales owes nothing; a wrong date is refused.
  expect((await cli(s, "partners", "list", "--from", "2020-01-01", "--to", "2020-01-31")).said).toContain(
    "blog-anna\t0\t0\t0.00\t20 %\t0.00\t\n",
  );
  expect(await cli(s, "partners", "list", "--from", "2020-02-30")).toEqual({
    code: 2,
    said: "2020-02-30 is not a date such as 2026-12-31.\n",
  });
  // A month 13 is refused the same way, not answered with a stack trace, for a period and a code.
  expect(await cli(s, "partners", "list", "--from", "2026-13-01")).toEqual({
    code: 2,
    said: "2026-13-01 is not a date such as 2026-12-31.\n",
  });
  expect(await cli(s, "codes", "create", "MONTH13", "--amount", "5", "--ends", "2026-13-01")).toEqual({
    code: 1,
    said: "2026-13-01 is not a date such as 2026-12-31.\n",
  });
  // The console shows the same row and gives the same CSV.
  const cookie = await ownerCookie(s);
  const page = await (await s.request("/admin/partners", { headers: { cookie, "accept-language": "en" } })).text();
  expect(page).toContain(
    '<tr data-partner="blog-anna"><th scope="row">blog-anna</th><td>3</td><td>1</td><td>€24.99</td><td>20 %</td><td>€4.99</td><td>—</td></tr>',
  );
  const link = /href="(\/admin\/partners\.csv\?[^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, "&") ?? "";
  const download = await s.request(link, { headers: { cookie } });
  expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  // The same bytes as the CLI's, the BOM for a spreadsheet first (which a Response's text() drops).
  expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await download.arrayBuffer())).toBe(csv.said);
  expect(csv.said.startsWith("\uFEFFpartner,")).toBe(true);
  const added = await s.request("/admin/partners", {
    method: "POST",
    headers: { cookie, ...FORM },
    body: "name=Podcast-Luc&commission=15",
  });
  expect(added.headers.get("location")).toBe("/admin/partners?done=created");
  // Without a session the figures are not given: the sign-in page instead.
  expect((await s.request("/admin/partners.csv")).status).toBe(303);

  // The orders export names the partner.
  const exported = await cli(s, "orders", "export");
  expect(exported.said.split("\r\n")[0]?.split(",")).toContain("partner");

  // The privacy page says what is kept, in the four languages.
  const en = plainSpaces(await (await s.request("/en/confidentialite")).text());
  expect(en).toContain("Your order then records that partner");
  const fr = plainSpaces(await (await s.request("/confidentialite")).text());
  expect(fr).toContain("Votre commande enregistre alors le nom de ce partenaire");
  const it = plainSpaces(await (await s.request("/it/confidentialite")).text());
  expect(it).toContain("Il tuo ordine registra allora il nome di quel partner");
  const es = plainSpaces(await (await s.request("/es/confidentialite")).text());
  expect(es).toContain("Tu pedido registra entonces el nombre de ese socio");
});

test("in production a test-card order through a partner's link owes no commission (the TEST series is left out, as on the overview)", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  const s = site;
  expect((await cli(s, "partners", "create", "blog-anna", "--commission", "20")).code).toBe(0);
  const order = await buy(s, visitor(1), "one@example.com", "blog-anna");
  expect(order.partner).toBe("blog-anna");
  const period = { from: "2000-01-01", to: "2099-12-31" };
  // Outside production (demos, tests) the test checkout's orders are counted; in production they are not.
  expect(partnerReport(s.db, period, true)[0]).toMatchObject({ paidOrders: 1, netRevenue: 2499, commissionOwed: 499 });
  expect(partnerReport(s.db, period, false)[0]).toMatchObject({ paidOrders: 0, netRevenue: 0, commissionOwed: 0 });
});

test("the console's partner row counts a visit made a moment ago, without waiting for the minute's roll-up", async () => {
  site = await createTestSite({ env: { TRUST_PROXY: "true" } });
  const s = site;
  expect((await cli(s, "partners", "create", "blog-anna")).code).toBe(0);
  expect((await beacon(s, visitor(7), { kind: "pageview", path: "/", utmSource: "blog-anna" })).status).toBe(204);
  const page = await (await s.request("/admin/partners", { headers: { cookie: await ownerCookie(s), "accept-language": "en" } })).text();
  expect(page).toContain('<tr data-partner="blog-anna"><th scope="row">blog-anna</th><td>1</td><td>0</td>');
});

test("partners create --code refuses a code that does not exist, says what to do, and creates nothing", async () => {
  site = await createTestSite();
  const s = site;
  expect(await cli(s, "partners", "create", "nocode", "--code", "missing")).toEqual({
    code: 1,
    said: "There is no discount code MISSING: create it first (site codes create MISSING --percent N), then the partner.\n",
  });
  expect((await cli(s, "partners", "list")).said).not.toContain("nocode");
  expect((await cli(s, "codes", "create", "MISSING", "--percent", "10")).code).toBe(0);
  expect((await cli(s, "partners", "create", "nocode", "--code", "missing")).code).toBe(0);
});

test("a partner's code applies when the buyer types none", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "ANNA10", "--percent", "10")).code).toBe(0);
  expect((await cli(s, "partners", "create", "anna", "--code", "anna10")).said).toBe(
    "Created anna: link ?ref=anna, no commission, code ANNA10.\n",
  );
  const order = await buy(s, visitor(9), "nine@example.com", "anna");
  expect(order).toMatchObject({ partner: "anna", discountCode: "ANNA10", amount: 2699 });
});

test("a partner's code that no longer applies does not turn the link's buyers away: they pay the price", async () => {
  site = await createTestSite();
  const s = site;
  // Tied to a code the owner has since disabled.
  expect((await cli(s, "codes", "create", "GONE10", "--percent", "10")).code).toBe(0);
  expect((await cli(s, "partners", "create", "gone", "--code", "GONE10")).code).toBe(0);
  expect((await cli(s, "codes", "disable", "GONE10")).code).toBe(0);
  expect(await buy(s, visitor(12), "twelve@example.com", "gone")).toMatchObject({ partner: "gone", discountCode: null, amount: 2999 });
  // A code the buyer types is still refused with its reason.
  const typed = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json", ...visitor(13) },
    body: JSON.stringify({ locale: "fr", acceptTerms: true, ref: "gone", code: "GONE10" }),
  });
  expect(typed.status).toBe(422);
});

test("the console's partner mistakes are said in the owner's language, and the address cannot put other words there", async () => {
  site = await createTestSite();
  const s = site;
  const cookie = await ownerCookie(s);
  const page0 = async (query: string, language: string) =>
    plainSpaces(await (await s.request(`/admin/partners?${query}`, { headers: { cookie, "accept-language": language } })).text()).replace(
      /&#x27;/g,
      "'",
    );
  const add = (body: string) => s.request("/admin/partners", { method: "POST", headers: { cookie, ...FORM }, body });
  expect((await add("name=x&commission=15")).headers.get("location")).toBe("/admin/partners?problem=name");
  expect((await add("name=anna&commission=150")).headers.get("location")).toBe("/admin/partners?problem=commission");
  expect((await add("name=anna&code=%C3%A9t%C3%A9")).headers.get("location")).toBe("/admin/partners?problem=code");
  // A code that does not exist would never apply: refused, no partner created.
  expect((await add("name=anna&code=MISSING")).headers.get("location")).toBe("/admin/partners?problem=code-unknown");
  expect(await page0("problem=code-unknown", "fr")).toContain("Ce code de réduction n'existe pas : créez-le d'abord");
  expect((await add("name=anna")).headers.get("location")).toBe("/admin/partners?done=created");
  expect((await add("name=Anna")).headers.get("location")).toBe("/admin/partners?problem=exists");

  const page = async (query: string, language: string) =>
    plainSpaces(await (await s.request(`/admin/partners?${query}`, { headers: { cookie, "accept-language": language } })).text());
  expect(await page("problem=exists", "fr")).toContain("Un partenaire de ce nom existe déjà.");
  expect(await page("problem=commission", "it")).toContain("La commissione deve essere una percentuale intera da 0 a 100.");
  expect(await page("problem=name", "es")).toContain("El nombre de un socio debe tener de 2 a 32 letras");
  expect(await page("from=2026-02-30&to=2026-03-01", "fr")).toContain("Une date de la période n&#x27;est pas un jour qui existe.");
  expect(await page("from=2026-03-02&to=2026-03-01", "en")).toContain("The end of the period is before its start.");
  expect(await page("problem=Call+this+number", "en")).not.toContain("Call this number");
});
