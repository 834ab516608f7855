import { afterAll, expect, test } from "bun:test";
import { LOCALES, type Locale } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

// What the pages and the support chat say of VAT follows VAT_SCHEME: under the franchise no sale
// charges any, so nothing may say "VAT included" (the terms and the invoices say it does not apply).

const sites: TestSite[] = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});
async function site(scheme: string) {
  const s = await createTestSite({ env: { VAT_SCHEME: scheme } });
  sites.push(s);
  return s;
}

const INCLUDED: Record<Locale, string> = { fr: "TVA incluse", en: "VAT included", it: "IVA inclusa", es: "IVA incluido" };
const NOT_APPLICABLE: Record<Locale, string> = {
  fr: "TVA non applicable",
  en: "VAT not applicable",
  it: "IVA non applicabile",
  es: "IVA no aplicable",
};
const PRICE_QUESTION: Record<Locale, string> = {
  fr: "Combien ça coûte ?",
  en: "How much does it cost?",
  it: "Quanto costa?",
  es: "¿Cuánto cuesta?",
};

async function wording(s: TestSite, locale: Locale) {
  // What the page shows: its scripts' data hold every branch of a message (both VAT wordings) for the islands.
  const text = async (path: string) =>
    (await (await s.request(path)).text()).replace(/<script[\s\S]*?<\/script>/g, "").replace(/[\u00a0\u202f]/g, " ");
  const chat = await s.request("/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: PRICE_QUESTION[locale] }], locale }),
  });
  const answer = String((await chat.json()).message).replace(/[\u00a0\u202f]/g, " ");
  return { landing: await text(pathFor("landing", locale)), payment: await text(pathFor("payment", locale)), answer };
}

test("under the franchise, the price card, the payment page and the chat say VAT does not apply, never that it is included", async () => {
  const s = await site("franchise");
  for (const locale of LOCALES) {
    const { landing, payment, answer } = await wording(s, locale);
    expect({
      locale,
      landing: landing.includes(NOT_APPLICABLE[locale]),
      payment: payment.includes(NOT_APPLICABLE[locale]),
      answer: answer.includes(NOT_APPLICABLE[locale]),
      saysIncluded: [landing, payment, answer].some((t) => t.includes(INCLUDED[locale])),
    }).toEqual({ locale, landing: true, payment: true, answer: true, saysIncluded: false });
  }
});

test("with VAT charged (fr, oss), they say the price includes it", async () => {
  for (const scheme of ["fr", "oss"]) {
    const s = await site(scheme);
    for (const locale of LOCALES) {
      const { landing, payment, answer } = await wording(s, locale);
      expect({
        scheme,
        locale,
        landing: landing.includes(INCLUDED[locale]),
        payment: payment.includes(INCLUDED[locale]),
        answer: answer.includes(INCLUDED[locale]),
        saysNotApplicable: [landing, payment, answer].some((t) => t.includes(NOT_APPLICABLE[locale])),
      }).toEqual({ scheme, locale, landing: true, payment: true, answer: true, saysNotApplicable: false });
    }
  }
});

test("the terms of sale state the scheme in force, in every language", async () => {
  const expected: Record<string, RegExp> = { franchise: /art\. 293 B/, fr: /20 %/, oss: /\bU[EN]\b|Union|Unión/ };
  for (const scheme of ["franchise", "fr", "oss"]) {
    const s = await site(scheme);
    for (const locale of LOCALES) {
      const html = (await (await s.request(pathFor("terms", locale))).text()).replace(/[\u00a0\u202f]/g, " ");
      const said = /<p data-testid="terms-vat">([^<]*)<\/p>/.exec(html)?.[1] ?? "";
      expect({ scheme, locale, said }).toEqual({ scheme, locale, said: expect.stringMatching(expected[scheme] ?? /^$/) });
    }
  }
});
