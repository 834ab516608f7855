import { LOCALES, type Locale } from "../../../shared/locales";
import { textFeatures } from "./text-features";
import { words } from "./words";

// The site's own words as answers: an FAQ entry (the landing page's: the specification's and the
// owner's own entries) is a question the site states the answer to, in every language. A visitor's question
// close enough to one of an entry's questions, in any language, is answered with that entry's
// answer in the visitor's language. It is the assistant's last resort before "I'm not sure":
// the classifier's topics come first, so an entry never overrides a clear topic.

/** One question the site answers, with its answer, in every language it is written in. */
export type FaqEntry = {
  question: Partial<Record<Locale, string>>;
  answer: Partial<Record<Locale, string>>;
  /** An entry the owner wrote: asked with its own question, or close to it, its answer comes first (FaqMatcher.own). */
  own?: boolean;
};

/**
 * How alike a question must be to an entry's question (the share of letter sequences and words
 * they have in common, 0 to 1), and how much more alike than to the next entry. Chosen on the
 * tuning and validation questions (bench/chat-validation.ts), so that no question of another topic
 * gets an entry's answer.
 */
export const FAQ_MATCH = { similarity: 0.5, margin: 0.1 } as const;

/**
 * An owner's entry asked with its own question or close to it: every word that carries its question
 * ("réduction", "étudiante", not "avez", "vous") is in the message, typed in full or cut short
 * ("reduc", "etudiants": the first OWN_PREFIX letters alike), and the two share this much of their
 * letter sequences. The owner wrote the answer to exactly that question, so it comes before the
 * classifier's topics: "Can I pay with PayPal?" as an entry answers PayPal, not the card payment.
 */
export const OWN_FAQ_MATCH = { similarity: 0.35 } as const;
const OWN_PREFIX = 5;

const featureSet = (text: string) => new Set(textFeatures(text).ids);

/** Cosine of the two texts' feature sets (each feature weighs the same, as in the classifier). */
function similarity(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const id of a) if (b.has(id)) shared += 1;
  return shared / Math.sqrt(a.size * b.size);
}

export type FaqMatcher = {
  /** The answer, in `locale`, of the entry whose question is closest to `question`; null when none is close enough. */
  answer(question: string, locale: Locale): string | null;
  /** The answer, in `locale`, of an owner's entry asked with its own question or close to it (OWN_FAQ_MATCH); else null. */
  own(question: string, locale: Locale): string | null;
};

/** The same word, typed in full or cut short: equal, or the same first OWN_PREFIX letters. */
const sameWord = (a: string, b: string) =>
  a === b || (a.length >= OWN_PREFIX && b.length >= OWN_PREFIX && a.slice(0, OWN_PREFIX) === b.slice(0, OWN_PREFIX));

/** A matcher over a list of entries; entries with no answer in a language are skipped there. */
export function faqMatcher(
  entries: readonly FaqEntry[],
  settings: { similarity: number; margin: number } = FAQ_MATCH,
  /** Words that carry no question of their own ("do", "vous", "the"), in every language. */
  ignored: ReadonlySet<string> = new Set(),
): FaqMatcher {
  const indexed = entries.map((entry) => ({
    entry,
    questions: LOCALES.flatMap((locale) => {
      const text = entry.question[locale];
      return text === undefined || text.trim() === "" ? [] : [featureSet(text)];
    }),
  }));
  const owned = entries
    .filter((entry) => entry.own === true)
    .map((entry) => ({
      entry,
      questions: LOCALES.flatMap((locale) => {
        const text = entry.question[locale];
        if (text === undefined || text.trim() === "") return [];
        const carrying = words(text).filter((word) => word.length > 2 && !ignored.has(word));
        return carrying.length === 0 ? [] : [{ features: featureSet(text), carrying }];
      }),
    }));
  return {
    own(question, locale) {
      if (owned.length === 0) return null;
      const said = words(question);
      const asked = featureSet(question);
      let bestScore = 0;
      let bestAnswer: string | null = null;
      for (const { entry, questions } of owned) {
        const answer = entry.answer[locale];
        if (answer === undefined || answer.trim() === "") continue;
        for (const { features, carrying } of questions) {
          if (!carrying.every((word) => said.some((w) => sameWord(w, word)))) continue;
          const score = similarity(asked, features);
          if (score >= OWN_FAQ_MATCH.similarity && score > bestScore) {
            bestScore = score;
            bestAnswer = answer;
          }
        }
      }
      return bestAnswer;
    },
    answer(question, locale) {
      const asked = featureSet(question);
      let bestScore = 0;
      let secondScore = 0;
      let bestAnswer: string | null = null;
      for (const { entry, questions } of indexed) {
        const answer = entry.answer[locale];
        if (answer === undefined || answer.trim() === "") continue;
        const score = Math.max(0, ...questions.map((q) => similarity(asked, q)));
        if (score > bestScore) {
          secondScore = bestScore;
          bestScore = score;
          bestAnswer = answer;
        } else if (score > secondScore) {
          secondScore = score;
        }
      }
      return bestScore >= settings.similarity && bestScore - secondScore >= settings.margin ? bestAnswer : null;
    },
  };
}
