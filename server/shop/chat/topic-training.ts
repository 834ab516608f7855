import { createHash } from "node:crypto";
import { LOCALES } from "../../../shared/locales";
import { paraphrasesByLocale, TOPIC_LABELS, type TopicLabel } from "./paraphrases";
import { textFeatures } from "./text-features";
import { type Example, TRAINING_DEFAULTS } from "./topic-classifier";

// What the support chat's topic model is trained on (scripts/train-chat-model.ts), and the
// fingerprint of it that the model file records (topic-model.ts).

/** Every language's paraphrases, the examples the model learns from. */
export function trainingExamples(): Example<TopicLabel>[] {
  const paraphrases = paraphrasesByLocale();
  return LOCALES.flatMap((locale) => paraphrases[locale]);
}

/**
 * What the model depends on: the labels, the training settings and each example's label and
 * features, so that a change of the paraphrases or of how a text is cut into features changes it.
 */
export function trainingFingerprint(examples: readonly Example<TopicLabel>[] = trainingExamples()): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ labels: TOPIC_LABELS, options: TRAINING_DEFAULTS }));
  for (const { text, label } of examples) hash.update(`\n${label}:${textFeatures(text).ids.join(",")}`);
  return hash.digest("hex");
}
