import { expect, test } from "bun:test";
import { createOfflineAssistant } from "../../server/shop/chat/offline-assistant";
import { LOCALES } from "../../shared/locales";
import { testConfig } from "../support/config";
import { chatSite } from "../support/content";
import { HELD_OUT } from "./questions/held-out";
import { HELD_OUT_NEW } from "./questions/held-out-new";
import { type ChatQuestion, createJudge } from "./questions/judge";
import { TUNING } from "./questions/tuning";

// The offline assistant answers at least 90 % of the questions of each set right in every language
// (the fact each answer must carry, in the question's language), and never says "yes" to a "no":
// the tuning set, the held-out set written before the word lists were tuned, and the one written
// after the topic classifier was trained. On the new set at most 2 % of the replies are another
// topic's answer (a hand-over is better than that). The first held-out set had 219 of 225 right with
// the word lists; the classifier, trained on more paraphrases of the topics asked in the most ways,
// gets 219 again with at most 1 % another topic's answer: the floor below is that figure, so nothing
// slips back. bench/chat-offline.ts prints the same figures per intent. The held-out sets are test
// data: the settings are chosen on test/chat/questions/validation.ts instead.

const config = testConfig({ SUPPORT_EMAIL: "help@stream.example" });
const assistant = createOfflineAssistant(chatSite(config));
const judge = createJudge(config);
const FLOOR = 0.9;

function run(set: readonly ChatQuestion[]) {
  return set.map((question) => {
    const answer = assistant.answer(question.q, question.page ?? question.lang).text;
    return { question, answer, ...judge(question, answer) };
  });
}

for (const [name, set] of [
  ["held-out", HELD_OUT],
  ["new held-out", HELD_OUT_NEW],
  ["tuning", TUNING],
] as const) {
  const results = run(set);
  for (const locale of LOCALES) {
    test(`${name} questions asked in ${locale}: at least ${FLOOR * 100} % answered right`, () => {
      const mine = results.filter((r) => r.question.lang === locale);
      expect(mine.length).toBeGreaterThanOrEqual(25);
      const wrong = mine.filter((r) => !r.right).map((r) => `${r.question.q} (${r.question.intent}): ${r.problems.join(", ")}`);
      const share = (mine.length - wrong.length) / mine.length;
      if (share < FLOOR) console.error(`${name}, ${locale}, answered wrong:\n${wrong.join("\n")}`);
      expect(share).toBeGreaterThanOrEqual(FLOOR);
    });
  }
  if (set === HELD_OUT_NEW) {
    test("new held-out questions: at most 2 % get another topic's answer", () => {
      const other = results.filter((r) => r.otherTopic).length;
      expect(other / results.length).toBeLessThanOrEqual(0.02);
    });
  }
  if (set === HELD_OUT) {
    test("first held-out questions: at least 219 of the 225 answered right, at most 1 % another topic's answer", () => {
      expect(results.length).toBe(225);
      expect(results.filter((r) => r.right).length).toBeGreaterThanOrEqual(219);
      expect(results.filter((r) => r.otherTopic).length / results.length).toBeLessThanOrEqual(0.01);
    });
  }
  test(`${name} questions whose true answer is "no": never a "yes"`, () => {
    expect(results.filter((r) => r.yesToNo).map((r) => `${r.question.q} -> ${r.answer}`)).toEqual([]);
  });
}
