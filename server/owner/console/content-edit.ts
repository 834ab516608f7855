import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { siteSettings } from "../../../db/schema";
import {
  type BuiltInFaq,
  CONTENT_SECTIONS,
  type ContentDocument,
  type ContentKey,
  type ContentSectionId,
  type FaqEntry,
  LIMITS,
  type LocaleTexts,
} from "../../../shared/content";
import type { MessageKey, Translate } from "../../../shared/i18n";
import { LOCALES, type Locale } from "../../../shared/locales";
import type { SiteSettings } from "../../../shared/site-facts";
import { type ContentProblem, checkContent } from "../../site/content/check";
import { referencePrice } from "../../site/content/price-reference";
import { buildPublished, type PublishedContent } from "../../site/content/published";
import { readPriceHistory } from "../../site/content/store";
import { SOURCE_MESSAGES } from "../../site/locales";

// What the console's Content area does with the owner's forms: each page's form applied to a copy
// of the draft (the draft itself changes only through the store), the amounts typed as the owner
// writes them (29,99), and the draft as the public pages would show it (the preview). Each form
// carries only its own fields, so a page's body stays small whatever the rest of the content holds.

/** A posted form, as the console's body reader gives it: every field a string. */
export type Form = Record<string, string>;

export type Edited = { document: ContentDocument; problems: ContentProblem[] };

/** A page of the Content area, in the order of its navigation. */
export const CONTENT_PAGES = ["offer", "texts", "faq", "comparison", "guide", "history"] as const;
export type ContentPage = (typeof CONTENT_PAGES)[number];

/**
 * A form of the Content area (one section of texts, the offer, one FAQ entry, the comparison): a
 * section's 15 texts × 4 languages × 1000 characters, percent-encoded, fit.
 */
export const CONTENT_MAX_BODY_BYTES = 256 * 1024;

const copy = (document: ContentDocument): ContentDocument => structuredClone(document);

/** The id of a field as problems name it (`texts.heroTitle.fr` → `f-texts-heroTitle-fr`): the error list links to it. */
export const fieldId = (path: string) => `f-${path.replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "")}`;

/**
 * An amount as the owner types it, in major units: `29,99`, `29.99`, `1 299`, `29`. Null for an
 * empty field; NaN when it is not an amount.
 */
export function parseAmount(raw: string | undefined): number | null {
  const text = (raw ?? "").replace(/[\s\u00a0\u202f€$£]/g, "");
  if (text === "") return null;
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text);
  if (match === null) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** An amount in minor units as the form shows it again (2999 → "29.99"). */
export const amountField = (minor: number | null) => (minor === null ? "" : (minor / 100).toFixed(2));

const moneyProblem = (path: string, t: Translate): ContentProblem => ({ path, message: t("admin.content.error.amount") });

/** The document checked whole, after a form's own problems (a field that is not an amount). */
function checked(document: ContentDocument, own: ContentProblem[]): Edited {
  if (own.length > 0) return { document, problems: own };
  const result = checkContent(document);
  return result.ok ? { document: result.document, problems: [] } : { document, problems: result.problems };
}

export function applyOffer(draft: ContentDocument, form: Form, t: Translate): Edited {
  const document = copy(draft);
  const own: ContentProblem[] = [];
  const { offer } = document;
  offer.productName = form.productName ?? offer.productName;
  const price = parseAmount(form.price);
  if (price === null || Number.isNaN(price)) own.push(moneyProblem("offer.priceMinor", t));
  else offer.priceMinor = price;
  offer.currency = (form.currency ?? offer.currency).trim().toUpperCase();
  offer.endsOn = (form.endsOn ?? "").trim() === "" ? null : (form.endsOn ?? "").trim();
  offer.showReference = form.showReference === "yes";
  return checked(document, own);
}

export const textField = (key: string, locale: Locale) => `text:${key}:${locale}`;

export const sectionOf = (id: string) => CONTENT_SECTIONS.find((s) => s.id === id);

/**
 * A section's texts from its form: each language's field is the owner's text (empty: the
 * default); the same as the default is no replacement; `reset` names a text put back to its
 * default in every language (its button saves the section's other fields too).
 */
export function applyTexts(draft: ContentDocument, section: ContentSectionId, form: Form): Edited {
  const document = copy(draft);
  const keys: readonly ContentKey[] = sectionOf(section)?.keys ?? [];
  for (const key of keys) {
    const texts: LocaleTexts = {};
    for (const locale of LOCALES) {
      const text = (form[textField(key, locale)] ?? document.texts[key]?.[locale] ?? "").trim();
      if (text !== "" && text !== SOURCE_MESSAGES[locale][key]) texts[locale] = text;
    }
    if (form.reset === key || Object.keys(texts).length === 0) delete document.texts[key];
    else document.texts[key] = texts;
  }
  return checked(document, []);
}

export const faqField = (part: "question" | "answer", locale: Locale) => `${part}:${locale}`;

/** A new owner's entry's id: short, unique, never read by anyone. */
export const newFaqId = () => `entry-${randomBytes(5).toString("hex")}`;

/** One FAQ entry from its form, at `index` (the end, for a new one). */
export function applyFaqEntry(draft: ContentDocument, entry: FaqEntry, index: number, form: Form, t: Translate): Edited {
  const document = copy(draft);
  const edited: FaqEntry = { ...entry, shown: form.shown === "yes", question: {}, answer: {} };
  for (const part of ["question", "answer"] as const) {
    for (const locale of LOCALES) {
      const text = (form[faqField(part, locale)] ?? "").trim();
      const fallback = entry.builtIn === null ? undefined : SOURCE_MESSAGES[locale][faqKey(part, entry.builtIn)];
      if (text !== "" && text !== fallback) edited[part][locale] = text;
    }
  }
  const own: ContentProblem[] = [];
  if (index >= document.faq.length && document.faq.length >= LIMITS.faqEntries)
    own.push({ path: "faq", message: t("admin.content.error.faqFull", { max: LIMITS.faqEntries }) });
  document.faq[index] = edited;
  return checked(document, own);
}

export const faqKey = (part: "question" | "answer", n: BuiltInFaq): MessageKey =>
  part === "question" ? `faqQuestion${n}` : `faqAnswer${n}`;

export type FaqMove = "up" | "down" | "toggle" | "remove";

/** An entry moved, shown or hidden, or removed; null when there is no such entry. */
export function moveFaqEntry(draft: ContentDocument, id: string, move: FaqMove): ContentDocument | null {
  const document = copy(draft);
  const index = document.faq.findIndex((e) => e.id === id);
  const entry = document.faq[index];
  if (entry === undefined) return null;
  if (move === "toggle") entry.shown = !entry.shown;
  else if (move === "remove") document.faq.splice(index, 1);
  else {
    const to = move === "up" ? index - 1 : index + 1;
    const other = document.faq[to];
    if (other !== undefined) {
      document.faq[to] = entry;
      document.faq[index] = other;
    }
  }
  return document;
}

/** The rows of the comparison form (`service:0`…, the empty `service:new` line adds one; `remove:N` drops one). */
export function applyComparison(draft: ContentDocument, form: Form, t: Translate): Edited {
  const document = copy(draft);
  const own: ContentProblem[] = [];
  const count = Math.min(Number(/^\d{1,2}$/.test(form.rows ?? "") ? form.rows : draft.comparison.rows.length), LIMITS.comparisonRows + 1);
  const rows: ContentDocument["comparison"]["rows"] = [];
  const slots = [...Array.from({ length: count }, (_, i) => String(i)), "new"];
  for (const slot of slots) {
    const service = (form[`service:${slot}`] ?? "").trim();
    if (form[`remove:${slot}`] === "yes" || (slot === "new" && service === "")) continue;
    const at = rows.length;
    const amount = (name: string, field: string, optional: boolean) => {
      const value = parseAmount(form[`${name}:${slot}`]);
      if (value === null && optional) return null;
      if (value === null || Number.isNaN(value)) {
        own.push(moneyProblem(`comparison.rows[${at}].${field}`, t));
        return 0;
      }
      return value;
    };
    rows.push({
      service,
      monthlyMinor: amount("monthly", "monthlyMinor", true),
      yearlyMinor: amount("yearly", "yearlyMinor", true),
      fiveYearsMinor: amount("five", "fiveYearsMinor", false) ?? 0,
    });
  }
  document.comparison.rows = rows;
  const checkedOn = (form.checkedOn ?? "").trim();
  const source = (form.source ?? "").trim();
  document.comparison.checkedOn = checkedOn === "" ? null : checkedOn;
  document.comparison.source = source === "" ? null : source;
  return checked(document, own);
}

/** Which languages miss the owner's text where it has some (the console says so beside it). */
export const missingLocales = (texts: LocaleTexts | undefined): Locale[] =>
  texts === undefined || Object.keys(texts).length === 0 ? [] : LOCALES.filter((l) => texts[l] === undefined);

/** When the site first started (the default offer's end counts from it); now, on a folder never started. */
function firstStart(db: Db, now: Date): Date {
  const recorded = db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, "first_started_at")).get()?.value;
  return recorded === undefined || !Number.isFinite(Number(recorded)) ? now : new Date(Number(recorded));
}

/**
 * The struck-through reference a document's price would show if published at `now`: the lowest
 * price charged in the 30 days before it, from the price history (a new price counts as
 * beginning now); null for none.
 */
export function referenceIfPublished(db: Db, document: ContentDocument, now: Date): number | null {
  const history = readPriceHistory(db);
  const last = history.at(-1);
  const { priceMinor, currency } = document.offer;
  const changed = last === undefined || last.priceMinor !== priceMinor || last.currency !== currency;
  return referencePrice(changed ? [...history, { priceMinor, currency, since: now }] : history, now);
}

/** The draft as the public pages would show it if it were published now: the preview's content. */
export function previewContent(db: Db, settings: SiteSettings, document: ContentDocument, now: Date): PublishedContent {
  return buildPublished({
    // Not a published version: never kept next to the published pages.
    version: -1,
    document,
    settings,
    reference: referenceIfPublished(db, document, now),
    firstStartedAt: firstStart(db, now),
  });
}
