import { LOCALES, type Locale } from "../../../shared/locales";
import { words } from "./words";

// Which of the site's languages a message is written in (the reply is in the language of the
// message, whatever the page's). Visitors write two or three words ("ma è legale??", "y en la
// tele?", "and for 2?"), so every clue counts, weighed by how often each language uses it: a
// naive Bayes over the message's words (accents removed, as visitors often leave them out), its
// word pairs ("en la" is Spanish, though French has both words) and its accented words as typed
// ("è" alone is Italian, "télé" French). The counts come from what the site writes in each
// language and how visitors ask (the paraphrases). A word every language uses ("netflix", "tv")
// weighs nothing; one no language has is left out, so a brand the site never writes ("PayPal")
// says nothing and the language the visitor wrote in before, or the page's, answers.

/** A value for each language, typed so that a new locale cannot be forgotten. */
export function byLocale<T>(make: (locale: Locale) => T): Record<Locale, T> {
  return { fr: make("fr"), en: make("en"), it: make("it"), es: make("es") };
}

/** How likely the message's words are in each language (natural log, up to a constant). */
export type LanguageEvidence = Record<Locale, number>;

export type LanguageReader = {
  evidence(text: string): LanguageEvidence;
  /** The language the message's own words clearly say, else null. */
  own(text: string): Locale | null;
  /** The message's own language when its words say it clearly, else `prior` (the conversation's or the page's). */
  choose(text: string, prior: Locale): Locale;
};

export type LanguageSettings = {
  /**
   * How much more likely (natural log) the message must be in one language than in every other to
   * be its own language: short messages of two or three words clear it ("e per 2?" 2.9 over Spanish),
   * brands and figures every language writes do not ("Apple TV?", "Roku", "ok": 1.1 at most).
   */
  margin: number;
  /** Added to every count: a word a language never used is unlikely in it, not impossible. */
  smoothing: number;
  /** Word pairs count this much of a word. */
  pairWeight: number;
  /** Accented words as typed count this much of a word. */
  accentWeight: number;
};

/**
 * Chosen on test/chat/questions/language-short.ts (bench/chat-language.ts): the smoothing and
 * the pairs' weight that keep the messages with a language of their own furthest from those
 * without (the lowest clear message 1.45 over the next language, the highest brand 1.08), the
 * margin between the two. Without word pairs, "y en la tele?" is as French as Spanish.
 */
export const LANGUAGE_SETTINGS: LanguageSettings = { margin: 1.25, smoothing: 0.5, pairWeight: 1, accentWeight: 1 };

/** Letters with accents, as typed (lowercased). */
const accented = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}]+/gu) ?? []).filter((word) => /[^a-z]/.test(word)).map((word) => `~${word}`);

/** The clues of a text and what each weighs. */
function clues(text: string, settings: LanguageSettings): [string, number][] {
  const said = words(text);
  const found: [string, number][] = said.map((word) => [word, 1]);
  for (let i = 0; i + 1 < said.length; i++) found.push([`${said[i]} ${said[i + 1]}`, settings.pairWeight]);
  for (const word of accented(text)) found.push([word, settings.accentWeight]);
  // Only Spanish opens a question or an exclamation upside down.
  if (/[¿¡]/.test(text)) found.push(["¿", 1]);
  return found;
}

/** `corpus`: what each language writes (its page texts, stop words, visitors' questions). */
export function createLanguageReader(
  corpus: Record<Locale, readonly string[]>,
  settings: LanguageSettings = LANGUAGE_SETTINGS,
): LanguageReader {
  const counts = new Map<string, Record<Locale, number>>();
  const totals = byLocale(() => 0);
  for (const locale of LOCALES) {
    for (const text of corpus[locale]) {
      for (const [clue] of clues(text, settings)) {
        const row = counts.get(clue) ?? byLocale(() => 0);
        row[locale] += 1;
        counts.set(clue, row);
        totals[locale] += 1;
      }
    }
  }
  const { smoothing } = settings;
  const denominators = byLocale((locale) => Math.log(totals[locale] + smoothing * counts.size));

  const evidence = (text: string): LanguageEvidence => {
    const sum = byLocale(() => 0);
    for (const [clue, weight] of clues(text, settings)) {
      const row = counts.get(clue);
      if (row === undefined) continue;
      for (const locale of LOCALES) sum[locale] += weight * (Math.log(row[locale] + smoothing) - denominators[locale]);
    }
    return sum;
  };

  const ranked = (found: LanguageEvidence) => [...LOCALES].sort((a, b) => found[b] - found[a]);

  const own = (text: string): Locale | null => {
    const found = evidence(text);
    const [first, second] = ranked(found);
    if (first === undefined || second === undefined) return null;
    return found[first] - found[second] >= settings.margin ? first : null;
  };

  return { evidence, own, choose: (text, prior) => own(text) ?? prior };
}
