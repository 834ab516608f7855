import { LOCALE_TAGS, type Locale } from "../../../../shared/locales";

/** Date and time in the owner's language, in the server's time zone as the owner reads it. */
export const formatWhen = (locale: Locale, at: Date) =>
  new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, { dateStyle: "medium", timeStyle: "short" }).format(at);

/** Minor units (cents) to money in the owner's language: 29,99 € in French, €29.99 in English. */
export const formatMoney = (locale: Locale, minor: number, currency: string) =>
  new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47, { style: "currency", currency }).format(minor / 100);

export const formatNumber = (locale: Locale, n: number) => new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47).format(n);
