import { SOURCE_MESSAGES } from "../../site/locales";
import { LOCALES, type Locale } from "../../../shared/locales";
import type { Assistant } from "./assistant";
import { byLocale, clearWinner, createLanguageGuesser, type LanguageEvidence, type LanguageGuesser } from "./language";
import { GREETINGS, STOP_WORDS, THANKS, TOPIC_PAIRS, TOPIC_WORDS } from "./offline-vocabulary";
import { buildSiteKnowledge, TOPICS, type ChatSiteConfig, type Topic } from "./site-content";
import { words } from "./words";
import { createTopicSearch, type TopicDoc } from "./topic-search";

// The embedded default when no Anthropic key is configured (DECISIONS.md, "Support chat"; issue 13):
// finds the topic of the question and the language it is written in, and answers with the site's
// own answer for that topic in that language (site-content.ts); when no topic matches well enough,
// it says so and hands over to the support address. It never writes text of its own, so it cannot
// invent a price or a promise, nor say "yes" where the site does not.

/**
 * Below this score the best topic shares too little with the question to be the answer. Chosen on
 * test/chat/questions/tuning.ts (bench/chat-offline.ts): the middle of the range of values that
 * answer the most tuning questions right.
 */
export const MIN_SCORE = 3;

/** How much the language of the conversation so far (or of the page) weighs against a question's words. */
const PRIOR_WEIGHT = 0.4;
/** How much a language weighs when the matched words are that language's (typos are in no vocabulary). */
const MATCH_WEIGHT = 0.5;

export type OfflineAnswer = { topic: Topic | "greeting" | "thanks" | null; locale: Locale; text: string; score: number };

export type OfflineAssistant = Assistant & {
  /** `page`: the language of the page; `earlier`: the visitor's earlier messages, oldest first. */
  answer(question: string, page: Locale, earlier?: readonly string[]): OfflineAnswer;
};

/** What the assistant reads with: built on the first question, not when the server starts. */
function buildReader(config: ChatSiteConfig) {
  const knowledge = byLocale((locale) => buildSiteKnowledge(config, locale));
  const stopWords = new Set(LOCALES.flatMap((locale) => words(STOP_WORDS[locale])));
  const docs: TopicDoc[] = TOPICS.flatMap((topic) =>
    LOCALES.map((locale) => ({
      topic,
      locale,
      words: topic === "product" ? `${TOPIC_WORDS[topic][locale]} ${config.site.name}` : TOPIC_WORDS[topic][locale],
      pairs: TOPIC_PAIRS[topic]?.[locale] ?? [],
      answer: knowledge[locale].answers[topic],
    })),
  );
  return {
    knowledge,
    search: createTopicSearch(docs, stopWords),
    guess: createLanguageGuesser(
      byLocale((locale) => [
        ...Object.values(SOURCE_MESSAGES[locale]).map((text) => text.replace(/\{\w+\}/g, " ")),
        STOP_WORDS[locale],
        GREETINGS[locale],
        THANKS[locale],
        ...TOPICS.map((topic) => TOPIC_WORDS[topic][locale]),
        ...TOPICS.flatMap((topic) => TOPIC_PAIRS[topic]?.[locale] ?? []),
      ]),
    ),
    greetings: new Set(LOCALES.flatMap((locale) => words(GREETINGS[locale]))),
    thanks: new Set(LOCALES.flatMap((locale) => words(THANKS[locale]))),
  };
}

export function createOfflineAssistant(config: ChatSiteConfig, options: { minScore?: number } = {}): OfflineAssistant {
  const minScore = options.minScore ?? MIN_SCORE;
  let reader: ReturnType<typeof buildReader> | undefined;

  /** The language the visitor has been writing in, else the page's. */
  const priorLanguage = (guess: LanguageGuesser, page: Locale, earlier: readonly string[]): Locale => {
    for (let i = earlier.length - 1; i >= 0; i--) {
      const winner = clearWinner(guess(earlier[i] ?? ""));
      if (winner !== null) return winner;
    }
    return page;
  };

  const pick = (evidence: LanguageEvidence, prior: Locale, matched: Partial<Record<Locale, number>> = {}): Locale => {
    let best: Locale = prior;
    let bestScore = -1;
    for (const locale of LOCALES) {
      const score = evidence[locale] + (locale === prior ? PRIOR_WEIGHT : 0) + MATCH_WEIGHT * (matched[locale] ?? 0);
      if (score > bestScore) {
        best = locale;
        bestScore = score;
      }
    }
    return best;
  };

  const answer = (question: string, page: Locale, earlier: readonly string[] = []): OfflineAnswer => {
    reader ??= buildReader(config);
    const { knowledge, search, guess, greetings, thanks } = reader;
    const said = words(question);
    const evidence = guess(question);
    const prior = priorLanguage(guess, page, earlier);
    if (said.length > 0 && said.every((w) => greetings.has(w) || thanks.has(w))) {
      const locale = pick(evidence, prior);
      const topic = said.some((w) => greetings.has(w) && !thanks.has(w)) ? "greeting" : "thanks";
      return { topic, locale, text: knowledge[locale].t(topic === "greeting" ? "chat.greeting" : "chat.thanks"), score: 0 };
    }
    const { terms, hits } = search(question);
    // Matched only through near spellings, every word must have found its match ("refnd"): a
    // question with words left over is about something else ("share with my family" is not "sharp").
    // A near match in another language that scores higher does not hide an exact one ("I got a new
    // phone, how do I install it?" is not Italian "installa").
    const best = hits.find((hit) => hit.score >= minScore && (hit.exact || hit.matchedTerms >= terms.length));
    if (best === undefined) {
      const locale = pick(evidence, prior);
      return { topic: null, locale, text: knowledge[locale].t("chat.handover"), score: hits[0]?.score ?? 0 };
    }
    // How well the topic's words matched in each language, relative to the best: a typo or a word
    // shared by several languages tells little, a word of one language's list tells its language.
    // The near matches that scored above the best trusted hit tell nothing.
    const matched: Partial<Record<Locale, number>> = {};
    for (const hit of hits.slice(hits.indexOf(best))) {
      if (hit.topic === best.topic && matched[hit.locale] === undefined) matched[hit.locale] = hit.score / best.score;
    }
    const locale = pick(evidence, prior, matched);
    return { topic: best.topic, locale, text: knowledge[locale].answers[best.topic], score: best.score };
  };

  return {
    kind: "offline",
    answer,
    async *reply({ messages, locale }) {
      const questions = messages.filter((m) => m.role === "user").map((m) => m.content);
      const last = questions.pop() ?? "";
      yield answer(last, locale, questions).text;
    },
  };
}
