import { afterEach, expect, test } from "bun:test";
import { orders } from "../../db/schema";
import { CODE_PREVIEW_RATE_LIMIT } from "../../server/shop/codes/preview";
import { formatMoney } from "../../shared/price";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";

// The payment page with a code before paying: `?code=` (a link, or the Apply button without
// JavaScript) renders the page with the code applied or refused; the preview endpoint answers the
// page's script. Neither holds a use of the code nor starts anything.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_POST = { "content-type": "application/json", accept: "application/json" };
/** The page's text without its tags, spaces made plain. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/[\s\u00a0\u202f]+/g, " ");
const eur = (minor: number, locale: "fr" | "en") => formatMoney(minor, "EUR", locale).replace(/[\u00a0\u202f]/g, " ");

test("?code= shows the list price struck, the reduction with its code, the total to pay and a remove link; in each language", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "SPRING20", "--percent", "20")).code).toBe(0);

  const answer = await s.request("/paiement?code=spring20");
  expect(answer.status).toBe(200);
  expect(answer.headers.get("set-cookie")).toBeNull();
  expect(answer.headers.get("cache-control")).toBe("no-store");
  const html = await answer.text();
  const text = textOf(html);
  expect(text).toContain(`Code SPRING20 appliqué : ${eur(600, "fr")} de réduction.`);
  expect(text).toContain(`TotalPrix sans le code : ${eur(2999, "fr")} ${eur(2399, "fr")}`);
  // The pay button says what will be paid.
  expect(text).toContain(`Payer ${eur(2399, "fr")}`);
  expect(text).toContain(`Réduction SPRING20 : −${eur(600, "fr")}`);
  expect(html).toMatch(/<del[^>]*data-testid="list-price"/);
  // Remove: the page without the code; the field holds it, so paying sends it.
  expect(html).toMatch(/<a href="\/paiement" class="discount-code__remove">Retirer le code<\/a>/);
  expect(html).toMatch(/<input[^>]*name="code"[^>]*value="SPRING20"/);
  // Another language keeps the code.
  expect(html).toContain('<a class="lang" href="/en/paiement?code=SPRING20"');

  const en = textOf(await (await s.request("/en/paiement?code=SPRING20")).text());
  expect(en).toContain(`Code SPRING20 applied: ${eur(600, "en")} off.`);
  expect(en).toContain(`SPRING20 discount: −${eur(600, "en")}`);

  // The page without a code is the plain one, served from memory: the full price, nothing struck.
  const plain = await s.request("/paiement");
  expect(plain.headers.get("cache-control")).not.toBe("no-store");
  const plainHtml = await plain.text();
  expect(plainHtml).not.toContain('data-testid="list-price"');
  expect(textOf(plainHtml)).toContain(`Total${eur(2999, "fr")}`);
});

test("a wrong, expired or used-up code in ?code= is said in the page's language, the full price stays, nothing is started", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "OLD", "--percent", "10", "--ends", "2020-01-31")).code).toBe(0);
  expect((await cli(s, "codes", "create", "FREE1", "--percent", "100", "--max", "1")).code).toBe(0);
  // FREE1 used once: it is used up.
  const claimed = await s.request("/api/payment", {
    method: "POST",
    headers: JSON_POST,
    body: JSON.stringify({ locale: "fr", acceptTerms: true, code: "FREE1" }),
  });
  expect(claimed.status).toBe(200);
  const before = s.db.select().from(orders).all().length;

  for (const [path, said] of [
    ["/paiement?code=NOPE", "Ce code de réduction n'existe pas."],
    ["/en/paiement?code=OLD", "This discount code has expired."],
    ["/it/paiement?code=FREE1", "Questo codice sconto è già stato usato tutte le volte previste"],
    ["/es/paiement?code=%3Cb%3Ex", "Este código de descuento no existe."],
  ] as const) {
    const answer = await s.request(path);
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    const html = await answer.text();
    expect(textOf(html)).toContain(said);
    expect(html).not.toContain('data-testid="list-price"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).not.toContain("<b>x");
  }
  expect(s.db.select().from(orders).all().length).toBe(before);
});

test("the preview endpoint: the figures as JSON, a refusal with its reason, never a use held; a form post goes to ?code=", async () => {
  site = await createTestSite();
  const s = site;
  expect((await cli(s, "codes", "create", "ONCE", "--amount", "5", "--max", "1")).code).toBe(0);
  const preview = (body: unknown) => s.request("/api/payment/code", { method: "POST", headers: JSON_POST, body: JSON.stringify(body) });

  // Previewed again and again, a code limited to one use is still free to be paid with.
  for (let i = 0; i < 3; i++) {
    const answer = await preview({ locale: "en", code: " once " });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      code: "ONCE",
      list: formatMoney(2999, "EUR", "en"),
      off: formatMoney(500, "EUR", "en"),
      total: formatMoney(2499, "EUR", "en"),
      free: false,
      // A reverse-charged company's: 24.99 excl. VAT less 20.83 (24.99 incl. VAT without its 20 %).
      business: { list: formatMoney(2499, "EUR", "en"), off: formatMoney(416, "EUR", "en"), total: formatMoney(2083, "EUR", "en") },
    });
  }
  expect(s.db.select().from(orders).all()).toEqual([]);
  const paid = await s.request("/api/payment", {
    method: "POST",
    headers: JSON_POST,
    body: JSON.stringify({ locale: "en", acceptTerms: true, code: "ONCE" }),
  });
  expect(paid.status).toBe(200);

  // Now held by that checkout: used up.
  const usedUp = await preview({ locale: "en", code: "ONCE" });
  expect(usedUp.status).toBe(422);
  expect((await usedUp.json()).code).toBe("code-used-up");
  const unknown = await preview({ locale: "fr", code: "NOPE" });
  expect(unknown.status).toBe(422);
  expect((await unknown.json()).code).toBe("code-unknown");
  // Input of the wrong shape: refused, never a 500.
  expect((await preview({ locale: "xx", code: "ONCE" })).status).toBe(400);
  expect((await preview({ locale: "fr", code: 42 })).status).toBe(400);
  expect((await s.request("/api/payment/code", { method: "POST", headers: JSON_POST, body: "{" })).status).toBe(400);

  // Without JavaScript the Apply button posts the pay form: sent to the page that shows the code.
  const form = await s.request("/api/payment/code", {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ locale: "es", code: " once ", company: "", acceptTerms: "yes" }).toString(),
  });
  expect(form.status).toBe(303);
  expect(form.headers.get("location")).toBe("/es/paiement?code=once");
  const empty = await s.request("/api/payment/code", { method: "POST", headers: FORM, body: "locale=en&code=" });
  expect(empty.headers.get("location")).toBe("/en/paiement");
});

test("codes tried from one client are limited, the endpoint and the page's ?code= together: 429, and the page says to wait", async () => {
  site = await createTestSite();
  const s = site;
  for (let i = 0; i < CODE_PREVIEW_RATE_LIMIT.limit; i++) {
    const answer =
      i % 2 === 0
        ? await s.request("/api/payment/code", {
            method: "POST",
            headers: JSON_POST,
            body: JSON.stringify({ locale: "fr", code: `GUESS${i}` }),
          })
        : await s.request(`/paiement?code=GUESS${i}`);
    expect({ i, status: answer.status }).toEqual({ i, status: i % 2 === 0 ? 422 : 200 });
  }
  const json = await s.request("/api/payment/code", {
    method: "POST",
    headers: JSON_POST,
    body: JSON.stringify({ locale: "fr", code: "MORE" }),
  });
  expect(json.status).toBe(429);
  expect(Number(json.headers.get("retry-after"))).toBeGreaterThan(0);
  const page = await s.request("/en/paiement?code=MORE");
  expect(page.status).toBe(429);
  expect(textOf(await page.text())).toContain("Too many codes tried from your connection.");
  // The page without a code is not limited.
  expect((await s.request("/paiement")).status).toBe(200);
});
