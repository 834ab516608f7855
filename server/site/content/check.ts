import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import * as v from "valibot";
import {
  type ContentDocument,
  ContentDocumentSchema,
  type ContentKey,
  type GuideContent,
  type GuideText,
  isContentKey,
  issuePath,
  textFamily,
  textLimit,
} from "../../../shared/content";
import type { MessageKey } from "../../../shared/i18n";
import { LOCALES, type Locale } from "../../../shared/locales";
import { SOURCE_MESSAGES } from "../locales";

// What the owner writes is plain text with the site's small markup: `{name}` placeholders the
// site fills in (the price, the product's name), and `[...]` around the part a few texts turn
// into a link. Never HTML. A text may use only the placeholders its default uses (the page gives
// no other value, and a misspelt `{prix}` would show as the text's key): otherwise it is refused
// with the field named.

export type ContentProblem = { path: string; message: string };

/** The values any FAQ entry may name (shared/i18n.ts siteValues, those always given). */
export const FAQ_VALUES = ["siteName", "email", "price", "saving", "supportHours", "refundMode", "vat", "year", "years"] as const;

function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      argumentsOf(element.children, into);
      continue;
    }
    into.add(element.value);
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

const linkParts = (text: string) => (text.match(/\[[^\]]+\]/g) ?? []).length;
const HTML = /<\/?[a-zA-Z!][^>]*>?/;

/** The problem with one text, or null. `allowed`: the placeholders it may use. */
export function textProblem(path: string, text: string, allowed: ReadonlySet<string>, links = 0): ContentProblem | null {
  if (HTML.test(text))
    return {
      path,
      message: "must be plain text: HTML tags are not allowed (a [part in brackets] becomes the link where the default has one)",
    };
  let used: Set<string>;
  try {
    used = argumentsOf(parse(text, { ignoreTag: true }));
  } catch {
    return {
      path,
      message:
        "has a broken placeholder: each { must close with } around a name such as {price} (to write a brace itself, put it in quotes: '{')",
    };
  }
  const unknown = [...used].filter((name) => !allowed.has(name));
  if (unknown.length > 0) {
    const may = allowed.size === 0 ? "this text has no placeholder" : `it may use ${[...allowed].map((a) => `{${a}}`).join(", ")}`;
    return { path, message: `uses ${unknown.map((u) => `{${u}}`).join(", ")}, which the site cannot fill in here: ${may}` };
  }
  if (linkParts(text) !== links) {
    return {
      path,
      message:
        links === 0
          ? "must not have a part in [brackets]: this text has no link"
          : `must have ${links} part(s) in [brackets], the link(s) of the default`,
    };
  }
  return null;
}

const defaultArguments = (key: MessageKey, locale: Locale) => argumentsOf(parse(SOURCE_MESSAGES[locale][key], { ignoreTag: true }));

/** The problem with the owner's text for a page text in a language, or null. */
export function pageTextProblem(key: ContentKey, locale: Locale, text: string): ContentProblem | null {
  const max = textLimit(key);
  if (text.length > max)
    return { path: `texts.${key}.${locale}`, message: `is ${text.length} characters long: a ${textFamily(key)} may have at most ${max}` };
  return textProblem(`texts.${key}.${locale}`, text, defaultArguments(key, locale), linkParts(SOURCE_MESSAGES[locale][key]));
}

/** Every problem of a document whose shape is already checked: texts against their defaults, FAQ texts against the site's values. */
export function contentProblems(document: ContentDocument): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const [key, texts] of Object.entries(document.texts)) {
    if (!isContentKey(key)) {
      problems.push({ path: `texts.${key}`, message: "is not a text the owner can change" });
      continue;
    }
    for (const locale of LOCALES) {
      const text = texts[locale];
      const problem = text === undefined ? null : pageTextProblem(key, locale, text);
      if (problem !== null) problems.push(problem);
    }
  }
  const faqValues = new Set<string>(FAQ_VALUES);
  document.faq.forEach((entry, index) => {
    for (const part of ["question", "answer"] as const) {
      for (const locale of LOCALES) {
        const text = entry[part][locale];
        if (text === undefined) continue;
        const allowed =
          entry.builtIn === null
            ? faqValues
            : new Set([
                ...faqValues,
                ...defaultArguments(part === "question" ? `faqQuestion${entry.builtIn}` : `faqAnswer${entry.builtIn}`, locale),
              ]);
        const problem = textProblem(`faq[${index}].${part}.${locale}`, text, allowed);
        if (problem !== null) problems.push(problem);
      }
    }
    if (entry.builtIn === null && !LOCALES.some((l) => entry.question[l] !== undefined && entry.answer[l] !== undefined))
      problems.push({ path: `faq[${index}]`, message: "needs a question and its answer in at least one language" });
  });
  for (const locale of LOCALES) {
    const rights = document.catalogue.rights[locale];
    const problem = rights === undefined ? null : textProblem(`catalogue.rights.${locale}`, rights, new Set());
    if (problem !== null) problems.push(problem);
  }
  problems.push(...guideProblems(document.guide));
  if ((document.comparison.checkedOn === null) !== (document.comparison.source === null || document.comparison.source === ""))
    problems.push({
      path: "comparison",
      message: "needs both the date the prices were checked (checkedOn) and where (source), or neither",
    });
  return problems;
}

/**
 * The guide's texts: plain text with the site's values (`{siteName}`, and whatever its default
 * uses); a text of the owner's own must exist in at least one language, or it would show nowhere.
 */
export function guideProblems(guide: GuideContent): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const faqValues = new Set<string>(FAQ_VALUES);
  const checkText = (path: string, item: GuideText, required: boolean) => {
    for (const locale of LOCALES) {
      const text = item.text[locale];
      if (text === undefined) continue;
      const allowed = item.builtIn === null ? faqValues : new Set([...faqValues, ...defaultArguments(item.builtIn, locale)]);
      const problem = textProblem(`${path}.text.${locale}`, text, allowed);
      if (problem !== null) problems.push(problem);
    }
    if (required && item.builtIn === null && !LOCALES.some((locale) => item.text[locale] !== undefined))
      problems.push({ path: `${path}.text`, message: "needs its text in at least one language" });
  };
  guide.devices.forEach((device, d) => {
    const at = `guide.devices[${d}]`;
    checkText(`${at}.title`, device.title, true);
    for (const [s, step] of device.steps.entries()) checkText(`${at}.steps[${s}]`, step, true);
    if (device.tip !== null) checkText(`${at}.tip`, device.tip, true);
  });
  return problems;
}

/** A document from outside (a form, a file): checked whole; the first problems, each naming its field. */
export function checkContent(input: unknown): { ok: true; document: ContentDocument } | { ok: false; problems: ContentProblem[] } {
  const parsed = v.safeParse(ContentDocumentSchema, input);
  if (!parsed.success)
    return { ok: false, problems: parsed.issues.slice(0, 10).map((issue) => ({ path: issuePath(issue), message: issue.message })) };
  const problems = contentProblems(parsed.output);
  return problems.length === 0 ? { ok: true, document: parsed.output } : { ok: false, problems };
}
