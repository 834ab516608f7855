// Offline assistant: share of reworded questions answered right per language, and answer time
// (issue 5, "Measured"). Run: ./node_modules/.bin/bun bench/chat-offline.ts [--verbose]
import { createOfflineAssistant } from "../server/chat/offline-assistant";
import { testConfig } from "../server/config";
import { LOCALES } from "../shared/locales";
import { REWORDED_QUESTIONS } from "../test/chat/reworded-questions";

const verbose = process.argv.includes("--verbose");
const assistant = createOfflineAssistant(testConfig().site);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

let right = 0;
let total = 0;
for (const locale of LOCALES) {
  const set = REWORDED_QUESTIONS[locale];
  // The first call builds the language's index; time it apart from the answers.
  const buildStart = performance.now();
  assistant.answer("warm-up", locale);
  const buildMs = performance.now() - buildStart;

  let ok = 0;
  let heldOutOk = 0;
  let heldOutTotal = 0;
  for (const { question, expected, heldOut } of set) {
    const got = assistant.answer(question, locale);
    const pass = expected === null ? got.id === null : got.id !== null && expected.includes(got.id);
    if (pass) ok += 1;
    if (heldOut === true) {
      heldOutTotal += 1;
      if (pass) heldOutOk += 1;
    }
    if (verbose || !pass) console.log(`${pass ? "  ok " : "  MISS"} [${locale}] ${question} -> ${got.id ?? "handover"} (${got.score.toFixed(2)}), expected ${expected?.join("|") ?? "handover"}`);
  }
  right += ok;
  total += set.length;

  const times: number[] = [];
  const rounds = 200;
  for (let r = 0; r < rounds; r++) {
    for (const { question } of set) {
      const start = performance.now();
      assistant.answer(question, locale);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  console.log(
    `${locale}: ${ok}/${set.length} right (${((100 * ok) / set.length).toFixed(0)} %; held-out ${heldOutOk}/${heldOutTotal}), answer time p50 ${(percentile(times, 50) * 1000).toFixed(0)} µs, p99 ${(percentile(times, 99) * 1000).toFixed(0)} µs over ${times.length} answers; index built in ${buildMs.toFixed(1)} ms`,
  );
}
console.log(`all: ${right}/${total} right (${((100 * right) / total).toFixed(0)} %)`);
