import { expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { alternatesFor, localeOfPath, matchPath, PAGE_IDS, pathFor } from "../../shared/routes";

test("French pages live at the spec's paths, other languages under a prefix", () => {
  expect(pathFor("landing", "fr")).toBe("/");
  expect(pathFor("payment", "fr")).toBe("/paiement");
  expect(pathFor("landing", "en")).toBe("/en");
  expect(pathFor("success", "it")).toBe("/it/payment-success");
  expect(pathFor("canceled", "es")).toBe("/es/payment-canceled");
  expect(pathFor("guide", "fr")).toBe("/guide");
  expect(pathFor("guide", "en")).toBe("/en/guide");
});

test("every page path resolves back to its page and language", () => {
  for (const page of PAGE_IDS) {
    for (const locale of LOCALES) {
      expect(matchPath(pathFor(page, locale))).toEqual({ page, locale });
    }
  }
});

test("unknown paths, unknown prefixes and the redundant /fr prefix do not match", () => {
  expect(matchPath("/de")).toBeNull();
  expect(matchPath("/de/paiement")).toBeNull();
  expect(matchPath("/fr/paiement")).toBeNull();
  expect(matchPath("/en/paiement/extra")).toBeNull();
  expect(matchPath("/pricing")).toBeNull();
});

test("alternates name the same page in all four languages", () => {
  expect(alternatesFor("payment")).toEqual({ fr: "/paiement", en: "/en/paiement", it: "/it/paiement", es: "/es/paiement" });
  expect(localeOfPath("/es/nope")).toBe("es");
  expect(localeOfPath("/nope")).toBe("fr");
});
