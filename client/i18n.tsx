import { createContext, type ReactNode, useContext, useMemo } from "react";
import {
  type CompiledMessages,
  createTranslator,
  type MessageKey,
  type MessageValues,
  siteTranslator,
  type Translate,
} from "../shared/i18n";
import type { Locale } from "../shared/locales";
import type { PageData } from "../shared/page-data";

// Two ways to texts. The page, rendered only on the server, reads the whole catalogue (useI18n). An
// island, rendered on the server and then in the browser, reads only the texts it declared
// (useText): those, and nothing else, are what the page sends to the browser.

type I18n = { t: Translate; locale: Locale; facts: PageData["facts"]; data: PageData };

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ data, children }: { data: PageData; children: ReactNode }) {
  const value = useMemo<I18n>(() => {
    const t = siteTranslator(data.locale, data.messages, data.facts);
    return { t, locale: data.locale, facts: data.facts, data };
  }, [data]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The page's texts and data, for the parts of a page that are server HTML only. */
export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (value === null) throw new Error("useI18n outside a page: an island reads its texts with useText");
  return value;
}

/** `listed` is only asked whether it holds a key. Typed `ReadonlySet<MessageKey>`, the provider's
 * `Set` had to be compared with it method by method (the set operations are generic over the union of
 * every text's key): 48 of the typecheck's 66 s. */
type IslandText = { t: Translate; locale: Locale; listed: { has(key: MessageKey): boolean } | null };

const TextContext = createContext<IslandText | null>(null);

/**
 * An island's texts. `listed`, the island's list of the texts it may show, is given where it is
 * known (the server's render, component tests), so that a component using a text its island does
 * not list fails there; the browser receives only the listed texts, without the list.
 */
export function TextProvider({
  locale,
  messages,
  values,
  listed,
  children,
}: {
  locale: Locale;
  messages: CompiledMessages;
  values: MessageValues;
  listed?: readonly MessageKey[];
  children: ReactNode;
}) {
  const value = useMemo(
    () => ({ t: createTranslator(locale, messages, values), locale, listed: listed === undefined ? null : new Set(listed) }),
    [locale, messages, values, listed],
  );
  return <TextContext.Provider value={value}>{children}</TextContext.Provider>;
}

/**
 * An island component's texts: `keys` is the list the component declares, and its `t` accepts no
 * other key (a typo fails the typecheck). Its island's list must include them all.
 */
export function useText<const K extends MessageKey>(keys: readonly K[]): { t: Translate<K>; locale: Locale } {
  const text = useContext(TextContext);
  if (text === null) throw new Error("useText outside an island");
  const { listed } = text;
  const missing = listed === null ? [] : keys.filter((key) => !listed.has(key));
  if (missing.length > 0) throw new Error(`The island does not list the texts ${missing.join(", ")} (server/site/islands.tsx)`);
  return text;
}
