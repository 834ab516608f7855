import MiniSearch from "minisearch";
import { LOCALES, type Locale } from "../../../shared/locales";
import type { Topic } from "./site-content";
import { words } from "./words";

// Finds which topic a question is about (issue 13). One document per topic and language: the words
// visitors use for it (offline-vocabulary.ts), the pairs of words that say it together, and the
// answer itself. Every language is searched at once, so a question in another language than the
// page's, or mixing two, still finds its topic.

/**
 * `pairs`: "words + words", two groups of which a question holding a word of each is about this
 * topic, although either word alone says another ("combien" is the price, "combien d'appareils"
 * the device limit).
 */
export type TopicDoc = { topic: Topic; locale: Locale; words: string; pairs: readonly string[]; answer: string };
/**
 * `exact`: at least one word of the question is spelt as in the document (not a typo's near match);
 * `matchedTerms`: how many of the question's terms matched, exactly or not.
 */
export type TopicHit = { topic: Topic; locale: Locale; score: number; exact: boolean; matchedTerms: number };
/** The hits, best first, and the question's terms that could match (stop words left out). */
export type TopicSearch = (question: string) => { terms: string[]; hits: TopicHit[] };

/** The visitors' words count this many times more than a word of the answer. */
const WORDS_BOOST = 3;
/**
 * A pair found in the question outweighs a single word, which may belong to another topic. From 4×
 * the words' boost up every tuning question is right (bench/chat-offline.ts); below, "how many
 * devices can I install it on" is the install time again. 10× sits well inside that range.
 */
const PAIRS_BOOST = 10 * WORDS_BOOST;

/** "appareils" and "appareil" are one word; short words keep their "s" ("ads", "gps"). */
const singular = (word: string) => (word.length > 3 && word.endsWith("s") ? word.slice(0, -1) : word);

/** Lowercase, no accents, no stop words, a plural "s" dropped: the terms both sides are compared on. */
export function createTermMaker(stopWords: ReadonlySet<string>) {
  return (text: string): string[] =>
    words(text)
      .filter((w) => !stopWords.has(w))
      .map(singular);
}

type Pair = { term: string; left: ReadonlySet<string>; right: ReadonlySet<string> };

function parsePair(definition: string): Pair {
  const [left, right, ...rest] = definition.split("+").map((side) => new Set(words(side).map(singular)));
  if (left === undefined || right === undefined || left.size === 0 || right.size === 0 || rest.length > 0) {
    throw new Error(`A pair of the chat's vocabulary is "words + words", not "${definition}"`);
  }
  // The term a matched pair adds to the question. It starts with "+", which no word does, so that
  // a word's prefix search ("combien" as the start of a longer word) never reaches it.
  return { term: `+${[...left].join(" ")}+${[...right].join(" ")}`, left, right };
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
  const pairsOf = docs.map((doc) => doc.pairs.map(parsePair));
  const pairs = pairsOf.flat();
  // Pairs are looked for among all the question's words: "how many" is a stop word's doing.
  const pairTerms = (question: string) => {
    const said = new Set(words(question).map(singular));
    const found = pairs.filter((pair) => [...pair.left].some((w) => said.has(w)) && [...pair.right].some((w) => said.has(w)));
    return [...new Set(found.map((pair) => pair.term))];
  };
  const isPairTerm = (term: string) => term.startsWith("+");
  const index = new MiniSearch<{ id: number; words: string; pairs: string; answer: string }>({
    fields: ["words", "pairs", "answer"],
    tokenize: (text, field) => (field === "pairs" ? text.split("\n").filter(Boolean) : terms(text)),
    // Terms are made whole by `tokenize`; MiniSearch must not lowercase or split them again.
    processTerm: (term) => term,
    searchOptions: {
      tokenize: (question) => [...terms(question), ...pairTerms(question)],
      boost: { words: WORDS_BOOST, pairs: PAIRS_BOOST },
      // A typo ("refnd", "rimborzo") is one letter off in a short word, two in a long one...
      fuzzy: (term) => (term.length >= 5 && !isPairTerm(term) ? 0.2 : false),
      // ... and a word cut short ("rembours", "install") is the start of the right one.
      prefix: (term) => term.length >= 5 && !isPairTerm(term),
    },
  });
  index.addAll(
    docs.map((doc, id) => ({ id, words: doc.words, answer: doc.answer, pairs: (pairsOf[id] ?? []).map((pair) => pair.term).join("\n") })),
  );
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
