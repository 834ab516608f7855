// Chooses the offline assistant's settings without touching the held-out sets: scores the
// validation set (test/chat/questions/validation.ts, written for this) and the tuning questions
// answered by models trained without them (5-fold cross-validation of the paraphrases), for a grid of confidence and margin thresholds, and lists
// the validation questions answered wrong with the topics chosen (the validation set is there to
// be read; the held-out sets are not).
// Run: ./node_modules/.bin/bun bench/chat-validation.ts [--grid] [--cv]
import { createOfflineAssistant } from "../server/shop/chat/offline-assistant";
import { TOPIC_LABELS, type TopicLabel } from "../server/shop/chat/paraphrases";
import { type ChoiceThresholds, FOLLOW_UP, type FollowUpSettings, THRESHOLDS } from "../server/shop/chat/topic-choice";
import { type TopicClassifier, trainTopicClassifier } from "../server/shop/chat/topic-classifier";
import { loadTopicModel } from "../server/shop/chat/topic-model";
import { trainingExamples } from "../server/shop/chat/topic-training";
import { FOLLOW_UPS } from "../test/chat/questions/follow-ups";
import { createJudge } from "../test/chat/questions/judge";
import { TUNING } from "../test/chat/questions/tuning";
import { TWO_QUESTIONS } from "../test/chat/questions/two-questions";
import { VALIDATION } from "../test/chat/questions/validation";
import { testConfig } from "../test/support/config";
import { chatSite } from "../test/support/content";

const config = testConfig();
const judge = createJudge(config);
const grid = process.argv.includes("--grid");
const crossValidate = process.argv.includes("--cv");

function scoreValidation(classifier: TopicClassifier<TopicLabel>, thresholds: ChoiceThresholds, list: boolean) {
  const assistant = createOfflineAssistant(chatSite(config), { classifier, thresholds });
  let right = 0;
  let otherTopic = 0;
  let handedOver = 0;
  for (const question of VALIDATION) {
    const answer = assistant.answer(question.q, question.page ?? question.lang);
    const verdict = judge(question, answer.text);
    if (verdict.right) right += 1;
    if (verdict.otherTopic) otherTopic += 1;
    if (verdict.handedOver) handedOver += 1;
    if (list && !verdict.right) {
      const top = classifier
        .classify(question.q)
        .slice(0, 3)
        .map((s) => `${s.label} ${s.probability.toFixed(2)}`)
        .join(", ");
      console.log(
        `  ${verdict.otherTopic ? "OTHER" : "miss "} [${question.lang}] ${question.q} (${question.intent}${question.also ? `+${question.also}` : ""}) -> ${answer.kind} ${answer.topics.join("+")} | ${top} | ${verdict.problems.join(", ")}`,
      );
    }
  }
  const n = VALIDATION.length;
  return { right: (100 * right) / n, otherTopic: (100 * otherTopic) / n, handedOver: (100 * handedOver) / n };
}

const shipped = loadTopicModel().classifier;
const base = scoreValidation(shipped, THRESHOLDS, true);
console.log(
  `validation (${VALIDATION.length}), shipped model: right ${base.right.toFixed(1)} %, another topic ${base.otherTopic.toFixed(1)} %, handed over ${base.handedOver.toFixed(1)} %`,
);

/** The follow-up conversations (follow-ups.ts), each last message read after its earlier ones. */
function scoreFollowUps(classifier: TopicClassifier<TopicLabel>, thresholds: ChoiceThresholds, followUp: FollowUpSettings, list: boolean) {
  const assistant = createOfflineAssistant(chatSite(config), { classifier, thresholds, followUp });
  let right = 0;
  let otherTopic = 0;
  let handedOver = 0;
  for (const question of FOLLOW_UPS) {
    const answer = assistant.answer(question.q, question.page ?? question.lang, question.before ?? []);
    const verdict = judge(question, answer.text);
    if (verdict.right) right += 1;
    if (verdict.otherTopic) otherTopic += 1;
    if (verdict.handedOver) handedOver += 1;
    if (list && !verdict.right) {
      console.log(
        `  ${verdict.otherTopic ? "OTHER" : "miss "} [${question.lang}] ${question.before?.join(" / ")} // ${question.q} (${question.intent}) -> ${answer.kind} ${answer.topics.join("+")} | ${verdict.problems.join(", ")}`,
      );
    }
  }
  return { right, otherTopic, handedOver, total: FOLLOW_UPS.length };
}

{
  const f = scoreFollowUps(shipped, THRESHOLDS, FOLLOW_UP, true);
  console.log(`follow-ups (${f.total}), shipped model: right ${f.right}, another topic ${f.otherTopic}, handed over ${f.handedOver}`);
  const alone = scoreFollowUps(shipped, THRESHOLDS, { ...FOLLOW_UP, together: 0, nearBonus: 0 }, false);
  console.log(`  each message read alone: right ${alone.right}, another topic ${alone.otherTopic}, handed over ${alone.handedOver}`);
  if (process.argv.includes("--follow-up-grid")) {
    for (const shortWords of [3, 4]) {
      for (const together of [0.4, 0.5, 0.6]) {
        for (const nearBonus of [1, 2, 3]) {
          for (const repeat of [0, 0.3, 0.5, 0.7]) {
            for (const confidence of [0.35, 0.45, 0.6]) {
              for (const keepOwn of [0.8, 0.9, 0.95, 1.01]) {
                const settings = { shortWords, leanWords: FOLLOW_UP.leanWords, together, nearBonus, repeat, confidence, keepOwn };
                const g = scoreFollowUps(shipped, THRESHOLDS, settings, false);
                console.log(`  ${JSON.stringify(settings)}: right ${g.right}, other ${g.otherTopic}, handed over ${g.handedOver}`);
              }
            }
          }
        }
      }
    }
  }
}

{
  // Two questions in one message (two-questions.ts): both facts in one reply, or the part the site
  // cannot answer handed over.
  const assistant = createOfflineAssistant(chatSite(config), { classifier: shipped });
  let right = 0;
  for (const question of TWO_QUESTIONS) {
    const answer = assistant.answer(question.q, question.page ?? question.lang);
    const verdict = judge(question, answer.text);
    if (verdict.right) right += 1;
    else
      console.log(
        `  miss  [${question.lang}] ${question.q} (${question.intent}+${question.also}) -> ${answer.kind} ${answer.topics.join("+")} | ${verdict.problems.join(", ")}`,
      );
  }
  console.log(`two questions in one message (${TWO_QUESTIONS.length}), shipped model: right ${right}`);
}

const CONFIDENCES = [0.4, 0.5, 0.6, 0.7];
const MARGINS = [0.1, 0.2, 0.3, 0.4];
const gridOf = () => CONFIDENCES.flatMap((confidence) => MARGINS.map((margin) => ({ ...THRESHOLDS, confidence, margin })));

if (grid) {
  console.log("\nvalidation, shipped model: confidence / margin -> right %, another topic %");
  for (const thresholds of gridOf()) {
    const s = scoreValidation(shipped, thresholds, false);
    console.log(`  ${thresholds.confidence} / ${thresholds.margin}: ${s.right.toFixed(1)} %, ${s.otherTopic.toFixed(1)} %`);
  }
}

if (crossValidate) {
  // The tuning questions are among the paraphrases: each is answered by a model trained without the
  // fifth of the paraphrases it falls in, and judged like the held-out sets (the judge's verdict,
  // not the label), so a confusion between two topics whose answers carry the same fact costs
  // nothing and a hand-over is told from another topic's answer.
  const examples = trainingExamples();
  const folds = 5;
  const classifiers: TopicClassifier<TopicLabel>[] = [];
  for (let fold = 0; fold < folds; fold++) {
    classifiers.push(
      trainTopicClassifier(
        TOPIC_LABELS,
        examples.filter((_, i) => i % folds !== fold),
      ),
    );
  }
  const foldOf = new Map(examples.map((example, i) => [example.text, i % folds]));
  console.log("\ncross-validated tuning questions: confidence / margin -> right %, another topic %, handed over %");
  for (const thresholds of gridOf()) {
    const assistants = classifiers.map((classifier) => createOfflineAssistant(chatSite(config), { classifier, thresholds }));
    let right = 0;
    let other = 0;
    let handed = 0;
    for (const question of TUNING) {
      const assistant = assistants[foldOf.get(question.q) ?? 0];
      if (assistant === undefined) continue;
      const answer = assistant.answer(question.q, question.page ?? question.lang);
      const verdict = judge(question, answer.text);
      if (!verdict.right && thresholds.confidence === THRESHOLDS.confidence && thresholds.margin === THRESHOLDS.margin) {
        console.log(
          `    ${verdict.otherTopic ? "OTHER" : "miss "} [${question.lang}] ${question.q} (${question.intent}) -> ${answer.topics.join("+")}: ${verdict.problems.join(", ")}`,
        );
      }
      if (verdict.right) right += 1;
      if (verdict.otherTopic) other += 1;
      if (verdict.handedOver) handed += 1;
    }
    const p = (x: number) => ((100 * x) / TUNING.length).toFixed(1);
    console.log(`  ${thresholds.confidence} / ${thresholds.margin}: ${p(right)} %, ${p(other)} %, ${p(handed)} %`);
  }
}
