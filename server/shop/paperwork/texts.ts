import type { Translate } from "../../../shared/i18n";
import { LOCALE_TAGS, type Locale } from "../../../shared/locales";
import { SELLER_TIME_ZONE } from "../../../shared/offer";
import { formatExactMoney } from "../../../shared/price";
import type { PublishedContent } from "../../site/content/published";

// The texts and formats of a document in its language: the site's own translations (locales/*.json)
// and dates in the seller's time zone, as the receipts in the e-mails show them.

export type DocumentTexts = {
  locale: Locale;
  t: Translate;
  money: (minor: number, currency: string) => string;
  day: (at: Date) => string;
  dateTime: (at: Date) => string;
  country: (code: string) => string;
  /** A rate in basis points as the language writes a percentage (19 %, 5,5 %). */
  rate: (basisPoints: number) => string;
};

export function documentTexts(content: PublishedContent, locale: Locale): DocumentTexts {
  const tag = LOCALE_TAGS[locale].bcp47;
  const day = new Intl.DateTimeFormat(tag, { year: "numeric", month: "long", day: "numeric", timeZone: SELLER_TIME_ZONE });
  const dateTime = new Intl.DateTimeFormat(tag, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: SELLER_TIME_ZONE,
  });
  const countries = new Intl.DisplayNames([tag], { type: "region" });
  const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 2 });
  return {
    locale,
    t: content.localized(locale, new Date()).t,
    // Always with the cents, as accounts read them (the site writes "5 €" for a whole amount).
    money: (minor, currency) => formatExactMoney(minor, currency, locale),
    day: (at) => day.format(at),
    dateTime: (at) => dateTime.format(at),
    country: (code) => countries.of(code) ?? code,
    rate: (basisPoints) => percent.format(basisPoints / 10_000),
  };
}
