import type { Locale } from "../../../shared/locales";
import { byLocale } from "./language";
import en from "./paraphrases/en.txt" with { type: "text" };
import es from "./paraphrases/es.txt" with { type: "text" };
import fr from "./paraphrases/fr.txt" with { type: "text" };
import it from "./paraphrases/it.txt" with { type: "text" };
import { TOPICS } from "./site-content";
import type { Example } from "./topic-classifier";

// The questions the topic classifier learns from, as buyers write them, one file per language
// (paraphrases/*.txt): "[topic]" lines start a topic, every other line is one question.

/** What a question can be about: one of the site's topics, or "none", which the site does not answer. */
export const TOPIC_LABELS = [...TOPICS, "none"] as const;
export type TopicLabel = (typeof TOPIC_LABELS)[number];

const isLabel = (value: string): value is TopicLabel => TOPIC_LABELS.some((label) => label === value);

const FILES: Record<Locale, string> = { fr, en, it, es };

/** The examples of one file; a topic the site does not have, or a question before any topic, is an error. */
export function parseParaphrases(text: string, source: string): Example<TopicLabel>[] {
  const examples: Example<TopicLabel>[] = [];
  let label: TopicLabel | null = null;
  for (const [at, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const heading = /^\[([a-z-]+)\]$/.exec(line);
    if (heading !== null) {
      const name = heading[1] ?? "";
      if (!isLabel(name)) throw new Error(`${source}:${at + 1}: "${name}" is not a chat topic`);
      label = name;
    } else if (label === null) {
      throw new Error(`${source}:${at + 1}: a question before any [topic] line`);
    } else {
      examples.push({ text: line, label });
    }
  }
  return examples;
}

/** Every language's examples. */
export function paraphrasesByLocale(): Record<Locale, Example<TopicLabel>[]> {
  return byLocale((locale) => parseParaphrases(FILES[locale], `paraphrases/${locale}.txt`));
}
