import type { DbWriter } from "../../../db/writer";
import { CONTENT_SECTIONS, type ContentDocument, type FaqEntry, textFamily } from "../../../shared/content";
import type { Translate } from "../../../shared/i18n";
import { LOCALE_TAGS, LOCALES, type Locale } from "../../../shared/locales";
import type { Formats } from "../../../shared/owner-formats";
import { faqTexts } from "../../site/content/published";
import { readVersion } from "../../site/content/store";
import { SOURCE_MESSAGES } from "../../site/locales";
import { fieldChanges } from "./content-merge";

// What changed between two versions of the content, in the owner's words: "Price: 29,99 € →
// 24,99 €", "FAQ: entry “Is it legal?” added", a text named by its section and page with its old
// and new words. The draft's summary and the history say this rather than field paths.

const QUOTE_MAX = 80;
const quoted = (text: string) => `“${text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX - 1)}…` : text}”`;

/** An FAQ entry's question as the owner reads it: in their language if it has one, else in the first it has. */
function questionOf(entry: FaqEntry, locale: Locale): string {
  for (const l of [locale, ...LOCALES]) {
    const texts = faqTexts(entry, l);
    if (texts !== null) return texts.question;
  }
  return entry.id;
}

/** The changes from `before` to `after`, one line each, in words. */
export function describeChanges(before: ContentDocument, after: ContentDocument, t: Translate, fmt: Formats, locale: Locale): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const once = (line: string) => {
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  };
  const empty = t("admin.content.merge.empty");
  const money = (value: unknown, currency: string) => (typeof value === "number" ? fmt.money(value, currency) : empty);
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? quoted(value) : empty);
  const entries = (document: ContentDocument) => new Map(document.faq.map((e) => [e.id, e]));
  const [was, now] = [entries(before), entries(after)];
  for (const change of fieldChanges(before, after)) {
    const [area, second, ...rest] = change.steps;
    if (area === "offer") {
      if (second === "priceMinor")
        once(
          t("admin.content.change.field", {
            field: t("admin.content.offer.price"),
            before: money(change.before, before.offer.currency),
            after: money(change.after, after.offer.currency),
          }),
        );
      else if (second === "productName" || second === "currency" || second === "endsOn")
        once(
          t("admin.content.change.field", {
            field: t(`admin.content.offer.${second}`),
            before: text(change.before),
            after: text(change.after),
          }),
        );
      else if (second === "showReference")
        once(t(change.after === true ? "admin.content.change.referenceOn" : "admin.content.change.referenceOff"));
    } else if (area === "texts" && second !== undefined) {
      const language = rest[0];
      const section = CONTENT_SECTIONS.find((s) => s.keys.some((k) => k === second));
      const lang = language !== undefined && language in LOCALE_TAGS ? LOCALES.find((l) => l === language) : undefined;
      const key = section?.keys.find((k) => k === second);
      const fallback = lang === undefined || key === undefined ? undefined : SOURCE_MESSAGES[lang][key];
      once(
        t("admin.content.change.text", {
          where:
            section === undefined
              ? second
              : `${t(`admin.content.section.${section.id}`)} (${t(`admin.content.page.${section.page}`)}), ${t(`admin.content.family.${textFamily(second)}`)}`,
          key: second,
          language: lang === undefined ? "" : LOCALE_TAGS[lang].name,
          before: text(change.before ?? fallback),
          after: text(change.after ?? fallback),
        }),
      );
    } else if (area === "faq") {
      if (second === "#order") {
        const kept = (ids: unknown) => (Array.isArray(ids) ? ids.filter((id) => was.has(String(id)) && now.has(String(id))) : []);
        if (JSON.stringify(kept(change.before)) !== JSON.stringify(kept(change.after))) once(t("admin.content.change.faqOrder"));
        continue;
      }
      const id = (second ?? "").slice(1);
      const old = was.get(id);
      const current = now.get(id);
      if (old === undefined && current !== undefined) once(t("admin.content.change.faqAdded", { question: questionOf(current, locale) }));
      else if (old !== undefined && current === undefined)
        once(t("admin.content.change.faqRemoved", { question: questionOf(old, locale) }));
      else if (old !== undefined && current !== undefined) {
        if (rest[0] === "shown")
          once(
            t(current.shown ? "admin.content.change.faqShown" : "admin.content.change.faqHidden", {
              question: questionOf(current, locale),
            }),
          );
        else once(t("admin.content.change.faqEdited", { question: questionOf(current, locale) }));
      }
    } else if (area === "comparison") {
      if (second === "rows") once(t("admin.content.change.comparisonRows"));
      else
        once(
          t("admin.content.change.comparisonChecked", {
            before: text(before.comparison.checkedOn ?? ""),
            after: text(after.comparison.checkedOn ?? ""),
          }),
        );
    } else if (area === "guide") once(t("admin.content.change.guide"));
    else if (area === "catalogue" || area === "media" || area === "captions") once(t("admin.content.change.catalogue"));
    else once(t("admin.content.change.other", { part: change.steps.join(".") }));
  }
  return lines;
}

/** What version `version` changed against the one before it, in words; null when either is gone. */
export function describeVersion(db: DbWriter, version: number, t: Translate, fmt: Formats, locale: Locale): string[] | null {
  if (version < 1) return null;
  const now = readVersion(db, version);
  const before = readVersion(db, version - 1);
  return now === null || before === null ? null : describeChanges(before.document, now.document, t, fmt, locale);
}
