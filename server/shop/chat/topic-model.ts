import { readFileSync } from "node:fs";
import { TOPIC_LABELS, type TopicLabel } from "./paraphrases";
import { type TopicClassifier, topicClassifier } from "./topic-classifier";
import modelFile from "./topic-model.generated.bin" with { type: "file" };
import { decodeTopicModel } from "./topic-model-file";

// The support chat's topic model: trained once, when the paraphrases change, by
// scripts/train-chat-model.ts into topic-model.generated.bin (carried inside the executable like the
// other files), so no visitor waits for a training. The file records a fingerprint of what it was
// trained on; a test compares it with the paraphrases of the repository, so weights that were not
// made again after an edit fail the tests instead of answering from old paraphrases.

/** The model file as shipped: its fingerprint and the classifier over its weights. */
export function loadTopicModel(): { fingerprint: string; classifier: TopicClassifier<TopicLabel> } {
  const { fingerprint, model } = decodeTopicModel(readFileSync(modelFile), TOPIC_LABELS);
  return { fingerprint, classifier: topicClassifier(model) };
}
