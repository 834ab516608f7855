import * as v from "valibot";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "./locales";

// Reviews from verified buyers (docs/reviews.md): the review page's form, what the pages show of the
// published ones, and the reasons a review may be refused. Both the server and the pages read these.

export const REVIEW_TEXT_MIN = 20;
export const REVIEW_TEXT_MAX = 1000;
export const REVIEW_CITY_MAX = 40;
export const REVIEW_REPLY_MAX = 1000;
/** How many published reviews the landing page shows (the newest); the count and average cover all. */
export const REVIEWS_SHOWN = 6;

/**
 * The reasons a review may be refused: those the law lets a shop give (French consumer code
 * D111-17; the Directive's guidance): never because it is negative.
 */
export const REFUSAL_REASONS = ["illicit", "insulting", "personal-data", "unrelated", "conflict", "spam"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export const NAME_STYLES = ["first-initial", "initials"] as const;
export type NameStyle = (typeof NAME_STYLES)[number];

/** The capability of an order's review page: an HMAC of its reference (server/shop/reviews/links.ts). */
export const ReviewKeySchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/));

/** Why the review form came back: the text's key for each field at fault. */
export type ReviewFieldError = "rating" | "textShort" | "textLong" | "city" | "consent" | "nameStyle";

/** Control characters and surrounding spaces removed; lines kept (a review may have paragraphs). */
export const cleanReviewText = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[^\P{C}\n]/gu, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/** The review form as posted (plain form or JSON): checked field by field so the page can say which is wrong. */
export const ReviewFormSchema = v.object({
  order: v.pipe(v.string(), v.maxLength(40)),
  k: ReviewKeySchema,
  locale: v.optional(v.picklist(LOCALES), DEFAULT_LOCALE),
  rating: v.optional(v.string(), ""),
  text: v.optional(v.pipe(v.string(), v.maxLength(8000)), ""),
  nameStyle: v.optional(v.string(), "first-initial"),
  city: v.optional(v.pipe(v.string(), v.maxLength(400)), ""),
  consent: v.optional(v.string(), ""),
});

export type ReviewFormValues = { rating: number | null; text: string; nameStyle: NameStyle; city: string; consent: boolean };

/** The form's values and the fields at fault; nothing is stored while `errors` is not empty. */
export function checkReviewForm(form: v.InferOutput<typeof ReviewFormSchema>): { values: ReviewFormValues; errors: ReviewFieldError[] } {
  const errors: ReviewFieldError[] = [];
  const rating = /^[1-5]$/.test(form.rating) ? Number(form.rating) : null;
  if (rating === null) errors.push("rating");
  const text = cleanReviewText(form.text);
  if ([...text].length < REVIEW_TEXT_MIN) errors.push("textShort");
  if ([...text].length > REVIEW_TEXT_MAX) errors.push("textLong");
  const nameStyle = NAME_STYLES.find((style) => style === form.nameStyle);
  if (nameStyle === undefined) errors.push("nameStyle");
  const city = form.city
    .replace(/[\p{C}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  if (city !== "" && (city.length > REVIEW_CITY_MAX || !/^\p{L}[\p{L}\p{M} '’.-]*$/u.test(city))) errors.push("city");
  const consent = form.consent === "yes";
  if (!consent) errors.push("consent");
  return { values: { rating, text, nameStyle: nameStyle ?? "first-initial", city, consent }, errors };
}

/** "Marie Dupont" → "Marie D." (first-initial) or "M. D." (initials); a single name keeps its initial only. */
export function displayNameOf(fullName: string | null, style: NameStyle): string {
  const words = (fullName ?? "")
    .replace(/[\p{C}]/gu, "")
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{M}'’-]/gu, ""))
    .filter((w) => /\p{L}/u.test(w));
  const initial = (word: string) => `${(word.match(/\p{L}/u)?.[0] ?? "").toLocaleUpperCase()}.`;
  const first = words[0];
  if (first === undefined) return "";
  const last = words.length > 1 ? words.at(-1) : undefined;
  if (style === "initials") return last === undefined ? initial(first) : `${initial(first)} ${initial(last)}`;
  const firstName = first.slice(0, 30);
  return last === undefined ? firstName : `${firstName} ${initial(last)}`;
}

/** The avatar's letters of a shown name: "Marie D." → "MD". */
export const avatarOf = (name: string) =>
  name
    .split(/\s+/)
    .map((w) => w.match(/\p{L}/u)?.[0] ?? "")
    .join("")
    .slice(0, 2)
    .toLocaleUpperCase();

/** A published review as the pages show it; `date` formatted for the page's language. */
export type ShownReview = {
  id: number;
  rating: number;
  text: string;
  name: string;
  city: string | null;
  date: string;
  /** ISO date, for `<time datetime>`. */
  isoDate: string;
  /** The language it was written in. */
  locale: Locale;
  reply: string | null;
  /** A development sample: marked "example" on the page, never counted. */
  sample: boolean;
};

/** What the landing page shows of the reviews: all published ones counted, the newest shown. */
export type ReviewsFacts = {
  count: number;
  /** The average rating over every published review, one decimal, formatted; null without any. */
  average: string | null;
  /** The same as a number (structured data). */
  averageValue: number | null;
  latest: ShownReview[];
};

/** The review page of an order (`?order=&k=`), per request, never cached. */
export type ReviewPageState =
  | { state: "invalid" }
  /** The order is not (or no longer) one a review can be written for: refunded, never activated, unpaid. */
  | { state: "closed"; reference: string }
  /** A production site's test-checkout order: no money was paid, so it is no purchase to review. */
  | { state: "test-order"; reference: string }
  | {
      state: "open";
      reference: string;
      link: { order: string; k: string };
      /** The names the buyer may choose between, made from the order's name. */
      names: Record<NameStyle, string>;
      values: ReviewFormValues;
      errors: ReviewFieldError[];
      /** The review as stored, when there is one. */
      existing: { status: "pending" | "published" | "refused"; refusalReason: RefusalReason | null; reply: string | null } | null;
      flash?: "saved" | "deleted" | "rate-limited" | "error";
    };

/** The stop page of the review e-mails (`/reviews/stop?order=&k=`). */
export type ReviewStopState = "ask" | "done" | "invalid";

/** A published review as stored for the pages, before its date is formatted for a language. */
export type StoredShownReview = Omit<ShownReview, "date" | "isoDate" | "sample"> & { publishedAt: number };

/** Which figure the landing page states, as the owner chose it in the console. */
export type ProofFigureKind = "buyers" | "devices";
export type ProofFigureSettings = { kind: ProofFigureKind | "off"; threshold: number };
export const DEFAULT_FIGURE_SETTINGS: ProofFigureSettings = { kind: "buyers", threshold: 50 };

/**
 * What the pages show of the site's own evidence, read at one moment and the same in every process:
 * the published reviews and the figure as last recorded. `stamp` changes with any of it.
 */
export type ProofSnapshot = {
  stamp: string;
  count: number;
  /** The ratings' sum over every published review. */
  ratingSum: number;
  latest: StoredShownReview[];
  /** The figure shown (at or above the owner's threshold), else null. */
  figure: { kind: ProofFigureKind; count: number } | null;
};

export const NO_PROOF: ProofSnapshot = { stamp: "none", count: 0, ratingSum: 0, latest: [], figure: null };

/**
 * Development's sample reviews (NODE_ENV other than production), shown only while no review is
 * published, marked "example", never counted in the average, the count or the structured data.
 */
export const SAMPLE_REVIEWS: readonly StoredShownReview[] = [
  {
    id: -1,
    rating: 5,
    text: "Installé en deux minutes sur la télé du salon, et ça marche aussi sur mon téléphone. Je ne paie plus d'abonnement.",
    name: "Camille R.",
    city: "Nantes",
    publishedAt: Date.UTC(2026, 9, 12),
    locale: "fr",
    reply: null,
  },
  {
    id: -2,
    rating: 4,
    text: "Works well on my laptop and tablet. Setting it up on the TV took me a bit longer than the guide says.",
    name: "J. K.",
    city: null,
    publishedAt: Date.UTC(2026, 9, 3),
    locale: "en",
    reply: "Thank you! We have added a step to the guide for TVs.",
  },
  {
    id: -3,
    rating: 5,
    text: "L'assistenza mi ha risposto in pochi minuti quando avevo un dubbio sull'attivazione. Consigliato.",
    name: "Luca B.",
    city: "Torino",
    publishedAt: Date.UTC(2026, 8, 21),
    locale: "it",
    reply: null,
  },
];
