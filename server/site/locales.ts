import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import en from "../../locales/en.json";
import es from "../../locales/es.json";
import fr from "../../locales/fr.json";
import it from "../../locales/it.json";
import type { CompiledMessage, CompiledMessages, MessageKey, Messages } from "../../shared/i18n";
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

/**
 * A catalogue whose texts are parsed on first use, each once: parsing every text of every language
 * when the server starts took a sixth of its start's CPU, for pages that the build or the last
 * start had already made, and most texts are never formatted by a given process. An entry reads
 * (and spreads, and serialises) as its compiled form; after its first read it is a plain value.
 */
function lazyCatalogue(messages: Messages, compile: (key: MessageKey) => CompiledMessage, origin: () => string): CompiledCatalogue {
  const catalogue: CompiledCatalogue = { ...messages };
  for (const key of Object.keys(messages)) {
    if (!isMessageKey(messages, key)) continue;
    const settle = (value: CompiledMessage) => {
      Object.defineProperty(catalogue, key, { value, enumerable: true, configurable: true, writable: true });
    };
    Object.defineProperty(catalogue, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        const value = compile(key);
        settle(value);
        return value;
      },
      set: settle,
    });
  }
  origins.set(catalogue, origin);
  return catalogue;
}

/** What each catalogue made here is compiled from (its texts as written and their typesetting). */
const origins = new WeakMap<object, () => string>();

/**
 * A string that changes whenever the catalogue's compiled texts would: made from the texts as
 * written, so that naming a catalogue (a page's data hash, server/site/pages/static-pages.ts)
 * parses none of them. A catalogue not made here is named by its content.
 */
export function catalogueOrigin(catalogue: CompiledMessages): string {
  const origin = origins.get(catalogue);
  return origin !== undefined ? origin() : JSON.stringify(catalogue);
}

function compileCatalogue(messages: Messages, typesetting: Typesetting = PLAIN): CompiledCatalogue {
  let origin: string | undefined;
  return lazyCatalogue(
    messages,
    (key) => compileMessage(typesetting.typeset(messages[key])),
    () => (origin ??= JSON.stringify({ typesetting: typesetting.name, messages })),
  );
}

const isMessageKey = (messages: Messages, key: string): key is MessageKey => key in messages;

/** How a language's texts are set before they are parsed; the name tells catalogues apart. */
export type Typesetting = { name: string; typeset: (text: string) => string };
const PLAIN: Typesetting = { name: "plain", typeset: (text) => text };

/**
 * A catalogue with some texts replaced (the owner's published texts, server/site/content/): the
 * others are the same compiled entries, so only the replaced ones are parsed again (on first use).
 */
export function withReplacedTexts(
  base: CompiledCatalogue,
  replaced: Partial<Record<MessageKey, string>>,
  typesetting: Typesetting = PLAIN,
): CompiledCatalogue {
  const entries = Object.entries(replaced).filter(([key, text]) => key in base && text !== undefined);
  if (entries.length === 0) return base;
  const own = new Map(entries);
  let origin: string | undefined;
  return lazyCatalogue(
    // The keys are the base's; each entry compiled from its replacement, or read from the base.
    SOURCE_MESSAGES.fr,
    (key) => {
      const text = own.get(key);
      return text !== undefined ? compileMessage(typesetting.typeset(text)) : base[key];
    },
    () => (origin ??= JSON.stringify({ base: catalogueOrigin(base), typesetting: typesetting.name, replaced: entries })),
  );
}

/** The typesetting of the pages' texts in a language (French binds its punctuation). */
export const pageTypesetting = (locale: Locale): Typesetting => (locale === "fr" ? FRENCH_PAGE : PLAIN);
const FRENCH_PAGE: Typesetting = { name: "fr-page", typeset: (text) => bindPunctuation(text, "fr") };

/** Every language's texts, each parsed once on the server (and so never in the browser). */
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
  fr: compileCatalogue(fr, FRENCH_PAGE),
  en: COMPILED.en,
  it: COMPILED.it,
  es: COMPILED.es,
};
