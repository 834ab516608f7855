import {
  ACCESS_FORM_FAQ,
  type ContentDocument,
  defaultGuide,
  type FaqEntry,
  type GuideText,
  type LocaleTexts,
} from "../../../shared/content";
import { createTranslator, type MessageKey, type MessageValues, siteValues, type Translate } from "../../../shared/i18n";
import type { Locale } from "../../../shared/locales";
import { defaultOfferEnd, endOfDayIn, SELLER_TIME_ZONE } from "../../../shared/offer";
import { NO_PROOF, type ProofSnapshot } from "../../../shared/reviews";
import {
  buildSiteFacts,
  type FaqFact,
  factsKey,
  type GuideDeviceFact,
  type SiteContent,
  type SiteFacts,
  type SiteSettings,
} from "../../../shared/site-facts";
import { EMPTY_MEDIA, type LoadedMedia } from "../catalogue/slots";
import { EMPTY_CATALOGUE, type LoadedCatalogue } from "../catalogue/store";
import {
  COMPILED,
  type CompiledCatalogue,
  compileMessage,
  PAGE_TEXTS,
  pageTypesetting,
  SOURCE_MESSAGES,
  withReplacedTexts,
} from "../locales";

// The published content as every part of a process reads it: the site's facts (name, price,
// offer, comparison), the catalogues with the owner's texts in place of the locales' where set,
// and the FAQ. Built once per published version; everything that quotes a fact (pages, e-mails,
// invoices, the chat) reads it from here, so they all follow the same publish.

/** The specification's struck-through 99 €: development's sample, like its sample reviews. */
export const SAMPLE_REFERENCE_MINOR = 9900;

export type Localized = {
  facts: SiteFacts;
  values: MessageValues;
  /** The translator over the texts as written (e-mails, the chat, invoices). */
  t: Translate;
};

export type PublishedContent = {
  version: number;
  document: ContentDocument;
  site: SiteContent;
  /** The catalogues with the owner's texts, as written (e-mails, the chat, invoices). */
  texts: Record<Locale, CompiledCatalogue>;
  /** The same, typeset for the pages (server/site/typography.ts). */
  pageTexts: Record<Locale, CompiledCatalogue>;
  /** The facts and values of a language at `now`, the FAQ filled in; `page`: with the pages' typesetting. */
  localized(locale: Locale, now: Date, page?: boolean): Localized;
  /** What, besides the language, `localized` depends on at `now` (the offer, the year, the version, the reviews). */
  edition(now: Date): string;
  /** The catalogue shown (the published set's titles with their posters' sources). */
  catalogue: LoadedCatalogue;
  /** The owner's pictures and video in place of the build's (server/site/catalogue/slots.ts). */
  media: LoadedMedia;
};

/** The owner's text of a key in a language, or the locale's own (never another language's). */
const replaced = (texts: ContentDocument["texts"], locale: Locale): Partial<Record<MessageKey, string>> => {
  const out: Partial<Record<MessageKey, string>> = {};
  for (const [key, byLocale] of Object.entries(texts)) {
    const text = byLocale[locale];
    if (text !== undefined && key in SOURCE_MESSAGES[locale]) Object.assign(out, { [key]: text });
  }
  return out;
};

/** An entry's question and answer in a language: the owner's, a built-in's default, or none (left out). */
export function faqTexts(entry: FaqEntry, locale: Locale): { question: string; answer: string } | null {
  const pick = (texts: LocaleTexts, fallback: MessageKey | null) =>
    texts[locale] ?? (fallback === null ? undefined : SOURCE_MESSAGES[locale][fallback]);
  const question = pick(entry.question, entry.builtIn === null ? null : `faqQuestion${entry.builtIn}`);
  const answer = pick(entry.answer, entry.builtIn === null ? null : `faqAnswer${entry.builtIn}`);
  return question === undefined || answer === undefined ? null : { question, answer };
}

function faqFacts(document: ContentDocument, locale: Locale, values: MessageValues, typeset: (text: string) => string): FaqFact[] {
  const facts: FaqFact[] = [];
  for (const entry of document.faq) {
    if (!entry.shown) continue;
    const texts = faqTexts(entry, locale);
    if (texts === null) continue;
    const t = createTranslator(
      locale,
      { faqQuestion1: compileMessage(typeset(texts.question)), faqAnswer1: compileMessage(typeset(texts.answer)) },
      values,
    );
    facts.push({
      id: entry.id,
      question: t("faqQuestion1"),
      answer: t("faqAnswer1"),
      accessForm: entry.builtIn === ACCESS_FORM_FAQ,
      own: entry.builtIn === null,
    });
  }
  // The rights statement answers "is it legal? where does the content come from?" in the FAQ too
  // (and so in the chat, which answers the FAQ's entries), in the languages the owner wrote it in.
  const rights = document.catalogue.rights[locale];
  if (rights !== undefined) {
    const t = createTranslator(
      locale,
      {
        faqQuestion1: compileMessage(typeset(SOURCE_MESSAGES[locale]["catalogue.rightsQuestion"])),
        faqAnswer1: compileMessage(typeset(rights)),
      },
      values,
    );
    facts.push({ id: "catalogue-rights", question: t("faqQuestion1"), answer: t("faqAnswer1"), accessForm: false, own: false });
  }
  return facts;
}

/**
 * The guide's devices in a language. A built-in text the owner left as it is goes through the
 * page's catalogue (`t`), so the built-in guide reads exactly as before it was content; a device
 * without its name or any step in the language is left out of it.
 */
function guideFacts(
  document: ContentDocument,
  locale: Locale,
  t: Translate,
  values: MessageValues,
  typeset: (text: string) => string,
): GuideDeviceFact[] {
  const format = (item: GuideText): string | undefined => {
    const own = item.text[locale];
    if (own === undefined) return item.builtIn === null ? undefined : t(item.builtIn);
    return createTranslator(locale, { "guide.step.open": compileMessage(typeset(own)) }, values)("guide.step.open");
  };
  const facts: GuideDeviceFact[] = [];
  for (const device of document.guide.devices) {
    const title = format(device.title);
    const steps = device.steps.flatMap((step) => format(step) ?? []);
    if (title === undefined || steps.length === 0) continue;
    facts.push({ id: device.id, title, steps, tip: device.tip === null ? null : (format(device.tip) ?? null) });
  }
  return facts;
}

/** The site's facts from the published document, the environment's settings and the price history's reference. */
export function siteContentOf(
  document: ContentDocument,
  settings: SiteSettings,
  reference: number | null,
  firstStartedAt: Date,
  proof: ProofSnapshot = NO_PROOF,
): SiteContent {
  const { offer } = document;
  const sample = settings.showPlaceholders && SAMPLE_REFERENCE_MINOR > offer.priceMinor ? SAMPLE_REFERENCE_MINOR : null;
  return {
    name: offer.productName,
    supportEmail: settings.supportEmail,
    priceMinor: offer.priceMinor,
    // A reference from the price history shows only if the owner chose to show it; with none,
    // development's sample keeps the specification's look, like its sample reviews (production: none).
    originalPriceMinor: reference !== null ? (offer.showReference ? reference : null) : sample,
    currency: offer.currency,
    proof,
    ownerSet: { originalPrice: offer.showReference && reference !== null },
    showPlaceholders: settings.showPlaceholders,
    comparison: [
      ...document.comparison.rows.map((row) => ({
        name: row.service,
        monthly: row.monthlyMinor,
        yearly: row.yearlyMinor,
        fiveYears: row.fiveYearsMinor,
      })),
      { name: offer.productName, monthly: null, yearly: null, fiveYears: offer.priceMinor, highlight: true },
    ],
    comparisonChecked:
      document.comparison.checkedOn !== null && document.comparison.source !== null
        ? { on: document.comparison.checkedOn, source: document.comparison.source }
        : null,
    offerEndsAt: offer.endsOn === null ? defaultOfferEnd(firstStartedAt) : endOfDayIn(SELLER_TIME_ZONE, offer.endsOn),
    refundMode: settings.refundMode,
    vat: settings.vat,
    testCheckout: settings.testCheckout,
    deviceLimit: settings.deviceLimit,
  };
}

export function buildPublished(options: {
  version: number;
  document: ContentDocument;
  settings: SiteSettings;
  reference: number | null;
  firstStartedAt: Date;
  catalogue?: LoadedCatalogue;
  media?: LoadedMedia;
  /** The published reviews and the figure (server/shop/reviews/store.ts); none when not given. */
  proof?: ProofSnapshot;
}): PublishedContent {
  const { version, document } = options;
  const site = siteContentOf(document, options.settings, options.reference, options.firstStartedAt, options.proof);
  const byLocale = <T>(make: (locale: Locale) => T): Record<Locale, T> => ({
    fr: make("fr"),
    en: make("en"),
    it: make("it"),
    es: make("es"),
  });
  const texts = byLocale((locale) => withReplacedTexts(COMPILED[locale], replaced(document.texts, locale)));
  const pageTexts = byLocale((locale) => withReplacedTexts(PAGE_TEXTS[locale], replaced(document.texts, locale), pageTypesetting(locale)));
  const cache = new Map<string, Localized>();
  const guideIsDefault = JSON.stringify(document.guide) === JSON.stringify(defaultGuide());
  // The reviews' stamp too: publishing a review makes the pages anew, like a content publish.
  const edition = (now: Date) => `${version}:${site.proof.stamp}:${factsKey(site, now)}`;
  return {
    version,
    document,
    site,
    texts,
    pageTexts,
    edition,
    catalogue: options.catalogue ?? EMPTY_CATALOGUE,
    media: options.media ?? EMPTY_MEDIA,
    localized(locale, now, page = false) {
      const key = `${locale}:${page}:${edition(now)}`;
      let found = cache.get(key);
      if (found === undefined) {
        const catalogue = page ? pageTexts[locale] : texts[locale];
        const base = buildSiteFacts(site, locale, now);
        const values = siteValues(locale, catalogue, base);
        const typeset = page ? pageTypesetting(locale).typeset : (text: string) => text;
        const t = createTranslator(locale, catalogue, values);
        const facts: SiteFacts = {
          ...base,
          faq: faqFacts(document, locale, values, typeset),
          guide: guideFacts(document, locale, t, values, typeset),
          guideIsDefault,
        };
        found = { facts, values, t };
        cache.set(key, found);
      }
      return found;
    },
  };
}
