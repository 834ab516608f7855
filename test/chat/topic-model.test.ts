import { expect, test } from "bun:test";
import { TOPIC_LABELS } from "../../server/shop/chat/paraphrases";
import { topicClassifier, trainTopicWeights } from "../../server/shop/chat/topic-classifier";
import { loadTopicModel } from "../../server/shop/chat/topic-model";
import { decodeTopicModel, encodeTopicModel } from "../../server/shop/chat/topic-model-file";
import { trainingExamples, trainingFingerprint } from "../../server/shop/chat/topic-training";

// The chat's topic model ships as a file trained beforehand (scripts/train-chat-model.ts), so no
// visitor waits for a training: these tests fail when the paraphrases (or the way a text is cut
// into features) changed and the file was not made again, and check that what the file holds
// answers like the model it was made from.

test("the shipped topic model was trained on the paraphrases of the repository (else: bun scripts/train-chat-model.ts)", () => {
  expect(loadTopicModel().fingerprint).toBe(trainingFingerprint());
});

test("editing one paraphrase changes the fingerprint the model file must carry", () => {
  const examples = trainingExamples();
  const edited = examples.map((example, i) => (i === 0 ? { ...example, text: `${example.text} please` } : example));
  expect(trainingFingerprint(edited)).not.toBe(trainingFingerprint(examples));
});

const toyLabels = ["price", "refund", "none"] as const;
const toy = trainTopicWeights(toyLabels, [
  ...["how much is it", "what does it cost", "price please", "is it expensive"].map((text) => ({ text, label: "price" as const })),
  ...["i want my money back", "can i get a refund", "refund please"].map((text) => ({ text, label: "refund" as const })),
  ...["tell me a joke", "what is the weather", "write a poem"].map((text) => ({ text, label: "none" as const })),
]);

test("a model read back from its file gives the probabilities of the trained one, to a hundredth", () => {
  const read = decodeTopicModel(encodeTopicModel({ fingerprint: "abc", model: toy }), toyLabels);
  expect(read.fingerprint).toBe("abc");
  const trained = topicClassifier(toy);
  const fromFile = topicClassifier(read.model);
  for (const question of ["how much", "refund pls", "a poem about money", "zzz"]) {
    const expected = trained.classify(question);
    const actual = fromFile.classify(question);
    expect(actual.map((s) => s.label)).toEqual(expected.map((s) => s.label));
    for (const [i, scored] of actual.entries()) expect(scored.probability).toBeCloseTo(expected[i]?.probability ?? 0, 2);
  }
});

test("a model file made for other topics, or cut short, is refused with the command that makes it again", () => {
  const file = encodeTopicModel({ fingerprint: "abc", model: toy });
  expect(() => decodeTopicModel(file, TOPIC_LABELS)).toThrow("run scripts/train-chat-model.ts");
  expect(() => decodeTopicModel(file.subarray(0, file.length - 10), toyLabels)).toThrow("cut short");
});

test("the shipped model, read from its file as the server reads it, answers the paraphrases it was trained on", () => {
  const { classifier } = loadTopicModel();
  const examples = trainingExamples();
  const right = examples.filter((example) => classifier.classify(example.text)[0]?.label === example.label).length;
  expect(right / examples.length).toBeGreaterThan(0.95);
});
