import { LOCALE_TAGS, type Locale } from "./locales";

/** Formats an amount in minor units (cents) for a locale: 2999 EUR -> "29,99 €" in French, "€29.99" in English. */
export function formatMoney(amountMinor: number, currency: string, locale: Locale): string {
  const value = amountMinor / 100;
  return new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47, {
    style: "currency",
    currency,
    // "1.500 €" beside "2.847" (formatCount): CLDR leaves four-digit amounts ungrouped in Italian and Spanish.
    useGrouping: "always",
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(value);
}

/**
 * An amount always with its cents ("5,00 €"), as an invoice and the accounts write it; the pages
 * write a whole amount without them ("5 €") through formatMoney.
 */
export function formatExactMoney(amountMinor: number, currency: string, locale: Locale): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47, {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amountMinor / 100);
}

/**
 * A count with the language's thousands separator, four-digit numbers included: CLDR leaves
 * "2847" ungrouped in Italian and Spanish, where a page reads "2.847".
 */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47, { useGrouping: "always" }).format(value);
}
