import { LOCALES, type Locale } from "../../../shared/locales";
import { words } from "./words";

// Which of the site's languages a question is written in (the answer is in the language of the
// question, whatever the page's). Each word known in only one language counts 1 for it; a
// word the languages share counts a fraction for each ("de", "tv", "netflix" tell nothing).

/** A value for each language, typed so that a new locale cannot be forgotten. */
export function byLocale<T>(make: (locale: Locale) => T): Record<Locale, T> {
  return { fr: make("fr"), en: make("en"), it: make("it"), es: make("es") };
}

export type LanguageEvidence = Record<Locale, number>;

export type LanguageGuesser = (text: string) => LanguageEvidence;

/** `vocabulary`: every word each language uses (its page texts, stop words, visitors' words). */
export function createLanguageGuesser(vocabulary: Record<Locale, readonly string[]>): LanguageGuesser {
  const languagesOf = new Map<string, Locale[]>();
  for (const locale of LOCALES) {
    for (const word of new Set(vocabulary[locale].flatMap(words))) {
      const list = languagesOf.get(word) ?? [];
      list.push(locale);
      languagesOf.set(word, list);
    }
  }
  return (text) => {
    const evidence = byLocale(() => 0);
    for (const word of words(text)) {
      const languages = languagesOf.get(word) ?? [];
      for (const locale of languages) evidence[locale] += 1 / languages.length;
    }
    // Marks only Spanish writes.
    if (/[¿¡ñ]/i.test(text)) evidence.es += 1;
    return evidence;
  };
}

/** The language with the most evidence, or null when none stands out. */
export function clearWinner(evidence: LanguageEvidence, margin = 0.5): Locale | null {
  const ranked = LOCALES.map((locale) => ({ locale, score: evidence[locale] })).sort((a, b) => b.score - a.score);
  const [first, second] = ranked;
  if (first === undefined || second === undefined) return null;
  return first.score - second.score >= margin ? first.locale : null;
}
