import type { Config } from "../config";
import type { Locale } from "../../shared/locales";
import { factsKey } from "../../shared/site-facts";
import type { Assistant } from "./assistant";
import { OFFLINE_LEXICON } from "./offline-lexicon";
import { buildSiteKnowledge, type Passage } from "./site-content";
import { createAnalyzer, createIndex, words, type SearchIndex } from "./text-search";

// The embedded default when no Anthropic key is configured (DECISIONS.md, "Support chat"): answers
// with the best-matching FAQ answer or page passage in the visitor's language, and hands over to the
// support address when nothing matches well enough. It never writes text of its own, so it cannot
// invent a price or a promise.

/**
 * Below this BM25 score the best passage shares too little with the question to be the answer.
 * Chosen on test/chat/reworded-questions.ts: one specific word in common scores about 2.5, a word
 * found in many passages ("app", "accès") well under 1.5.
 */
export const MIN_SCORE = 1.5;

const GREETINGS = new Set(words("bonjour bonsoir salut coucou hello hi hey ciao buongiorno buonasera salve hola buenas buenos dias"));
const THANKS = new Set(words("merci beaucoup thanks thank you thx grazie mille gracias muchas ok okay super parfait perfect perfetto perfecto genial"));

export type OfflineAnswer = { id: string | null; text: string; score: number };

export type OfflineAssistant = Assistant & { answer(question: string, locale: Locale): OfflineAnswer };

export function createOfflineAssistant(site: Config["site"], options: { minScore?: number; now?: () => Date } = {}): OfflineAssistant {
  const minScore = options.minScore ?? MIN_SCORE;
  const clock = options.now ?? (() => new Date());
  // Keyed by the facts' state too: when the early-bird offer ends, the price passage loses its claims.
  const perLocale = new Map<string, { index: SearchIndex<Passage>; t: (key: string) => string }>();

  const forLocale = (locale: Locale) => {
    const now = clock();
    const key = `${locale}:${factsKey(site, now)}`;
    let entry = perLocale.get(key);
    if (entry === undefined) {
      const knowledge = buildSiteKnowledge(site, locale, now);
      const lexicon = OFFLINE_LEXICON[locale];
      const index = createIndex(
        knowledge.passages,
        // The title counts twice: it says what the passage is about in the fewest words.
        (p) => `${p.title} ${p.title} ${p.text} ${lexicon.keywords[p.id] ?? ""}`,
        createAnalyzer(lexicon),
      );
      entry = { index, t: (key) => knowledge.t(key) };
      perLocale.set(key, entry);
    }
    return entry;
  };

  const answer = (question: string, locale: Locale): OfflineAnswer => {
    const { index, t } = forLocale(locale);
    const said = words(question);
    if (said.length > 0 && said.every((w) => GREETINGS.has(w))) return { id: "greeting", text: t("chat.greeting"), score: 0 };
    if (said.length > 0 && said.every((w) => THANKS.has(w) || GREETINGS.has(w))) return { id: "thanks", text: t("chat.thanks"), score: 0 };
    const best = index.search(question, 1)[0];
    if (best === undefined || best.score < minScore) return { id: null, text: t("chat.handover"), score: best?.score ?? 0 };
    return { id: best.item.id, text: best.item.text, score: best.score };
  };

  return {
    kind: "offline",
    answer,
    async *reply({ messages, locale }) {
      const last = messages.at(-1);
      yield answer(last?.content ?? "", locale).text;
    },
  };
}
