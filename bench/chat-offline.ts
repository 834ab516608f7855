// Offline assistant: share of questions answered right, judged by the fact each answer must carry
// (test/chat/questions/judge.ts), on the tuning set, on the first held-out set and on the new one
// written after the topic classifier was trained; per language and per intent; hand-overs and
// "another topic's answer"; "yes" answers to "no" questions; training and answer time.
// Then the buyers' set (test/chat/questions/held-out-buyers.ts), asked through the real chat
// endpoint as the chat window asks it, follow-ups after their earlier messages.
// Run: ./node_modules/.bin/bun bench/chat-offline.ts [--verbose] [--set buyers|blind [--list-misses]]
// --verbose lists the tuning questions answered wrong. Held-out misses are never listed one by one:
// reading them would be tuning on them. --set buyers runs the buyers' set alone; --list-misses
// prints its misses with the replies, for the report of whoever wrote the set (before and after a
// change), never as material to tune on. --set blind runs the blind set (held-out-blind.ts) alone,
// the same way; it is not part of the full run.
import { loadavg } from "node:os";
import { createOfflineAssistant } from "../server/shop/chat/offline-assistant";
import { LOCALES, type Locale } from "../shared/locales";
import { HELD_OUT } from "../test/chat/questions/held-out";
import { HELD_OUT_NEW } from "../test/chat/questions/held-out-new";
import { type ChatQuestion, createJudge, INTENTS, type Intent } from "../test/chat/questions/judge";
import { TUNING } from "../test/chat/questions/tuning";
import { testConfig } from "../test/support/config";
import { chatSite } from "../test/support/content";
import { scoreBuyers } from "./chat-buyers";

const verbose = process.argv.includes("--verbose");
const setArgument = process.argv.indexOf("--set");
const onlySet = setArgument === -1 ? null : (process.argv[setArgument + 1] ?? "");
if (onlySet !== null && onlySet !== "buyers" && onlySet !== "blind") {
  console.error(`Unknown set "${onlySet}": the sets run alone are "buyers" and "blind".`);
  process.exit(2);
}
if (onlySet === "buyers" || onlySet === "blind") {
  await scoreBuyers({ listMisses: process.argv.includes("--list-misses"), set: onlySet });
  process.exit(0);
}
const config = testConfig();
const judge = createJudge(config);

type Tally = { right: number; total: number };
const share = ({ right, total }: Tally) => `${right}/${total} (${total === 0 ? "-" : ((100 * right) / total).toFixed(0)} %)`;
const percent = (part: number, total: number) => (total === 0 ? 0 : (100 * part) / total);

type Score = { right: number; total: number; otherTopic: number; handedOver: number; yesToNo: number };

function score(name: string, set: readonly ChatQuestion[], answerOf: (q: ChatQuestion) => string, listMisses: boolean): Score {
  const byLocale = new Map<Locale, Tally>(LOCALES.map((l) => [l, { right: 0, total: 0 }]));
  const byIntent = new Map<Intent, Tally>(INTENTS.map((i) => [i, { right: 0, total: 0 }]));
  const otherPage: Tally = { right: 0, total: 0 };
  const all: Tally = { right: 0, total: 0 };
  let yesToNo = 0;
  let otherTopic = 0;
  let handedOver = 0;
  for (const question of set) {
    const answer = answerOf(question);
    const verdict = judge(question, answer);
    const tallies = [byLocale.get(question.lang), byIntent.get(question.intent), all];
    if (question.page !== undefined && question.page !== question.lang) tallies.push(otherPage);
    for (const tally of tallies) {
      if (tally === undefined) continue;
      tally.total += 1;
      if (verdict.right) tally.right += 1;
    }
    if (verdict.yesToNo) yesToNo += 1;
    if (verdict.otherTopic) otherTopic += 1;
    if (verdict.handedOver) handedOver += 1;
    if (listMisses && !verdict.right) {
      console.log(
        `  MISS [${question.lang}${question.page ? ` on ${question.page} page` : ""}] ${question.q} (${question.intent}): ${verdict.problems.join(", ")}\n       -> ${answer}`,
      );
    }
  }
  console.log(`\n${name}: ${share(all)} right, "yes" to a "no" question: ${yesToNo}`);
  console.log(
    `  another topic's answer: ${otherTopic} (${percent(otherTopic, all.total).toFixed(1)} %); handed over: ${handedOver} (${percent(handedOver, all.total).toFixed(1)} %)`,
  );
  console.log(`  per language: ${LOCALES.map((l) => `${l} ${share(byLocale.get(l) ?? { right: 0, total: 0 })}`).join(", ")}`);
  console.log(`  asked on a page of another language: ${share(otherPage)}`);
  console.log("  per intent:");
  for (const intent of INTENTS) {
    const tally = byIntent.get(intent);
    if (tally !== undefined && tally.total > 0) console.log(`    ${intent.padEnd(16)} ${share(tally)}`);
  }
  return { right: all.right, total: all.total, otherTopic, handedOver, yesToNo };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const assistant = createOfflineAssistant(chatSite(config));
// The first answer reads the topic model file and builds the site's answers and the language guesser.
const buildStart = performance.now();
assistant.answer("warm-up", "fr");
const buildMs = performance.now() - buildStart;
const answerOf = (q: ChatQuestion) => assistant.answer(q.q, q.page ?? q.lang).text;
score("tuning set", TUNING, answerOf, verbose);
score("held-out set (written before tuning the word lists)", HELD_OUT, answerOf, false);
const fresh = score("new held-out set (written after the classifier was trained)", HELD_OUT_NEW, answerOf, false);

const questions = [...TUNING, ...HELD_OUT, ...HELD_OUT_NEW];
const times: number[] = [];
// Also the processor time each answer used: on a machine others load, the wall time includes the
// time this process waited for a core, which the answer itself does not cost.
const cpuTimes: number[] = [];
for (let round = 0; round < 50; round++) {
  for (const q of questions) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    answerOf(q);
    times.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const p99 = percentile(times, 99);
const micro = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
console.log(
  `\nfirst answer (reads the model, builds the answers) ${buildMs.toFixed(1)} ms; answer time p50 ${micro(percentile(times, 50))}, p99 ${micro(p99)} over ${times.length} answers (processor time p50 ${micro(percentile(cpuTimes, 50))}, p99 ${micro(percentile(cpuTimes, 99))}); load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);

const buyers = await scoreBuyers({ listMisses: false });

const targets: [string, boolean][] = [
  [`new held-out set right >= 90 %: ${percent(fresh.right, fresh.total).toFixed(1)} %`, percent(fresh.right, fresh.total) >= 90],
  [
    `new held-out set another topic's answer <= 2 %: ${percent(fresh.otherTopic, fresh.total).toFixed(1)} %`,
    percent(fresh.otherTopic, fresh.total) <= 2,
  ],
  [`no "yes" to a "no" question: ${fresh.yesToNo}`, fresh.yesToNo === 0],
  [`answer time p99 < 5 ms: ${p99.toFixed(2)} ms`, p99 < 5],
  ...buyers.targets,
];
console.log("\ntargets:");
for (const [line, met] of targets) console.log(`  ${met ? "met   " : "MISSED"} ${line}`);
