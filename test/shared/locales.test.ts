import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPILED, catalogueOrigin, compileMessage, PAGE_TEXTS, pageTypesetting, withReplacedTexts } from "../../server/site/locales";
import { createTranslator } from "../../shared/i18n";
import { LOCALES } from "../../shared/locales";

const dir = join(import.meta.dir, "..", "..", "locales");
const load = (file: string): Record<string, string> => JSON.parse(readFileSync(join(dir, file), "utf8"));
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test("there is one locale file per language and no other", () => {
  expect(
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort(),
  ).toEqual(LOCALES.map((l) => `${l}.json`).sort());
});

test("every locale file has exactly the keys of the French one", () => {
  const reference = Object.keys(load("fr.json")).sort();
  for (const locale of LOCALES) {
    const keys = Object.keys(load(`${locale}.json`)).sort();
    expect({ locale, missing: reference.filter((k) => !keys.includes(k)), extra: keys.filter((k) => !reference.includes(k)) }).toEqual({
      locale,
      missing: [],
      extra: [],
    });
  }
});

test("every translation uses the same placeholders as French and no text is empty", () => {
  const fr = load("fr.json");
  for (const locale of LOCALES) {
    const messages = load(`${locale}.json`);
    for (const [key, text] of Object.entries(messages)) {
      expect({ locale, key, empty: text.trim() === "" }).toEqual({ locale, key, empty: false });
      expect({ locale, key, placeholders: placeholders(text) }).toEqual({ locale, key, placeholders: placeholders(fr[key] ?? "") });
    }
  }
});

test("the spec's fixed French texts are kept word for word", () => {
  const fr = load("fr.json");
  expect(fr["cta.getAccess"]).toBe("Obtenir l'accès");
  expect(fr["cta.seeDemo"]).toBe("Voir la démo");
  expect(fr.successTitle).toBe("Paiement réussi — Merci !");
  expect(fr.canceledTitle).toBe("Paiement annulé");
  expect(fr["support.emailCopied"]).toBe("Email copié !");
  expect(fr.paymentUrlMissing).toBe("URL de paiement introuvable.");
  expect(fr.paymentError).toBe("Une erreur est survenue");
  expect(fr.paymentErrorDesc).toBe("Réessayez dans un instant.");
});

test("a missing text renders its key; a text formats its values, without a parser in the translator", () => {
  const t = createTranslator("fr", { demoSentDesc: compileMessage("Bonjour {email}"), "nav.skip": compileMessage("Aller à l''essentiel") });
  expect(t("demoSentDesc", { email: "Ana" })).toBe("Bonjour Ana");
  expect(t("nav.skip")).toBe("Aller à l'essentiel");
  expect(t("faqQuestion1")).toBe("faqQuestion1");
});

test("every text that says what the buyer receives by e-mail names the licence key, the word the access e-mail uses", () => {
  // "identifiants" (login and password) or "access details" promised something the buyer never gets.
  const deliveryTexts = [
    "howStep3Desc",
    "faqAnswer3",
    "deliveryStep2",
    "successPendingText",
    "successUnknownText",
    "successNoneText",
    "successMailSent",
    "access.text",
  ];
  for (const locale of LOCALES) {
    const messages = load(`${locale}.json`);
    const term = messages["mail.owner.license"]!.toLowerCase();
    expect(messages["mail.access.subject"]!.toLowerCase()).toContain(term);
    for (const key of deliveryTexts)
      expect({ locale, key, text: messages[key] }).toEqual({ locale, key, text: expect.stringContaining(term) });
  }
});

test("texts parsed on first read read as those parsed at once, and a replaced text changes the catalogue's name", () => {
  // The pages' French catalogue is typeset before parsing: each entry as the parser gives it.
  const typeset = pageTypesetting("fr").typeset;
  const source = load("fr.json");
  expect(JSON.parse(JSON.stringify(PAGE_TEXTS.fr))).toEqual(
    JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(source).map(([key, text]) => [key, compileMessage(typeset(text))])))),
  );

  const published = withReplacedTexts(PAGE_TEXTS.fr, { "meta.title": "Tout {siteName}, pour toujours" }, pageTypesetting("fr"));
  const t = createTranslator("fr", published, { siteName: "Flux" });
  expect(t("meta.title")).toBe("Tout Flux, pour toujours");
  expect(published.faqTitle).toEqual(PAGE_TEXTS.fr.faqTitle);
  // A page made with other texts is never taken for this one (its data hash names the catalogue).
  const same = withReplacedTexts(PAGE_TEXTS.fr, { "meta.title": "Tout {siteName}, pour toujours" }, pageTypesetting("fr"));
  const other = withReplacedTexts(PAGE_TEXTS.fr, { "meta.title": "Tout {siteName}, à vie" }, pageTypesetting("fr"));
  expect(catalogueOrigin(same)).toBe(catalogueOrigin(published));
  expect(catalogueOrigin(other)).not.toBe(catalogueOrigin(published));
  expect(catalogueOrigin(published)).not.toBe(catalogueOrigin(PAGE_TEXTS.fr));
  expect(catalogueOrigin(PAGE_TEXTS.fr)).not.toBe(catalogueOrigin(COMPILED.fr));
});
