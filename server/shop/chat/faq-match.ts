import { LOCALES, type Locale } from "../../../shared/locales";
import { textFeatures } from "./text-features";

// The site's own words as answers: an FAQ entry (the landing page's: the specification's and the
// owner's own entries) is a question the site states the answer to, in every language. A visitor's question
// close enough to one of an entry's questions, in any language, is answered with that entry's
// answer in the visitor's language. It is the assistant's last resort before "I'm not sure":
// the classifier's topics come first, so an entry never overrides a clear topic.

/** One question the site answers, with its answer, in every language it is written in. */
export type FaqEntry = {
  question: Partial<Record<Locale, string>>;
  answer: Partial<Record<Locale, string>>;
};

/**
 * How alike a question must be to an entry's question (the share of letter sequences and words
 * they have in common, 0 to 1), and how much more alike than to the next entry. Chosen on the
 * tuning and validation questions (bench/chat-validation.ts), so that no question of another topic
 * gets an entry's answer.
 */
export const FAQ_MATCH = { similarity: 0.5, margin: 0.1 } as const;

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
};

/** A matcher over a list of entries; entries with no answer in a language are skipped there. */
export function faqMatcher(entries: readonly FaqEntry[], settings: { similarity: number; margin: number } = FAQ_MATCH): FaqMatcher {
  const indexed = entries.map((entry) => ({
    entry,
    questions: LOCALES.flatMap((locale) => {
      const text = entry.question[locale];
      return text === undefined || text.trim() === "" ? [] : [featureSet(text)];
    }),
  }));
  return {
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
