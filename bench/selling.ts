// The payment page's weight with the discount-code field (HTML, and the JavaScript it loads before
// `load`), the time to pay with a code (POST /api/payment with a code: check, reserve, start the
// checkout) and to apply one before paying (the preview endpoint, and the page with ?code=), p50/p99
// over 300 sequential buyers each, in process with the test checkout:
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
  console.log(`pay with a code (${RUNS} buyers): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);

  // Applying a code before paying: the Apply button's preview (JSON), and the page with ?code=
  // rendered for the request (the way without JavaScript). One address per call: both are limited.
  const timed = async (label: string, call: (i: number) => Promise<Response>) => {
    const spent: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const answer = await call(i);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`${label}: status ${answer.status}`);
      spent.push(performance.now() - started);
    }
    spent.sort((a, b) => a - b);
    const q = (p: number) => (spent[Math.min(spent.length - 1, Math.floor(p * spent.length))] ?? 0).toFixed(2);
    console.log(`${label} (${RUNS} buyers): p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`);
  };
  await timed("apply a code, with JavaScript (POST /api/payment/code)", (i) =>
    site.request("/api/payment/code", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `11.${(i >> 8) & 255}.${i & 255}.1` },
      body: JSON.stringify({ locale: "fr", code: "bench" }),
    }),
  );
  await timed("apply a code, without JavaScript (GET /paiement?code=)", (i) =>
    site.request("/paiement?code=BENCH", {
      headers: { "accept-encoding": "br, gzip", "x-forwarded-for": `12.${(i >> 8) & 255}.${i & 255}.1` },
    }),
  );
} finally {
  await site.close();
}
