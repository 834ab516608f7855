// Calibrates when the offline assistant hands over, on questions its model never saw: k-fold
// cross-validation over the whole question bank (every set on this branch: tuning, validation, the
// held-out sets, the buyers' set, follow-ups, two-question messages, the new-user trial's misses,
// the blind sets scored once and used for tuning since),
// not on one held-out set written alongside the training set. For each fold a model is trained on
// the paraphrases and the bank's other folds (a question's intent read as its topic; the bank's
// questions that are also paraphrases are left out of the fold that tests them), and the fold's
// questions are answered by it, follow-ups after their earlier messages, and judged by the facts the
// reply carries (judge.ts). A grid of thresholds is scored that way; the score counts a wrong topic
// as twice as bad as a needless hand-over, as a reply beside the point misleads where a hand-over
// only delays. The shipped model itself is trained on the paraphrases alone (scripts/train-chat-model.ts).
// Run: ./node_modules/.bin/bun bench/chat-crossval.ts [--folds 5]
import { createOfflineAssistant } from "../server/shop/chat/offline-assistant";
import { TOPIC_LABELS, type TopicLabel } from "../server/shop/chat/paraphrases";
import { type ChoiceThresholds, THRESHOLDS } from "../server/shop/chat/topic-choice";
import { type Example, type TopicClassifier, trainTopicClassifier } from "../server/shop/chat/topic-classifier";
import { trainingExamples } from "../server/shop/chat/topic-training";
import { FOLLOW_UPS } from "../test/chat/questions/follow-ups";
import { HELD_OUT } from "../test/chat/questions/held-out";
import { HELD_OUT_BLIND2 } from "../test/chat/questions/held-out-blind2";
import { HELD_OUT_BLIND3 } from "../test/chat/questions/held-out-blind3";
import { HELD_OUT_BLIND4 } from "../test/chat/questions/held-out-blind4";
import { HELD_OUT_BUYERS } from "../test/chat/questions/held-out-buyers";
import { HELD_OUT_NEW } from "../test/chat/questions/held-out-new";
import { type ChatQuestion, createJudge, HANDOVER_INTENTS, type Intent } from "../test/chat/questions/judge";
import { TRIAL_MISSES } from "../test/chat/questions/trial-misses";
import { TUNING } from "../test/chat/questions/tuning";
import { TWO_QUESTIONS } from "../test/chat/questions/two-questions";
import { VALIDATION } from "../test/chat/questions/validation";
import { testConfig } from "../test/support/config";
import { chatSite } from "../test/support/content";

const foldsArgument = process.argv.indexOf("--folds");
const folds = foldsArgument === -1 ? 5 : Number(process.argv[foldsArgument + 1]);

/** The topic an intent's question is about, for training on it; the hand-over intents the site has no topic for are "none". */
const TOPIC_OF: Record<Intent, TopicLabel> = {
  price: "price",
  "payment-methods": "payment",
  "one-time": "one-time",
  renewal: "one-time",
  refund: "refund",
  devices: "devices",
  "device-limit": "device-limit",
  "limit-reached": "device-limit",
  sharing: "sharing",
  installation: "installation",
  delivery: "delivery",
  "not-received": "not-received",
  offline: "offline",
  ads: "ads",
  catalogue: "catalogue",
  legality: "legality",
  support: "support",
  cancel: "cancel",
  security: "security",
  "off-topic": "none",
  withdrawal: "withdrawal",
  receipt: "receipt",
  offer: "offer",
  account: "account",
  includes: "includes",
  conformity: "conformity",
  complaints: "complaints",
  law: "law",
  privacy: "privacy",
  seller: "seller",
  key: "key",
  trial: "trial",
  unanswerable: "none",
};

const sets: [string, readonly ChatQuestion[]][] = [
  ["tuning", TUNING],
  ["validation", VALIDATION],
  ["held-out", HELD_OUT],
  ["held-out-new", HELD_OUT_NEW],
  ["buyers", HELD_OUT_BUYERS],
  ["follow-ups", FOLLOW_UPS],
  ["two-questions", TWO_QUESTIONS],
  ["trial-misses", TRIAL_MISSES],
  // The blind sets once scored and read to tune (development sets since): questions buyers wrote.
  ["blind2", HELD_OUT_BLIND2],
  ["blind3", HELD_OUT_BLIND3],
  ["blind4", HELD_OUT_BLIND4],
];
const bank = sets.flatMap(([set, questions]) => questions.map((question) => ({ set, question })));
const foldOf = (i: number) => i % folds;
const paraphrases = trainingExamples();
const paraphraseTexts = new Set(paraphrases.map((p) => p.text));

const config = testConfig();
const judge = createJudge(config);
const site = chatSite(config);

console.log(`bank: ${bank.length} questions (${sets.map(([name, q]) => `${name} ${q.length}`).join(", ")}); ${folds} folds`);
const classifiers: TopicClassifier<TopicLabel>[] = [];
const start = performance.now();
for (let fold = 0; fold < folds; fold++) {
  const tested = new Set(bank.filter((_, i) => foldOf(i) === fold).map(({ question }) => question.q));
  // A one-topic question of another fold teaches its topic; a two-question message or a follow-up
  // (which only makes sense after its earlier message) teaches nothing on its own.
  // A question that is a paraphrase too is taught by its paraphrase: the bank judges the reply
  // ("does it work on PS5?" must hand over), the paraphrase names the topic (the devices).
  const fromBank: Example<TopicLabel>[] = bank
    .filter(
      ({ question }, i) =>
        foldOf(i) !== fold && question.also === undefined && question.before === undefined && !paraphraseTexts.has(question.q),
    )
    .map(({ question }) => ({ text: question.q, label: TOPIC_OF[question.intent] }));
  classifiers.push(trainTopicClassifier(TOPIC_LABELS, [...paraphrases.filter((p) => !tested.has(p.text)), ...fromBank]));
}
console.log(`trained ${folds} models in ${((performance.now() - start) / 1000).toFixed(1)} s`);

type Score = { right: number; wrongTopic: number; needless: number; missing: number; handedOver: number };

function scoreWith(thresholds: ChoiceThresholds, bySet?: Map<string, Score>): Score {
  const assistants = classifiers.map((classifier) => createOfflineAssistant(site, { classifier, thresholds }));
  const all: Score = { right: 0, wrongTopic: 0, needless: 0, missing: 0, handedOver: 0 };
  bank.forEach(({ set, question }, i) => {
    const assistant = assistants[foldOf(i)];
    if (assistant === undefined) return;
    const verdict = judge(question, assistant.answer(question.q, question.page ?? question.lang, question.before ?? []).text);
    const needsHandOver = HANDOVER_INTENTS.has(question.intent) || (question.also !== undefined && HANDOVER_INTENTS.has(question.also));
    const tallies = [all];
    if (bySet !== undefined) {
      const tally = bySet.get(set) ?? { right: 0, wrongTopic: 0, needless: 0, missing: 0, handedOver: 0 };
      bySet.set(set, tally);
      tallies.push(tally);
    }
    for (const tally of tallies) {
      if (verdict.right) tally.right += 1;
      if (verdict.handedOver) tally.handedOver += 1;
      if (!verdict.right && verdict.handedOver && !needsHandOver) tally.needless += 1;
      else if (!verdict.right && !verdict.handedOver && needsHandOver) tally.missing += 1;
      else if (verdict.otherTopic) tally.wrongTopic += 1;
    }
  });
  return all;
}

const n = bank.length;
const pc = (x: number, total = n) => `${((100 * x) / total).toFixed(1)} %`;
const line = (s: Score, total = n) =>
  `right ${pc(s.right, total)}, wrong topic ${pc(s.wrongTopic, total)}, needless hand-overs ${pc(s.needless, total)}, missing hand-overs ${pc(s.missing, total)}`;
const cost = (s: Score) => n - s.right + s.wrongTopic;

const grid: ChoiceThresholds[] = [];
for (const confidence of [0.4, 0.5, 0.55, 0.6, 0.7]) {
  for (const margin of [0.1, 0.2, 0.3]) {
    for (const nearMass of [0.6, 0.7, 0.8, 0.9, 1.01]) grid.push({ ...THRESHOLDS, confidence, margin, nearMass });
  }
}
console.log("\nconfidence / margin / nearMass (1.01: off) -> cross-validated score");
let bestThresholds = THRESHOLDS;
let bestCost = Number.POSITIVE_INFINITY;
for (const thresholds of grid) {
  const s = scoreWith(thresholds);
  const c = cost(s);
  if (c < bestCost) {
    bestCost = c;
    bestThresholds = thresholds;
  }
  console.log(`  ${thresholds.confidence} / ${thresholds.margin} / ${thresholds.nearMass}: ${line(s)}`);
}
const shippedBySet = new Map<string, Score>();
const shipped = scoreWith(THRESHOLDS, shippedBySet);
console.log(
  `\nbest by the grid: ${bestThresholds.confidence} / ${bestThresholds.margin} / ${bestThresholds.nearMass}; shipped thresholds ${THRESHOLDS.confidence} / ${THRESHOLDS.margin} / ${THRESHOLDS.nearMass}:`,
);
console.log(`  all ${n}: ${line(shipped)}`);
for (const [name, questions] of sets) {
  const s = shippedBySet.get(name);
  if (s !== undefined) console.log(`  ${name.padEnd(14)} ${String(s.right).padStart(3)}/${questions.length}: ${line(s, questions.length)}`);
}
