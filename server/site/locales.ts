import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import en from "../../locales/en.json";
import es from "../../locales/es.json";
import fr from "../../locales/fr.json";
import it from "../../locales/it.json";
import type { CompiledMessage, MessageKey, Messages } from "../../shared/i18n";
import type { Locale } from "../../shared/locales";
import { bindPunctuation } from "./typography";

/** The texts as written (ICU MessageFormat source): what the compiled catalogues below come from. */
export const SOURCE_MESSAGES: Record<Locale, Messages> = { fr, en, it, es };

/**
 * ICU source text to what the translator formats without a parser: the text itself when it has no
 * placeholder (once the parser has resolved its quoting), else its syntax tree.
 */
export function compileMessage(source: string): CompiledMessage {
  const ast = parse(source, { ignoreTag: true });
  let text = "";
  for (const element of ast) {
    if (element.type !== TYPE.literal) return ast;
    text += element.value;
  }
  return text;
}

export type CompiledCatalogue = Record<MessageKey, CompiledMessage>;

function compileCatalogue(messages: Messages, typeset: (text: string) => string = (text) => text): CompiledCatalogue {
  const compiled: CompiledCatalogue = { ...messages };
  for (const key of Object.keys(messages)) {
    if (isMessageKey(messages, key)) compiled[key] = compileMessage(typeset(messages[key]));
  }
  return compiled;
}

const isMessageKey = (messages: Messages, key: string): key is MessageKey => key in messages;

const isCompiledKey = (catalogue: CompiledCatalogue, key: string): key is MessageKey => key in catalogue;

/**
 * A catalogue with some texts replaced (the owner's published texts, server/site/content/): the
 * others are the same compiled entries, so only the replaced ones are parsed again.
 */
export function withReplacedTexts(
  base: CompiledCatalogue,
  replaced: Partial<Record<MessageKey, string>>,
  typeset: (text: string) => string = (text) => text,
): CompiledCatalogue {
  const entries = Object.entries(replaced);
  if (entries.length === 0) return base;
  const compiled: CompiledCatalogue = { ...base };
  for (const [key, text] of entries) {
    if (isCompiledKey(base, key) && text !== undefined) compiled[key] = compileMessage(typeset(text));
  }
  return compiled;
}

/** The typesetting of the pages' texts in a language (French binds its punctuation). */
export const pageTypesetting = (locale: Locale) =>
  locale === "fr" ? (text: string) => bindPunctuation(text, "fr") : (text: string) => text;

/** Every language's texts, parsed once when the server starts (and so never in the browser). */
export const COMPILED: Record<Locale, CompiledCatalogue> = {
  fr: compileCatalogue(fr),
  en: compileCatalogue(en),
  it: compileCatalogue(it),
  es: compileCatalogue(es),
};

/**
 * The catalogues the pages are rendered with: the same texts, typeset for a line that may wrap
 * anywhere (server/site/typography.ts). E-mails, the chat's answers and the API keep the texts as
 * written.
 */
export const PAGE_TEXTS: Record<Locale, CompiledCatalogue> = {
  fr: compileCatalogue(fr, (text) => bindPunctuation(text, "fr")),
  en: COMPILED.en,
  it: COMPILED.it,
  es: COMPILED.es,
};
