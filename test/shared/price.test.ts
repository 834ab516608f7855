import { expect, test } from "bun:test";
import { formatMoney } from "../../shared/price";
import { buildSiteFacts, maxSavingMinor } from "../../shared/site-facts";
import { testConfig } from "../support/config";
import { testSite } from "../support/content";

// Intl uses narrow/normal no-break spaces depending on the locale; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

test("the price is formatted for each language", () => {
  expect(plain(formatMoney(2999, "EUR", "fr"))).toBe("29,99 €");
  expect(plain(formatMoney(2999, "EUR", "en"))).toBe("€29.99");
  expect(plain(formatMoney(2999, "EUR", "it"))).toBe("29,99 €");
  expect(plain(formatMoney(2999, "EUR", "es"))).toBe("29,99 €");
});

test("whole amounts have no decimals and large ones are grouped", () => {
  expect(plain(formatMoney(9900, "EUR", "fr"))).toBe("99 €");
  expect(plain(formatMoney(9900, "EUR", "en"))).toBe("€99");
  expect(plain(formatMoney(150000, "EUR", "fr"))).toBe("1 500 €");
  expect(plain(formatMoney(150000, "EUR", "en"))).toBe("€1,500");
  // Italian and Spanish group four-digit amounts as they group the user count ("2.847"): one
  // number format per language on every page.
  expect(plain(formatMoney(150000, "EUR", "it"))).toBe("1.500 €");
  expect(plain(formatMoney(147000, "EUR", "es"))).toBe("1.470 €");
});

test("price and saving come from the published content (here seeded from PRICE)", () => {
  const site = testSite(testConfig({ PRICE: "19.50", OFFER_ENDS_AT: "2099-12-31" }));
  const facts = buildSiteFacts(site, "fr");
  expect(plain(facts.price)).toBe("19,50 €");
  // Development's sample reference (no price history yet).
  expect(facts.offer.on && plain(facts.offer.oldPrice ?? "")).toBe("99 €");
  // Netflix + Disney+ over five years (1 500 €) minus the price, rounded down for "up to".
  expect(maxSavingMinor(site)).toBe(148000);
  expect(plain(facts.saving)).toBe("1 480 €");
  expect(plain(buildSiteFacts(testSite(testConfig()), "en").saving)).toBe("€1,470");
});

test("the product's comparison row is highlighted with the one-time price", () => {
  const facts = buildSiteFacts(testSite(testConfig()), "en");
  const ours = facts.comparison.filter((r) => r.highlight);
  expect(ours).toHaveLength(1);
  expect(ours[0]).toMatchObject({ monthly: null, yearly: null, fiveYears: "€29.99" });
});
