import { expect, test } from "bun:test";
import { paraphrasesByLocale, parseParaphrases, TOPIC_LABELS } from "../../server/shop/chat/paraphrases";
import { chooseTopics, questionParts } from "../../server/shop/chat/topic-choice";
import { trainTopicClassifier } from "../../server/shop/chat/topic-classifier";
import { LOCALES } from "../../shared/locales";

// The topic classifier and what the assistant makes of its probabilities: trained on buyers'
// paraphrases, it tells topics apart by pieces of words (so typos still match), says how sure it
// is, and the choice turns an unsure guess into a hand-over instead of another topic's answer.

const toy = trainTopicClassifier(
  ["price", "refund", "none"],
  [
    ...["how much is it", "what does it cost", "price please", "how much do i pay", "is it expensive"].map((text) => ({
      text,
      label: "price" as const,
    })),
    ...["i want my money back", "can i get a refund", "refund please", "give me back my money"].map((text) => ({
      text,
      label: "refund" as const,
    })),
    ...["tell me a joke", "what is the weather", "write a poem", "who won the match"].map((text) => ({ text, label: "none" as const })),
  ],
);

test("a question worded unlike any example, or misspelt, still finds its topic through pieces of words", () => {
  expect(toy.classify("refnd pls")[0]?.label).toBe("refund");
  expect(toy.classify("how mcuh does it cost me")[0]?.label).toBe("price");
  expect(toy.classify("tell me a poem about the weather")[0]?.label).toBe("none");
});

test("the classifier gives every label a probability, most likely first, summing to 1", () => {
  const scored = toy.classify("how much");
  expect(scored.map((s) => s.label).sort()).toEqual(["none", "price", "refund"]);
  expect(scored.reduce((sum, s) => sum + s.probability, 0)).toBeCloseTo(1, 6);
  expect(scored[0]?.probability).toBeGreaterThanOrEqual(scored[1]?.probability ?? 1);
});

test("training twice on the same paraphrases gives the same model", () => {
  const examples = [
    { text: "how much", label: "price" as const },
    { text: "refund", label: "refund" as const },
    { text: "joke", label: "none" as const },
  ];
  const a = trainTopicClassifier(["price", "refund", "none"], examples);
  const b = trainTopicClassifier(["price", "refund", "none"], examples);
  expect(a.classify("how much is a refund")).toEqual(b.classify("how much is a refund"));
});

test("a paraphrase file naming a topic the site does not have, or a question before any topic, is refused with its line", () => {
  expect(() => parseParaphrases("[prices]\nhow much", "en.txt")).toThrow('en.txt:1: "prices" is not a chat topic');
  expect(() => parseParaphrases("# comment\nhow much\n[price]", "en.txt")).toThrow("en.txt:2: a question before any [topic] line");
  expect(parseParaphrases("# a comment\n[price]\nhow much\n\n[none]\nhi there", "en.txt")).toEqual([
    { text: "how much", label: "price" },
    { text: "hi there", label: "none" },
  ]);
});

test("every topic, and 'none', has paraphrases in every language", () => {
  const paraphrases = paraphrasesByLocale();
  for (const locale of LOCALES) {
    for (const label of TOPIC_LABELS) {
      const count = paraphrases[locale].filter((example) => example.label === label).length;
      expect({ locale, label, enough: count >= 3 }).toEqual({ locale, label, enough: true });
    }
  }
});

test("a message is cut into its questions: sentences that end with '?', and requests joined by 'and', 'et', 'e', 'y'", () => {
  expect(questionParts("How much is it? And does it work on my TV?")).toEqual(["how much is it", "and does it work on my tv"]);
  // A joining word that opens a sentence stays in its part: the French "y a" is "there is".
  expect(questionParts("y a un controle parental ? et y a des pubs ?")).toEqual(["y a un controle parental", "et y a des pubs"]);
  expect(questionParts("c'est combien et ca marche sur mac")).toEqual(["c est combien", "ca marche sur mac"]);
  // A sentence without a question mark next to one that has it is context, not a second question.
  expect(questionParts("Where is my key? I paid an hour ago.")).toEqual(["where is my key"]);
});

test("'also' inside a request is its adverb, not a second question, unless a question opens after it", () => {
  expect(questionParts("can I put it also on my son's laptop?")).toEqual(["can i put it also on my son s laptop"]);
  expect(questionParts("y si lo pongo tambien en el portatil de mi hijo?")).toEqual(["y si lo pongo tambien en el portatil de mi hijo"]);
  expect(questionParts("ça marche sur mac aussi combien ça coûte")).toEqual(["ca marche sur mac", "combien ca coute"]);
});

test("the choice: one clear topic, two for two questions, a hand-over for 'none', 'unsure' when nothing stands out", () => {
  expect(chooseTopics(toy, "how much is it")).toEqual({ kind: "topics", topics: ["price"] });
  expect(chooseTopics(toy, "how much is it? and can i get a refund?")).toEqual({ kind: "topics", topics: ["price", "refund"] });
  expect(chooseTopics(toy, "write me a poem")).toEqual({ kind: "none" });
  // With a bar no guess can reach, the assistant says it is not sure rather than guess.
  expect(
    chooseTopics(toy, "how much is it", {
      confidence: 1.01,
      margin: 0,
      partConfidence: 1.01,
      wholeSupport: 0,
      partAlone: 1.01,
      partOpening: 1.01,
      nearMass: 1.01,
      longWords: 25,
    }),
  ).toEqual({
    kind: "unsure",
  });
});
