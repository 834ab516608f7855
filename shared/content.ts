import * as v from "valibot";
import {
  CATALOGUE_LIMITS,
  type CatalogueContent,
  type DemoCaptions,
  DemoCaptionsSchema,
  emptyCatalogueContent,
  emptyMediaSlots,
  type MediaSlots,
  MediaSlotsSchema,
} from "./catalogue";
import { LOCALES, type Locale } from "./locales";

// The owner's content (docs/content.md): what the site says about the product, stored with the
// shop's data, edited in the console, exported and imported as JSON. One shape for the console,
// the command line, the store and the pages. The locales' texts stay the defaults: `texts` holds
// only the owner's replacements, and a language without one shows the locale's own text.

/** A text per language; a language left out (or an empty text) is a missing one. */
export type LocaleTexts = Partial<Record<Locale, string>>;

/**
 * An FAQ entry. `builtIn` names one of the specification's five (faqQuestionN/faqAnswerN in the
 * locales): a language without the owner's text shows that default. An owner's entry missing in a
 * language is left out of that language's page.
 */
export type FaqEntry = { id: string; shown: boolean; builtIn: BuiltInFaq | null; question: LocaleTexts; answer: LocaleTexts };

/** A competitor's row of the comparison table, amounts in minor units; the site's own row is added by the page. */
export type ComparisonEntry = { service: string; monthlyMinor: number | null; yearlyMinor: number | null; fiveYearsMinor: number };

export type OfferContent = {
  productName: string;
  priceMinor: number;
  currency: string;
  /** The launch offer's last day (`YYYY-MM-DD`, seller's time zone); null: two weeks after the first start. */
  endsOn: string | null;
  /**
   * Show a struck-through reference while the offer runs: the lowest price charged in the 30 days
   * before the reduction began (price history), never a typed one; false: never. Off by default:
   * showing a reduction is the owner's choice, made once the history has a reference to offer.
   */
  showReference: boolean;
};

export type ContentDocument = {
  format: 1;
  offer: OfferContent;
  /** The owner's replacements of the locales' texts, by message key (only CONTENT_KEYS). */
  texts: Record<string, LocaleTexts>;
  faq: FaqEntry[];
  comparison: { rows: ComparisonEntry[]; checkedOn: string | null; source: string | null };
  /** The catalogue shown (an imported set) and its rights statement (shared/catalogue.ts). */
  catalogue: CatalogueContent;
  /** The owner's pictures and video in place of the build's. */
  media: MediaSlots;
  /** The captions of the owner's demo video, per language, as timed lines (served as WebVTT). */
  captions: DemoCaptions;
  /** The installation guide (/guide): its devices in the page's order, each with its steps. */
  guide: GuideContent;
};

export const LIMITS = {
  text: 1000,
  faqQuestion: 200,
  faqAnswer: 2000,
  faqEntries: 40,
  comparisonRows: 8,
  service: 60,
  source: 200,
  productName: 60,
  maxPriceMinor: 99_999_900,
  guideDevices: 12,
  guideSteps: 12,
  guideTitle: 80,
  guideStep: 400,
} as const;

/**
 * How long an owner's text of the pages may be, by what it is: a button's label or a title is read
 * at a glance and must fit its place on a phone, a paragraph may say more. Each default fits its
 * own family's limit in every language, with room for a longer translation.
 */
export const TEXT_LIMITS = { label: 60, title: 150, description: 300, paragraph: LIMITS.text } as const;
export type TextFamily = keyof typeof TEXT_LIMITS;

const LABEL_KEYS =
  /(?:getAccess|seeDetails|seeDemo|^pricing\.cta|^exitPopup\.submit|^pricing\.plan|^pricing\.once|^guide\.toc|^guide\.otherDevice)$/;
const TITLE_KEYS =
  /(?:Title|\.title|^heroBadge(?:Standard)?|^trustBadge\d|^preview\.point\d|^whyAppBenefit\d|^howStep\d|^comparison|^savingsMessage|^pricing\.feature\d|^pricing\.guarantee|^hero\.users|^hero\.priceNote(?:Standard)?|^footer\.tagline|^orderProduct|^paymentSubtitle|^exitPopup\.privacy)$/;

/** What a page text is (a button's label, a title, a search engine's description, a paragraph). */
export function textFamily(key: string): TextFamily {
  if (LABEL_KEYS.test(key)) return "label";
  if (TITLE_KEYS.test(key)) return "title";
  if (key === "meta.description" || key === "meta.guideDescription") return "description";
  return "paragraph";
}

/** The longest owner's text a page text takes, in characters. */
export const textLimit = (key: string): number => TEXT_LIMITS[textFamily(key)];

/**
 * The texts of the public pages the owner may replace, by page and section, in the order the page
 * shows them: the console lists them so, each in its context, never as a flat list of keys.
 */
export const CONTENT_SECTIONS = [
  { id: "meta", page: "landing", keys: ["meta.title", "meta.description", "footer.tagline"] },
  {
    id: "hero",
    page: "landing",
    keys: [
      "heroBadge",
      "heroBadgeStandard",
      "heroTitle",
      "heroSubtitle",
      "hero.getAccess",
      "hero.seeDetails",
      "hero.users",
      "hero.priceNote",
      "hero.priceNoteStandard",
    ],
  },
  { id: "trust", page: "landing", keys: ["trustBadge1", "trustBadge2", "trustBadge3"] },
  {
    id: "features",
    page: "landing",
    keys: [
      "featuresTitle",
      "featuresSubtitle",
      "feature1Title",
      "feature1Desc",
      "feature2Title",
      "feature2Desc",
      "feature3Title",
      "feature3Desc",
      "feature4Title",
      "feature4Desc",
      "cta.featuresTitle",
    ],
  },
  { id: "preview", page: "landing", keys: ["preview.title", "preview.text", "preview.point1", "preview.point2", "preview.point3"] },
  {
    id: "why",
    page: "landing",
    keys: [
      "whyTitle",
      "whySubtitle",
      "whyAppBenefit1",
      "whyAppBenefit1Desc",
      "whyAppBenefit2",
      "whyAppBenefit2Desc",
      "whyAppBenefit3",
      "whyAppBenefit3Desc",
      "whyAppBenefit4",
      "whyAppBenefit4Desc",
      "whyAppBenefit5",
      "whyAppBenefit5Desc",
      "whyAppBenefit6",
      "whyAppBenefit6Desc",
      "cta.whyTitle",
    ],
  },
  { id: "comparison", page: "landing", keys: ["comparison", "comparisonSubtitle", "savingsMessage", "cta.comparisonTitle"] },
  {
    id: "how",
    page: "landing",
    keys: [
      "howTitle",
      "howSubtitle",
      "howStep1",
      "howStep1Desc",
      "howStep2",
      "howStep2Desc",
      "howStep3",
      "howStep3Desc",
      "howStep4",
      "howStep4Desc",
      "cta.howTitle",
    ],
  },
  {
    id: "pricing",
    page: "landing",
    keys: [
      "pricingTitle",
      "pricingSubtitle",
      "pricingSubtitleStandard",
      "pricing.plan",
      "pricing.once",
      "offer.fineprint",
      "pricing.feature1",
      "pricing.feature2",
      "pricing.feature3",
      "pricing.feature4",
      "pricing.feature5",
      "pricing.feature6",
      "pricing.cta",
      "pricing.guarantee",
    ],
  },
  { id: "cta", page: "landing", keys: ["cta.getAccess", "cta.seeDemo"] },
  { id: "faq", page: "landing", keys: ["faqTitle"] },
  { id: "exitPopup", page: "landing", keys: ["exitPopup.title", "exitPopup.text", "exitPopup.submit", "exitPopup.privacy"] },
  { id: "order", page: "payment", keys: ["paymentTitle", "paymentSubtitle", "orderProduct", "orderProductDesc"] },
  // The guide's devices and steps are `guide` below; these are the page's own texts around them.
  {
    id: "guide",
    page: "guide",
    keys: [
      "meta.guideTitle",
      "meta.guideDescription",
      "guide.title",
      "guide.subtitle",
      "guide.toc",
      "guide.before.title",
      "guide.before.text",
      "guide.before.lost",
      "guide.otherDevice",
      "guide.help.title",
      "guide.help.text",
      "guide.help.guarantee",
    ],
  },
] as const;

export type ContentSectionId = (typeof CONTENT_SECTIONS)[number]["id"];
export type ContentKey = (typeof CONTENT_SECTIONS)[number]["keys"][number];
export const CONTENT_KEYS: readonly ContentKey[] = CONTENT_SECTIONS.flatMap((s) => [...s.keys]);
export const isContentKey = (key: string): key is ContentKey => CONTENT_KEYS.some((k) => k === key);

/** The specification's five FAQ entries (faqQuestionN/faqAnswerN); the third carries the access-recovery form. */
export const BUILT_IN_FAQ = [1, 2, 3, 4, 5] as const;
export type BuiltInFaq = (typeof BUILT_IN_FAQ)[number];
export const ACCESS_FORM_FAQ = 3;

/** The competitors' rows of a fresh install (the specification's). */
export const DEFAULT_COMPARISON: ComparisonEntry[] = [
  { service: "Netflix + Disney+", monthlyMinor: 2500, yearlyMinor: 30000, fiveYearsMinor: 150000 },
  { service: "IPTV", monthlyMinor: 1500, yearlyMinor: 18000, fiveYearsMinor: 90000 },
];

/** Version 0: what a fresh install shows, restorable like any published version. */
export function defaultContent(): ContentDocument {
  return {
    format: 1,
    offer: { productName: "Lifetime Stream", priceMinor: 2999, currency: "EUR", endsOn: null, showReference: false },
    texts: {},
    faq: BUILT_IN_FAQ.map((n) => ({ id: `faq${n}`, shown: true, builtIn: n, question: {}, answer: {} })),
    comparison: { rows: DEFAULT_COMPARISON.map((row) => ({ ...row })), checkedOn: null, source: null },
    catalogue: emptyCatalogueContent(),
    media: emptyMediaSlots(),
    captions: {},
    guide: defaultGuide(),
  };
}

/**
 * A text of the installation guide. `builtIn` names the locale text it defaults to: a language
 * without the owner's text shows that default. A text of the owner's own (`builtIn` null) missing
 * in a language is left out of that language's page (a device without its name there, entirely).
 */
export type GuideText = { builtIn: GuideDefaultKey | null; text: LocaleTexts };

/**
 * A device of the guide. `id` is its anchor on the page (`/guide#tv`): access e-mails and the chat
 * link to it, so it never changes once made (renaming a device changes its title only).
 */
export type GuideDevice = { id: string; title: GuideText; steps: GuideText[]; tip: GuideText | null };

export type GuideContent = { devices: GuideDevice[] };

/** The guide's built-in devices, in the page's order: a fresh install's guide. */
export const BUILT_IN_DEVICES = ["android", "ios", "windows", "mac", "tv"] as const;

/** The locale texts a guide text may default to. */
export const GUIDE_DEFAULT_KEYS = [
  "guide.android.title",
  "guide.android.store",
  "guide.android.install",
  "guide.ios.title",
  "guide.ios.store",
  "guide.ios.install",
  "guide.windows.title",
  "guide.windows.store",
  "guide.windows.install",
  "guide.mac.title",
  "guide.mac.store",
  "guide.mac.install",
  "guide.tv.title",
  "guide.tv.store",
  "guide.tv.install",
  "guide.tv.tip",
  "guide.step.open",
  "guide.step.key",
  "guide.step.watch",
] as const;
export type GuideDefaultKey = (typeof GUIDE_DEFAULT_KEYS)[number];

/**
 * Ids a device may not take: the page's own anchors and headings (`devices` is the list of
 * devices every section links back to; a device's heading is `<id>-title`).
 */
export const RESERVED_DEVICE_IDS: readonly string[] = ["devices", "main", "main-content", "faq", "guide-toc", "guide-before", "guide-help"];

const builtInText = (key: GuideDefaultKey): GuideText => ({ builtIn: key, text: {} });

/** The guide of a fresh install: five devices, each got from its store, then the same three steps. */
export function defaultGuide(): GuideContent {
  return {
    devices: BUILT_IN_DEVICES.map((device) => ({
      id: device,
      title: builtInText(`guide.${device}.title`),
      steps: [
        builtInText(`guide.${device}.store`),
        builtInText(`guide.${device}.install`),
        builtInText("guide.step.open"),
        builtInText("guide.step.key"),
        builtInText("guide.step.watch"),
      ],
      tip: device === "tv" ? builtInText("guide.tv.tip") : null,
    })),
  };
}

// The document's shape, checked wherever one comes from outside the store (a console form, an
// imported file). Texts' placeholders are checked against their defaults apart
// (server/site/content/check.ts): that needs the locales.

const trimmedText = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `must be at most ${max} characters`));
const localeTexts = (max: number) =>
  v.pipe(
    v.record(v.picklist(LOCALES, `must be one of the languages ${LOCALES.join(", ")}`), v.optional(trimmedText(max))),
    // An empty text is a missing one.
    v.transform((texts) => {
      const kept: LocaleTexts = {};
      for (const locale of LOCALES) {
        const text = texts[locale];
        if (text !== undefined && text !== "") kept[locale] = text;
      }
      return kept;
    }),
  );

const minor = (label: string) =>
  v.pipe(
    v.number(`${label} must be a number of cents`),
    v.integer(`${label} must be a whole number of cents`),
    v.minValue(0, `${label} must not be negative`),
    v.maxValue(LIMITS.maxPriceMinor, `${label} is too large`),
  );

export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isoDay = v.pipe(
  v.string(),
  v.regex(ISO_DAY, "must be a date such as 2026-12-31"),
  v.check(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s,
    "must be a real calendar date",
  ),
);

export const FaqEntrySchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/, "must be lowercase letters, digits or dashes")),
  shown: v.boolean(),
  builtIn: v.nullable(v.picklist(BUILT_IN_FAQ, "must be one of the five built-in entries (1 to 5) or null")),
  question: localeTexts(LIMITS.faqQuestion),
  answer: localeTexts(LIMITS.faqAnswer),
});

const guideText = (max: number) =>
  v.strictObject(
    {
      builtIn: v.nullable(v.picklist(GUIDE_DEFAULT_KEYS, "must be one of the guide's built-in texts or null")),
      text: localeTexts(max),
    },
    "must be { builtIn, text } and nothing else",
  );

export const GuideDeviceSchema = v.strictObject(
  {
    id: v.pipe(
      v.string(),
      v.regex(/^[a-z0-9-]{1,40}$/, "must be lowercase letters, digits or dashes"),
      v.check((id) => !RESERVED_DEVICE_IDS.includes(id), "is a name the page already uses for itself"),
    ),
    title: guideText(LIMITS.guideTitle),
    steps: v.pipe(
      v.array(guideText(LIMITS.guideStep)),
      v.minLength(1, "must have at least one step"),
      v.maxLength(LIMITS.guideSteps, `must have at most ${LIMITS.guideSteps} steps`),
    ),
    tip: v.nullable(guideText(LIMITS.guideStep)),
  },
  "must be { id, title, steps, tip } and nothing else",
);

export const GuideSchema = v.strictObject(
  {
    devices: v.pipe(
      v.array(GuideDeviceSchema),
      v.maxLength(LIMITS.guideDevices, `must have at most ${LIMITS.guideDevices} devices`),
      v.check((devices) => new Set(devices.map((d) => d.id)).size === devices.length, "has two devices with the same id"),
    ),
  },
  "must be { devices } and nothing else",
);

export const ContentDocumentSchema = v.object({
  format: v.literal(1, "must be 1"),
  offer: v.object({
    productName: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "must not be empty"),
      v.maxLength(LIMITS.productName, `must be at most ${LIMITS.productName} characters`),
    ),
    priceMinor: v.pipe(minor("the price"), v.minValue(50, "must be at least 50 cents")),
    currency: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, "must be a three-letter currency code such as EUR")),
    endsOn: v.nullable(isoDay),
    showReference: v.boolean(),
    // "claimedUsers", a typed user count in older exports and versions, is read no more: the home
    // page's figure is counted by the site from its sales (console, Reviews). An object schema
    // drops it, so those files and versions still import and restore.
  }),
  texts: v.pipe(
    v.record(
      v.pipe(
        v.string(),
        v.check((key) => isContentKey(key), "is not a text the owner can change"),
      ),
      localeTexts(LIMITS.text),
    ),
  ),
  faq: v.pipe(
    v.array(FaqEntrySchema),
    v.maxLength(LIMITS.faqEntries, `must have at most ${LIMITS.faqEntries} entries`),
    v.check((entries) => new Set(entries.map((e) => e.id)).size === entries.length, "has two entries with the same id"),
    v.check((entries) => {
      const builtIns = entries.flatMap((e) => (e.builtIn === null ? [] : [e.builtIn]));
      return new Set(builtIns).size === builtIns.length;
    }, "has a built-in entry twice"),
  ),
  comparison: v.object({
    rows: v.pipe(
      v.array(
        v.object({
          service: v.pipe(
            v.string(),
            v.trim(),
            v.minLength(1, "must not be empty"),
            v.maxLength(LIMITS.service, `must be at most ${LIMITS.service} characters`),
          ),
          monthlyMinor: v.nullable(minor("monthly")),
          yearlyMinor: v.nullable(minor("yearly")),
          fiveYearsMinor: minor("five years"),
        }),
      ),
      v.maxLength(LIMITS.comparisonRows, `must have at most ${LIMITS.comparisonRows} rows`),
    ),
    checkedOn: v.nullable(isoDay),
    source: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(LIMITS.source, `must be at most ${LIMITS.source} characters`))),
  }),
  // Versions published before the catalogue existed have neither: they read as none.
  catalogue: v.optional(
    v.object({
      set: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, "must be an imported catalogue's number"))),
      rights: localeTexts(CATALOGUE_LIMITS.rights),
      claimsConfirmed: v.boolean(),
    }),
    emptyCatalogueContent,
  ),
  media: v.optional(MediaSlotsSchema, emptyMediaSlots),
  captions: v.optional(DemoCaptionsSchema, () => ({})),
  // Versions published before the guide was content hold none: theirs is the built-in one.
  guide: v.optional(GuideSchema, defaultGuide),
});

/** Where a schema issue is, as the file names it: `faq[2].answer.en`, `offer.priceMinor`. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let path = "";
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "number") path += `[${key}]`;
    else path += path === "" ? String(key) : `.${String(key)}`;
  }
  return path === "" ? "(the file)" : path;
}

/** The paths of what differs between two documents, for the history ("offer.priceMinor", "texts.heroTitle.fr", "faq"). */
export function changedPaths(before: ContentDocument, after: ContentDocument): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(after.offer) as (keyof OfferContent)[]) {
    if (before.offer[key] !== after.offer[key]) changes.push(`offer.${key}`);
  }
  const keys = new Set([...Object.keys(before.texts), ...Object.keys(after.texts)]);
  for (const key of [...keys].sort()) {
    for (const locale of LOCALES) {
      if (before.texts[key]?.[locale] !== after.texts[key]?.[locale]) changes.push(`texts.${key}.${locale}`);
    }
  }
  if (JSON.stringify(before.faq) !== JSON.stringify(after.faq)) changes.push("faq");
  if (JSON.stringify(before.comparison) !== JSON.stringify(after.comparison)) changes.push("comparison");
  if (before.catalogue.set !== after.catalogue.set) changes.push("catalogue.set");
  for (const locale of LOCALES) {
    if (before.catalogue.rights[locale] !== after.catalogue.rights[locale]) changes.push(`catalogue.rights.${locale}`);
  }
  if (before.catalogue.claimsConfirmed !== after.catalogue.claimsConfirmed) changes.push("catalogue.claimsConfirmed");
  for (const slot of Object.keys(after.media) as (keyof MediaSlots)[]) {
    if (before.media[slot] !== after.media[slot]) changes.push(`media.${slot}`);
  }
  for (const locale of LOCALES) {
    if (JSON.stringify(before.captions[locale] ?? []) !== JSON.stringify(after.captions[locale] ?? [])) changes.push(`captions.${locale}`);
  }
  if (JSON.stringify(before.guide) !== JSON.stringify(after.guide)) changes.push("guide");
  return changes;
}
