import { LOCALE_TAGS, type Locale } from "./locales";
import { endOfDayIn, formatOfferEnd, offerEndSound, offerIsOn, SELLER_TIME_ZONE } from "./offer";
import { formatCount, formatMoney } from "./price";
import { priceForBusiness } from "./reverse-charge";
import { type ProofFigureKind, type ProofSnapshot, type ReviewsFacts, SAMPLE_REVIEWS, type StoredShownReview } from "./reviews";

// The owner's content with every amount already formatted for one language. Built on the server
// and sent to the browser as data, so that server and client render the same characters (Intl
// output differs between runtimes) and so that only this public subset of configuration leaves the
// server.

/** A row of the comparison table, amounts in minor units (cents) over one, twelve and sixty months. */
export type ComparisonRow = { name: string; monthly: number | null; yearly: number | null; fiveYears: number; highlight?: boolean };

/** The owner's content as configuration holds it (server/platform/config.ts): one type for both sides. */
export type SiteContent = {
  name: string;
  supportEmail: string;
  priceMinor: number;
  /**
   * The struck-through reference while the offer runs: the lowest price charged in the 30 days
   * before the reduction (server/site/content/price-reference.ts), the specification's sample in
   * development; null: none, so no offer is announced.
   */
  originalPriceMinor: number | null;
  currency: string;
  /**
   * The site's own evidence: published buyers' reviews and the figure it counts (buyers or devices),
   * read at one stamp (server/shop/reviews/store.ts). Never typed by anyone.
   */
  proof: ProofSnapshot;
  /** Whether the owner has set the reference price (the launch offer's struck-through price). */
  ownerSet: { originalPrice: boolean };
  /** Development: show the specification's placeholders where the owner has set nothing. */
  showPlaceholders: boolean;
  comparison: ComparisonRow[];
  /** When and where the owner checked the competitors' prices (`YYYY-MM-DD`), shown under the table; null: not said. */
  comparisonChecked: { on: string; source: string } | null;
  /** When the early-bird offer ends; null: no offer. */
  offerEndsAt: Date | null;
  /**
   * The 7-day guarantee's refund page: `auto` refunds on the buyer's confirmation, `request` queues
   * the request for the owner's approval in the console. The texts about the guarantee say which.
   */
  refundMode: RefundMode;
  /** Whether the price includes VAT: `none` under the franchise (VAT_SCHEME=franchise), where no sale charges any. */
  vat: VatShown;
  /**
   * A production site taking orders with the built-in test checkout (ALLOW_TEST_CHECKOUT, no Stripe):
   * no payment is real, so every page that leads to one, the success page and every e-mail say TEST.
   */
  testCheckout: boolean;
  /**
   * Devices one licence key may be active on at a time (LICENSE_ACTIVATION_LIMIT): the pages say it
   * where the price is, as the terms and the chat do.
   */
  deviceLimit: number;
};

/** `own`: an entry the owner wrote (not one of the built-in five, nor the rights statement). */
export type FaqFact = { id: string; question: string; answer: string; accessForm: boolean; own: boolean };

/** A device of the installation guide in one language, texts formatted; `id` is its anchor on /guide. */
export type GuideDeviceFact = { id: string; title: string; steps: string[]; tip: string | null };

/**
 * What the environment still says of the site (server/platform/config.ts): the support address,
 * the guarantee's mode, VAT, whether development samples show, whether the test checkout takes
 * the orders. Everything else of SiteContent is the owner's published content (server/site/content/).
 */
/**
 * The specification's "more than 2,847 active users": a placeholder until the owner sets
 * CLAIMED_USERS. Here rather than with the owner's content (server/site/owner-content.ts) because
 * the environment's schema, in the platform, names it as the setting's default.
 */
export const PLACEHOLDER_CLAIMED_USERS = 2847;

export type SiteSettings = Pick<SiteContent, "supportEmail" | "showPlaceholders" | "refundMode" | "vat" | "testCheckout" | "deviceLimit">;

export type RefundMode = "auto" | "request";
export type VatShown = "included" | "none";

/**
 * The early-bird offer as every text sees it (pages, meta, e-mails, chat): while it runs, its end
 * day formatted for the language and the struck-through reference price; after it, nothing, so no
 * text can claim a limit in time. The price itself is the same before and after: what the offer
 * offers is that price against the reference, so without a reference price (production, until the
 * owner sets ORIGINAL_PRICE) there is no offer to announce, and no date to count down to.
 */
export type OfferFacts = { on: true; endsOn: string; endsOnSound: "vowel" | "consonant"; oldPrice: string } | { on: false };

/**
 * The texts that differ while the offer runs, chosen in one place for the pages, the chat and the
 * e-mails. After the offer: no badge, no struck-through price, no date, the same price.
 */
export function offerTextKeys(offer: OfferFacts) {
  return offer.on
    ? ({
        heroBadge: "heroBadge",
        priceNote: "hero.priceNote",
        pricingSubtitle: "pricingSubtitle",
      } as const)
    : ({ heroBadge: "heroBadgeStandard", priceNote: "hero.priceNoteStandard", pricingSubtitle: "pricingSubtitleStandard" } as const);
}

export type SiteFacts = {
  siteName: string;
  supportEmail: string;
  price: string;
  /**
   * The price excluding VAT a company of another EU member state with a VAT number pays (reverse
   * charge, shared/reverse-charge.ts); null when the seller charges no VAT (the franchise), where
   * that company pays the price.
   */
  businessPrice: string | null;
  saving: string;
  /**
   * The buyers or devices the site counts, exact, formatted; null below the owner's threshold or
   * when hidden (console, Reviews). `usersKind` says which the text names.
   */
  users: string | null;
  usersKind: ProofFigureKind;
  year: number;
  /** Published buyers' reviews; in development, while there is none, the samples (marked, never counted). */
  reviews: ReviewsFacts;
  comparison: { name: string; monthly: string | null; yearly: string | null; fiveYears: string; highlight: boolean }[];
  /** "Prices checked on 27 November 2026 on …": the day formatted for the language. */
  comparisonChecked: { date: string; source: string } | null;
  /**
   * The FAQ in this language, in the owner's order, shown entries only, texts formatted (the
   * server fills it from the published content: server/site/content/published.ts). `accessForm`:
   * the entry that carries the access-recovery form.
   */
  faq: FaqFact[];
  /**
   * The installation guide's devices in this language, in the owner's order (the server fills it
   * from the published content); `guideIsDefault`: the built-in guide, unchanged.
   */
  guide: GuideDeviceFact[];
  guideIsDefault: boolean;
  offer: OfferFacts;
  refundMode: RefundMode;
  vat: VatShown;
  /** The TEST banner is shown (SiteContent.testCheckout). */
  testCheckout: boolean;
  /** Devices one key may be active on at a time (SiteContent.deviceLimit): `{devices}` in the texts. */
  devices: number;
};

/**
 * What, besides the language, the facts depend on at `now`: the year (the footer's "©") and whether
 * the offer runs. Caches of anything built from the facts are keyed by it, so the offer's end takes
 * effect everywhere at once, without a restart.
 */
export function factsKey(site: Pick<SiteContent, "offerEndsAt">, now: Date): string {
  return `${now.getUTCFullYear()}:${offerIsOn(site.offerEndsAt, now) ? "offer" : "no-offer"}`;
}

/**
 * The largest five-year saving against the comparison rows (computed, never claimed: docs/product.md),
 * rounded down to whole units since the text says "up to".
 */
export function maxSavingMinor(site: SiteContent): number {
  const others = site.comparison.filter((r) => !r.highlight).map((r) => r.fiveYears);
  const best = Math.max(0, ...others.map((total) => total - site.priceMinor));
  return Math.floor(best / 100) * 100;
}

export function buildSiteFacts(site: SiteContent, locale: Locale, now = new Date()): SiteFacts {
  const money = (minor: number) => formatMoney(minor, site.currency, locale);
  // Production shows only what the owner has set; development the specification's content too.
  const shows = (piece: keyof SiteContent["ownerSet"]) => site.showPlaceholders || site.ownerSet[piece];
  const { proof } = site;
  return {
    siteName: site.name,
    supportEmail: site.supportEmail,
    price: money(site.priceMinor),
    businessPrice: site.vat === "included" ? money(priceForBusiness(true, site.priceMinor)) : null,
    saving: money(maxSavingMinor(site)),
    users: proof.figure === null ? null : formatCount(proof.figure.count, locale),
    usersKind: proof.figure?.kind ?? "buyers",
    year: now.getUTCFullYear(),
    refundMode: site.refundMode,
    vat: site.vat,
    testCheckout: site.testCheckout,
    devices: site.deviceLimit,
    reviews: reviewsFacts(proof, site.showPlaceholders, locale),
    comparison: site.comparison.map((r) => ({
      name: r.name,
      monthly: r.monthly === null ? null : money(r.monthly),
      yearly: r.yearly === null ? null : money(r.yearly),
      fiveYears: money(r.fiveYears),
      highlight: r.highlight === true,
    })),
    comparisonChecked:
      site.comparisonChecked === null
        ? null
        : { date: formatOfferEnd(endOfDayIn(SELLER_TIME_ZONE, site.comparisonChecked.on), locale), source: site.comparisonChecked.source },
    faq: [],
    guide: [],
    guideIsDefault: true,
    offer:
      site.offerEndsAt !== null && offerIsOn(site.offerEndsAt, now) && site.originalPriceMinor !== null && shows("originalPrice")
        ? {
            on: true,
            endsOn: formatOfferEnd(site.offerEndsAt, locale),
            endsOnSound: offerEndSound(site.offerEndsAt, locale),
            oldPrice: money(site.originalPriceMinor),
          }
        : { on: false },
  };
}

// One per language, made on first use: making a DateTimeFormat costs far more than formatting with it.
const reviewDateFormats = new Map<Locale, Intl.DateTimeFormat>();
function reviewDateFormat(locale: Locale): Intl.DateTimeFormat {
  let format = reviewDateFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: SELLER_TIME_ZONE,
    });
    reviewDateFormats.set(locale, format);
  }
  return format;
}

/**
 * The reviews as a language shows them: the average over all published ones (one decimal, never
 * rounded up to a whole star), the newest first with their dates. Samples only where the site
 * shows placeholders (development) and only while no review is published.
 */
export function reviewsFacts(proof: ProofSnapshot, samples: boolean, locale: Locale): ReviewsFacts {
  const bcp47 = LOCALE_TAGS[locale].bcp47;
  const dates = reviewDateFormat(locale);
  const shown = (review: StoredShownReview, sample: boolean) => ({
    ...review,
    date: dates.format(new Date(review.publishedAt)),
    isoDate: new Date(review.publishedAt).toISOString().slice(0, 10),
    sample,
  });
  if (proof.count === 0)
    return { count: 0, average: null, averageValue: null, latest: samples ? SAMPLE_REVIEWS.map((r) => shown(r, true)) : [] };
  const averageValue = Math.floor((proof.ratingSum / proof.count) * 10) / 10;
  return {
    count: proof.count,
    averageValue,
    average: new Intl.NumberFormat(bcp47, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(averageValue),
    latest: proof.latest.map((r) => shown(r, false)),
  };
}
