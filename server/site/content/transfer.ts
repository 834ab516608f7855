import { readFileSync } from "node:fs";
import type { DbWriter, Write } from "../../../db/writer";
import { CONTENT_KEYS, type ContentDocument, type FaqEntry, type GuideText, isContentKey, type LocaleTexts } from "../../../shared/content";
import { errorText } from "../../../shared/error-text";
import type { MessageKey } from "../../../shared/i18n";
import { LOCALES } from "../../../shared/locales";
import { SOURCE_MESSAGES } from "../locales";
import { type ContentProblem, checkContent } from "./check";
import { NothingToPublishError, type PublishedVersion, publishIn, readPublished, StaleContentError } from "./store";

// `site content export` and `site content import` (docs/content.md): the published content as one
// JSON file the owner keeps in version control. The file holds every text in every language, the
// defaults written out, so that editing a value and importing the file is the whole workflow; on
// the way back, a text equal to its default is the default again, so that importing an unchanged
// export makes no owner text that would stop following the built-in one.

const defaultsOf = (key: MessageKey): LocaleTexts => {
  const texts: LocaleTexts = {};
  for (const locale of LOCALES) texts[locale] = SOURCE_MESSAGES[locale][key];
  return texts;
};

/** The owner's texts over the defaults, every language written out. */
const filled = (own: LocaleTexts, key: MessageKey | null): LocaleTexts => (key === null ? { ...own } : { ...defaultsOf(key), ...own });

/** The owner's texts without those equal to the default they would replace. */
const unfilled = (texts: LocaleTexts, key: MessageKey | null): LocaleTexts => {
  const own: LocaleTexts = {};
  for (const locale of LOCALES) {
    const text = texts[locale];
    if (text !== undefined && (key === null || text !== SOURCE_MESSAGES[locale][key])) own[locale] = text;
  }
  return own;
};

const faqKey = (entry: FaqEntry, part: "question" | "answer"): MessageKey | null =>
  entry.builtIn === null ? null : part === "question" ? `faqQuestion${entry.builtIn}` : `faqAnswer${entry.builtIn}`;

const mapGuide = (document: ContentDocument, map: (item: GuideText) => GuideText): ContentDocument["guide"] => ({
  devices: document.guide.devices.map((device) => ({
    id: device.id,
    title: map(device.title),
    steps: device.steps.map(map),
    tip: device.tip === null ? null : map(device.tip),
  })),
});

/** The whole content as the file holds it: every text of every language, defaults included. */
export function materialized(document: ContentDocument): ContentDocument {
  const texts: ContentDocument["texts"] = {};
  for (const key of CONTENT_KEYS) texts[key] = filled(document.texts[key] ?? {}, key);
  return {
    format: 1,
    offer: { ...document.offer },
    texts,
    faq: document.faq.map((entry) => ({
      ...entry,
      question: filled(entry.question, faqKey(entry, "question")),
      answer: filled(entry.answer, faqKey(entry, "answer")),
    })),
    comparison: { ...document.comparison, rows: document.comparison.rows.map((row) => ({ ...row })) },
    guide: mapGuide(document, (item) => ({ builtIn: item.builtIn, text: filled(item.text, item.builtIn) })),
    // The catalogue's titles stay in the database (site catalogue export): the file names the set shown.
    catalogue: { ...document.catalogue, rights: { ...document.catalogue.rights } },
    media: { ...document.media },
    captions: { ...document.captions },
  };
}

/** A checked document from a file, with the texts that equal their defaults back to being the defaults. */
export function withDefaultsLeftOut(document: ContentDocument): ContentDocument {
  const texts: ContentDocument["texts"] = {};
  for (const [key, byLocale] of Object.entries(document.texts)) {
    if (!isContentKey(key)) continue;
    const own = unfilled(byLocale, key);
    if (Object.keys(own).length > 0) texts[key] = own;
  }
  return {
    ...document,
    texts,
    faq: document.faq.map((entry) => ({
      ...entry,
      question: unfilled(entry.question, faqKey(entry, "question")),
      answer: unfilled(entry.answer, faqKey(entry, "answer")),
    })),
    guide: mapGuide(document, (item) => ({ builtIn: item.builtIn, text: unfilled(item.text, item.builtIn) })),
  };
}

/** The published content as the export's JSON. */
export function exportContent(db: DbWriter): string {
  return `${JSON.stringify(materialized(readPublished(db).document), null, 2)}\n`;
}

export type ImportOutcome =
  | { state: "published"; version: PublishedVersion }
  | { state: "unchanged"; version: number }
  | { state: "refused"; problems: ContentProblem[] };

/** Reads a file's text as a content document: problems name the field (`faq[2].answer.fr`). */
export function readContentFile(text: string): { ok: true; document: ContentDocument } | { ok: false; problems: ContentProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ path: "(the file)", message: `is not JSON: ${errorText(error)}` }] };
  }
  const checked = checkContent(json);
  return checked.ok ? { ok: true, document: withDefaultsLeftOut(checked.document) } : checked;
}

/** Publishes a file's content as a new version, in one transaction against the latest version; a refused file changes nothing. */
export async function importContent(write: Write, text: string, by: string, now: Date): Promise<ImportOutcome> {
  const read = readContentFile(text);
  if (!read.ok) return { state: "refused", problems: read.problems };
  return write((tx) => {
    const current = readPublished(tx);
    try {
      return { state: "published", version: publishIn(tx, { document: read.document, openedVersion: current.version, by, now }) };
    } catch (error) {
      if (error instanceof NothingToPublishError) return { state: "unchanged", version: current.version };
      throw error;
    }
  });
}

type Print = (line: string) => void;

/** `site content import FILE` (`-`: standard input). */
export async function importCommand(write: Write, file: string | undefined, out: Print, err: Print, now: Date): Promise<number> {
  if (file === undefined) {
    err("Which file? Usage: site content import FILE (a file written by `site content export`; - reads standard input)");
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    err(`Could not read ${file}: ${errorText(error)}. Nothing was changed.`);
    return 1;
  }
  let outcome: ImportOutcome;
  try {
    outcome = await importContent(write, text, "cli", now);
  } catch (error) {
    // Another publish between the read and the write cannot happen in one transaction; kept for a clear word if it ever does.
    if (!(error instanceof StaleContentError)) throw error;
    err(`${error.message}. Nothing was changed; import the file again.`);
    return 1;
  }
  switch (outcome.state) {
    case "refused":
      err(`${file} was not imported, nothing was changed:`);
      for (const problem of outcome.problems) err(`  ${problem.path}: ${problem.message}`);
      return 1;
    case "unchanged":
      out(`Nothing to publish: ${file} is what version ${outcome.version} already shows.\n`);
      return 0;
    case "published": {
      const { version, changes } = outcome.version;
      const listed = changes.length > 12 ? [...changes.slice(0, 12), `and ${changes.length - 12} more`] : changes;
      out(
        `Published version ${version} (changed: ${listed.join(", ")}). Every server process serves it within 2 seconds; the history keeps the earlier version.\n`,
      );
      return 0;
    }
  }
}
