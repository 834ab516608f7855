// POST /api/chat answer time through the whole app (validation, rate limits, offline assistant,
// two SQLite writes with synchronous=FULL), JSON and server-sent events. Run:
// ./node_modules/.bin/bun bench/chat-endpoint.ts

import { TUNING } from "../test/chat/questions/tuning";
import { createTestSite } from "../test/support/app";

const site = await createTestSite({ env: { TRUST_PROXY: "true" } });
const questions = TUNING.filter((q) => q.lang === "fr").map((q) => q.q);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

for (const accept of ["application/json", "text/event-stream"]) {
  const times: number[] = [];
  for (let i = 0; i < 400; i++) {
    const start = performance.now();
    const response = await site.request("/api/chat", {
      method: "POST",
      // A new address each time: this measures answers, not the rate limiter's refusals.
      headers: { "content-type": "application/json", accept, "x-forwarded-for": `10.0.${i >> 8}.${i & 255}` },
      body: JSON.stringify({ messages: [{ role: "user", content: questions[i % questions.length] }] }),
    });
    await response.text();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${accept}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms over ${times.length} requests`,
  );
}
site.close();
