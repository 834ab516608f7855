// The payment page's weight with the discount-code field (HTML, and the JavaScript it loads before
// `load`), and the time to apply a code (POST /api/payment with a code: check, reserve, start the
// checkout), p50/p99 over 300 sequential buyers, in process with the test checkout:
//   ./node_modules/.bin/bun run bench/selling.ts
// Figures taken on a loaded machine are unreliable: report them with `uptime`'s load average.
import { gzipSync } from "node:zlib";
import { runCommand } from "../server/owner/cli";
import { createTestSite } from "../test/support/app";

const RUNS = 300;
// One address per buyer (behind the trusted proxy): the payment endpoint limits each client.
const site = await createTestSite({ env: { LOG_LEVEL: "silent", TRUST_PROXY: "true" } });
try {
  // The JavaScript a page's HTML asks for before `load` (its module scripts; chunks come later).
  const scriptsOf = async (html: string) => {
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1] ?? "");
    let js = 0;
    let jsGzip = 0;
    for (const src of scripts) {
      const body = new Uint8Array(await (await site.request(src)).arrayBuffer());
      js += body.length;
      jsGzip += gzipSync(body).length;
    }
    return `${scripts.length} file(s), ${js} B (${jsGzip} B gzip)`;
  };
  const html = await (await site.request("/paiement")).text();
  const size = (text: string) => `${Buffer.byteLength(text)} B (${gzipSync(text).length} B gzip)`;
  console.log(`payment page HTML: ${size(html)}; code field present: ${html.includes('name="code"')}`);
  console.log(`JavaScript before load, /paiement: ${await scriptsOf(html)}`);
  console.log(`JavaScript before load, /: ${await scriptsOf(await (await site.request("/")).text())}`);

  await runCommand(["codes", "create", "BENCH", "--percent", "20"], site.config, () => {}, console.error);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const answer = await site.request("/api/payment", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `10.${(i >> 8) & 255}.${i & 255}.1` },
      body: JSON.stringify({ locale: "fr", acceptTerms: true, code: "bench" }),
    });
    if (answer.status !== 200) throw new Error(`status ${answer.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2);
  console.log(`apply a code (${RUNS} buyers): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
} finally {
  await site.close();
}
