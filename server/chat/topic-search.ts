import MiniSearch from "minisearch";
import { LOCALES, type Locale } from "../../shared/locales";
import type { Topic } from "./site-content";
import { words } from "./words";

// Finds which topic a question is about (issue 13). One document per topic and language: the words
// visitors use for it (offline-vocabulary.ts) and the answer itself. Every language is searched at
// once, so a question in another language than the page's, or mixing two, still finds its topic.

export type TopicDoc = { topic: Topic; locale: Locale; words: string; answer: string };
/**
 * `exact`: at least one word of the question is spelt as in the document (not a typo's near match);
 * `matchedTerms`: how many of the question's terms matched, exactly or not.
 */
export type TopicHit = { topic: Topic; locale: Locale; score: number; exact: boolean; matchedTerms: number };
/** The hits, best first, and the question's terms that could match (stop words left out). */
export type TopicSearch = (question: string) => { terms: string[]; hits: TopicHit[] };

/** The visitors' words count this many times more than a word of the answer. */
const WORDS_BOOST = 3;

/** Lowercase, no accents, no stop words, a plural "s" dropped: the terms both sides are compared on. */
export function createTermMaker(stopWords: ReadonlySet<string>) {
  return (text: string): string[] =>
    words(text)
      .filter((w) => !stopWords.has(w))
      .map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w));
}

/**
 * MiniSearch rather than a hand-written BM25: its fuzzy and prefix matching finds the topic of a
 * misspelt word (decision 007, measured with bench/chat-offline.ts).
 */
export function createTopicSearch(docs: readonly TopicDoc[], stopWords: ReadonlySet<string>): TopicSearch {
  const terms = createTermMaker(stopWords);
  // One index per language: a word the four languages share ("offline", "netflix") then weighs in
  // each as much as a word of that language alone, instead of counting as four times as common.
  const perLanguage = LOCALES.map((locale) => {
    const own = docs.filter((doc) => doc.locale === locale);
    return miniSearchIndex(own, terms);
  });
  return (question) => ({
    terms: terms(question),
    hits: perLanguage.flatMap((search) => search(question)).sort((a, b) => b.score - a.score),
  });
}

type Terms = (text: string) => string[];

function miniSearchIndex(docs: readonly TopicDoc[], terms: Terms): (question: string) => TopicHit[] {
  const index = new MiniSearch<TopicDoc & { id: number }>({
    fields: ["words", "answer"],
    tokenize: terms,
    // Terms are made whole by `tokenize`; MiniSearch must not lowercase or split them again.
    processTerm: (term) => term,
    searchOptions: {
      boost: { words: WORDS_BOOST },
      // A typo ("refnd", "rimborzo") is one letter off in a short word, two in a long one...
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      // ... and a word cut short ("rembours", "install") is the start of the right one.
      prefix: (term) => term.length >= 5,
    },
  });
  index.addAll(docs.map((doc, id) => ({ ...doc, id })));
  return (question) =>
    index.search(question).map((result) => {
      const doc = docs[Number(result.id)];
      if (doc === undefined) throw new Error(`MiniSearch returned an unknown document ${String(result.id)}`);
      return {
        topic: doc.topic,
        locale: doc.locale,
        score: result.score,
        exact: result.terms.some((term) => result.queryTerms.includes(term)),
        matchedTerms: result.queryTerms.length,
      };
    });
}
