import { afterAll, expect, test } from "bun:test";
import { Window } from "happy-dom";
import { orders } from "../../db/schema";
import { LOCALES, type Locale } from "../../shared/locales";
import { createTestSite, type TestSite } from "../support/app";

// The test checkout's card page asks for the buyer's country (the evidence of an OSS sale's VAT):
// a list in the page's language, the language's likely country first; the order keeps the answer,
// and a code that is no country is refused, paying nothing.

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const site: TestSite = await createTestSite({ env: { VAT_SCHEME: "oss" } });
afterAll(() => site.close());

const LABEL: Record<Locale, string> = { fr: "Pays", en: "Country", it: "Paese", es: "País" };
const GERMANY: Record<Locale, string> = { fr: "Allemagne", en: "Germany", it: "Germania", es: "Alemania" };
const LIKELY: Record<Locale, string> = { fr: "FR", en: "GB", it: "IT", es: "ES" };

async function cardPage(locale: Locale) {
  const start = await site.request("/api/payment", { method: "POST", headers: FORM, body: `locale=${locale}&acceptTerms=yes` });
  const path = start.headers.get("location") ?? "";
  const window = new Window({ url: "http://localhost/" });
  window.document.write(await (await site.request(path)).text());
  return { path, document: window.document };
}

const card = (country: string, email: string) =>
  new URLSearchParams({
    email,
    name: "Anna Schmidt",
    city: "Berlin",
    country,
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  }).toString();

test("the card page's Country list speaks the page's language, the language's likely country first", async () => {
  for (const locale of LOCALES) {
    const { document } = await cardPage(locale);
    const select = document.querySelector("select[name=country]");
    const label = document.querySelector(`label[for="${select?.getAttribute("id")}"]`);
    const options = [...(select?.querySelectorAll("option") ?? [])];
    expect({
      locale,
      label: label?.textContent?.trim(),
      first: options[0]?.getAttribute("value"),
      selected: options.find((o) => o.hasAttribute("selected"))?.getAttribute("value"),
      germany: options.find((o) => o.getAttribute("value") === "DE")?.textContent,
    }).toEqual({ locale, label: LABEL[locale], first: LIKELY[locale], selected: LIKELY[locale], germany: GERMANY[locale] });
  }
});

test("the chosen country is kept on the order; a code that is no country is refused and nothing is paid", async () => {
  const refused = await cardPage("en");
  const answer = await site.request(refused.path, { method: "POST", headers: FORM, body: card("ZZ", "zz@example.com") });
  expect(answer.status).toBe(422);
  expect(await answer.text()).toContain("Please choose your country.");
  expect(
    site.db
      .select()
      .from(orders)
      .all()
      .filter((o) => o.status === "paid"),
  ).toEqual([]);

  const { path } = await cardPage("it");
  expect((await site.request(path, { method: "POST", headers: FORM, body: card("de", "de@example.com") })).status).toBe(303);
  const paid = site.db
    .select()
    .from(orders)
    .all()
    .find((o) => o.status === "paid");
  expect(paid).toMatchObject({ customerEmail: "de@example.com", billingCountry: "DE" });
});
