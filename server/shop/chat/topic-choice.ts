import type { TopicLabel } from "./paraphrases";
import type { Topic } from "./site-content";
import type { Scored, TopicClassifier } from "./topic-classifier";
import { words } from "./words";

// From the classifier's probabilities to what the assistant does: answer one topic, two when a
// message clearly asks two things, hand over when the question is about nothing the site answers
// ("none"), or say it is not sure when no topic stands out. A wrong topic's answer is worse than a
// hand-over: the visitor reads something beside the point and may take it for the answer.

/**
 * `unsureRest`: the message asks another question (its own sentence ending with "?") that no topic
 * clearly answers; the reply says so and gives the support address after the answer, rather than
 * leaving it unanswered as if the answer covered it.
 */
export type TopicChoice = { kind: "topics"; topics: Topic[]; unsureRest?: true } | { kind: "none" } | { kind: "unsure" };

export type ChoiceThresholds = {
  /** The best label's probability must reach this... */
  confidence: number;
  /** ... and exceed the second best's by this much. */
  margin: number;
  /** A part of a message counts as a second question only when its topic is at least this sure... */
  partConfidence: number;
  /**
   * ... and the whole message leans to it at least this much: "I paid and got nothing" is about
   * not receiving, though "I paid" alone would be about paying.
   */
  wholeSupport: number;
};

/**
 * Confidence and margin chosen by 5-fold cross-validation on the paraphrases, a wrong topic counted
 * as worse than a hand-over; the two-question ones so that no tuning question is cut in two. Never
 * on a held-out set.
 */
export const THRESHOLDS: ChoiceThresholds = { confidence: 0.6, margin: 0.2, partConfidence: 0.6, wholeSupport: 0.02 };

/** Where a message may ask a second thing: at a word that joins two requests. */
const JOINING_WORDS = new Set("and also et aussi puis ensuite e anche poi inoltre y tambien ademas".split(" "));

/**
 * The message cut into the parts that may each be a question of its own (at least two words each):
 * its sentences, and within them the requests joined by "and", "et", "e", "y"... When the message
 * holds a question mark, only the sentences that end with one are questions; the others are
 * context ("Where is my key? I paid an hour ago" asks one thing).
 */
export function questionParts(question: string): string[] {
  const sentences = question.match(/[^?!.;\n]+[?!.;\n]*/g) ?? [];
  const asked = question.includes("?") ? sentences.filter((sentence) => sentence.includes("?")) : sentences;
  const parts: string[] = [];
  for (const sentence of asked) {
    let current: string[] = [];
    for (const word of words(sentence)) {
      if (JOINING_WORDS.has(word) && current.length >= 2) {
        parts.push(current.join(" "));
        current = [];
      } else if (!JOINING_WORDS.has(word) || current.length > 0) {
        current.push(word);
      }
    }
    if (current.length > 0) parts.push(current.join(" "));
  }
  return parts.filter((part) => part.split(" ").length >= 2);
}

/** The sentences of a message that ask something: they end with "?" and have three words or more. */
function askedSentences(question: string): string[] {
  const sentences = question.match(/[^?!.;\n]+[?!.;\n]*/g) ?? [];
  return sentences.filter((sentence) => sentence.includes("?") && words(sentence).length >= 3);
}

const best = (scored: Scored<TopicLabel>[]) => ({
  first: scored[0] ?? { label: "none" as const, probability: 0 },
  second: scored[1]?.probability ?? 0,
});

const isTopic = (label: TopicLabel): label is Topic => label !== "none";

export function chooseTopics(
  classifier: TopicClassifier<TopicLabel>,
  question: string,
  thresholds: ChoiceThresholds = THRESHOLDS,
): TopicChoice {
  const whole = classifier.classify(question);
  const asked = askedSentences(question);
  // Two questions in one message: two parts, each clearly about its own topic. Two sentences that
  // each end with "?" are two questions whatever the whole leans to; parts joined by "and" must be
  // supported by the whole message too.
  const parts = questionParts(question);
  if (parts.length >= 2) {
    const topics: Topic[] = [];
    for (const part of parts) {
      const { first, second } = best(classifier.classify(part));
      const sure = first.probability >= thresholds.partConfidence && first.probability - second >= thresholds.margin;
      const supported =
        asked.length >= 2 || (whole.find((scored) => scored.label === first.label)?.probability ?? 0) >= thresholds.wholeSupport;
      if (sure && supported && isTopic(first.label) && !topics.includes(first.label)) topics.push(first.label);
    }
    if (topics.length >= 2) return { kind: "topics", topics: topics.slice(0, 2) };
  }
  const { first, second } = best(whole);
  if (first.probability < thresholds.confidence || first.probability - second < thresholds.margin) return { kind: "unsure" };
  if (!isTopic(first.label)) return { kind: "none" };
  const topic = first.label;
  // Two questions asked and one answered (the other was not clear enough to answer too): the other is
  // left to the team rather than passed over.
  const unanswered = asked.length >= 2 && asked.some((sentence) => best(classifier.classify(sentence)).first.label !== topic);
  return unanswered ? { kind: "topics", topics: [topic], unsureRest: true } : { kind: "topics", topics: [topic] };
}
