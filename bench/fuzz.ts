// Hostile requests against a running server: random methods, paths, headers and bodies
// (bad or missing Host, HTTP/1.0, huge bodies, bad JSON, wrong content types, cross-site origins,
// junk in paths and queries). Prints how many were sent and the status histogram; exits 1 on any
// 5xx other than a deliberate 503 (one with Retry-After), on a request that got no answer, and on
// an error line in the server's log. A method Bun's HTTP parser does not know (FOO) gets its
// connection closed without an answer, before the app sees it (Bun.serve does this for any app): it
// is counted apart, not as a failure.
// Run: ./node_modules/.bin/bun run bench/fuzz.ts [--count 3000] [--seed 11] [--port 4403] [--locked]
//   --locked: the database's write lock is held by another process the whole time (writes wait
//   DB_BUSY_WAIT_MS=500, then answer 503 with Retry-After).
//   Starts the server from source on a fresh data folder (test checkout, offline chat) unless
//   --url points at one already running (its log is then not read).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { errorText } from "../shared/error-text";
import { rawRequest } from "../test/server/raw-http";
import { holdDbLock } from "../test/support/db-lock";

const { values: args } = parseArgs({
  options: {
    locked: { type: "boolean", default: false },
    count: { type: "string", default: "3000" },
    seed: { type: "string", default: "11" },
    port: { type: "string", default: "4403" },
    url: { type: "string" },
    concurrency: { type: "string", default: "16" },
  },
});
const COUNT = Number(args.count);

// A small seeded generator (mulberry32): the same seed sends the same requests.
let state = Number(args.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;

const METHODS = ["GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];
const PATHS = [
  "/",
  "/en",
  "/it/",
  "/es",
  "/fr",
  "/fr/paiement",
  "/paiement",
  "/en/paiement",
  "/payment-success",
  "/en/payment-success?session_id=cs_test_nope",
  "/payment-success?session_id=%00%ff",
  "/payment-canceled",
  "/guide",
  "/cgv",
  "/mentions-legales",
  "/confidentialite",
  "/healthz",
  "/xxxx/healthz",
  "/api/leads",
  "/zz/api/leads",
  "/api/payment",
  "/api/chat",
  "/api/stripe/webhook",
  "/api/social-proof",
  "/api/licenses/verify",
  "/api/licenses/activate",
  "/api/licenses/deactivate",
  "/api/access/resend",
  "/unsubscribe",
  "/unsubscribe?token=0123456789abcdef0123456789abcdef",
  "/unsubscribe?token=../../etc/passwd",
  "/checkout/test/cs_test_abc",
  "/checkout/test/%2e%2e%2f",
  "/assets/../server/main.ts",
  "/demo-video.mp4",
  "/favicon.ico",
  "/robots.txt",
  "/.env",
  "/wp-login.php",
  "/%ff%fe",
  "/a/b/c/d/e/f/g",
  "//double//slash",
  "/api/",
  "/api/nope",
];
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=utf-16",
  "",
  "*/*",
  "application/x-www-form-urlencoded; charset=latin1",
];
const HOSTS = ["127.0.0.1", "a", "a b", "", "a:99999", "@evil", "x".repeat(300), "localhost:1", "[::1]", "exemple.com"];

function body(): string | Uint8Array<ArrayBuffer> {
  switch (Math.floor(random() * 12)) {
    case 0:
      return "";
    case 1:
      return JSON.stringify({
        email: `fuzz${Math.floor(random() * 1e6)}@example.com`,
        source: "exit_popup",
        ip_hash: null,
        locale: pick(["fr", "en", "xx"]),
      });
    case 2:
      return "{ not json";
    case 3:
      return JSON.stringify(null);
    case 4:
      return "[".repeat(5000) + "]".repeat(5000);
    case 5:
      return "x".repeat(pick([5_000, 70_000, 600_000, 2_000_000]));
    case 6:
      return "email=a%40b.c&source=exit_popup&locale=fr&locale=en&%ff=%00";
    case 7:
      return JSON.stringify({
        messages: [{ role: pick(["user", "assistant", "system"]), content: "x".repeat(pick([1, 999, 5000])) }],
        locale: "fr",
      });
    case 8:
      return JSON.stringify({ key: "ABCDE-FGHIJ-KLMNO-PQRST-UVWXY", instanceName: "\u0000\u202e" });
    case 9:
      return JSON.stringify({ id: 42, type: "checkout.session.completed", data: { object: null } });
    case 10:
      return Uint8Array.from({ length: 512 }, () => Math.floor(random() * 256));
    default:
      return JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: {} } });
  }
}

/** `closedByParser`: an unknown method (FOO), which Bun's HTTP parser answers by closing the connection before the app sees it. */
type Outcome = { status: number | null; retryAfter: boolean; request: string; closedByParser?: boolean };

async function viaFetch(base: string): Promise<Outcome> {
  const method = pick(METHODS);
  const path = chance(0.05)
    ? `/${"a".repeat(16_000)}`
    : pick(PATHS) + (chance(0.2) ? `?q=${encodeURIComponent("'\"<script>")}&lead=${pick(["sent", "x"])}` : "");
  const headers: Record<string, string> = {};
  const type = pick(CONTENT_TYPES);
  if (type !== "") headers["content-type"] = type;
  if (chance(0.2)) headers.origin = pick(["https://evil.example", "null", base]);
  if (chance(0.15)) headers["sec-fetch-site"] = pick(["cross-site", "same-site", "none", "same-origin", "bogus"]);
  if (chance(0.15)) headers["accept-encoding"] = pick(["br", "gzip;q=0", "*", "identity;q=0, *;q=0", "x".repeat(2000)]);
  if (chance(0.1)) headers["x-forwarded-for"] = pick(["1.2.3.4", "junk", "::ffff:10.0.0.1, 8.8.8.8"]);
  if (chance(0.1)) headers["stripe-signature"] = pick(["t=1,v1=abc", "", `t=99999999999,v1=${"0".repeat(64)}`]);
  if (chance(0.1)) headers.accept = "text/event-stream";
  const withBody = method !== "GET" && method !== "HEAD";
  const payload = withBody ? body() : undefined;
  const request = `${method} ${path.slice(0, 80)} ${JSON.stringify(headers).slice(0, 160)} body ${payload?.length ?? 0} B`;
  try {
    const response = await fetch(`${base}${path}`, { method, headers, body: payload, redirect: "manual" });
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.has("retry-after"), request };
  } catch (error) {
    return { status: null, retryAfter: false, request: `${request}: ${errorText(error)}` };
  }
}

async function viaRawTcp(base: string): Promise<Outcome> {
  // fetch() refuses a body on these, or the method itself: raw TCP sends what it is given.
  const method = pick(["GET", "POST", "HEAD", "TRACE", "FOO", "GET"]);
  const path = pick(PATHS);
  const host = pick(HOSTS);
  const version = pick(["1.1", "1.1", "1.0"]);
  const payload =
    method === "POST" || method === "FOO" ? pick(['{"email":"raw@example.com","source":"exit_popup"}', "{bad", "x".repeat(100_000)]) : "";
  const lines = [`${method} ${path} HTTP/${version}`];
  if (!(version === "1.0" && chance(0.5))) lines.push(`Host: ${host}`);
  if (payload !== "") lines.push(`Content-Type: ${pick(CONTENT_TYPES) || "application/json"}`, `Content-Length: ${payload.length}`);
  lines.push("Connection: close", "", "");
  const request = `raw ${method} ${path} HTTP/${version} Host=${JSON.stringify(host.slice(0, 40))} body ${payload.length} B`;
  const answer = await rawRequest(base, lines.join("\r\n") + payload, 15_000);
  return {
    status: answer.status,
    retryAfter: "retry-after" in answer.headers,
    request: answer.status === null ? `${request}: ${answer.socketError ?? "no answer"}` : request,
    closedByParser: answer.status === null && method === "FOO",
  };
}

const output: string[] = [];
let stop = async () => {};
let base = args.url;
let dataDir: string | null = null;
if (base === undefined) {
  dataDir = mkdtempSync(join(tmpdir(), "bench-fuzz-"));
  const server = Bun.spawn([process.execPath, "run", "server/main.ts"], {
    cwd: join(import.meta.dir, ".."),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: args.port,
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DB_BUSY_WAIT_MS: args.locked ? "500" : "5000",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  for (const stream of [server.stdout, server.stderr]) {
    void (async () => {
      // Whole lines only: a read may end in the middle of one.
      const reader = stream.getReader();
      const decoder = new TextDecoder();
      let rest = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const lines = (rest + decoder.decode(value, { stream: true })).split("\n");
        rest = lines.pop() ?? "";
        output.push(...lines.filter(Boolean));
      }
    })();
  }
  base = `http://127.0.0.1:${args.port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (server.exitCode !== null || i > 300) throw new Error(`server did not start:\n${output.join("\n")}`);
    await Bun.sleep(100);
  }
  const lock = args.locked ? await holdDbLock(join(dataDir, "site.db")) : null;
  stop = async () => {
    await lock?.release();
    server.kill();
    await server.exited;
  };
}

const outcomes: Outcome[] = [];
const started = performance.now();
try {
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(args.concurrency) }, async () => {
      while (next < COUNT) {
        next++;
        outcomes.push(await (chance(0.25) ? viaRawTcp(base!) : viaFetch(base!)));
      }
    }),
  );
} finally {
  await stop();
  if (dataDir !== null) rmSync(dataDir, { recursive: true, force: true });
}
const seconds = (performance.now() - started) / 1000;

const histogram = new Map<string, number>();
const label = (o: Outcome) => (o.status !== null ? String(o.status) : o.closedByParser ? "closed (unknown method)" : "no answer");
for (const o of outcomes) histogram.set(label(o), (histogram.get(label(o)) ?? 0) + 1);
console.log(
  `${outcomes.length} requests in ${seconds.toFixed(1)} s (seed ${args.seed}) against ${args.url ?? "a fresh server from source"}${args.locked ? ", its database write-locked by another process throughout" : ""}`,
);
console.log(
  `status histogram: ${[...histogram]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ")}`,
);

const bad = outcomes.filter(
  (o) => (o.status === null && !o.closedByParser) || (o.status !== null && o.status >= 500 && !(o.status === 503 && o.retryAfter)),
);
const deliberate = outcomes.filter((o) => o.status === 503 && o.retryAfter).length;
const errorLines = output.filter((line) => line.includes('"level":"error"'));
console.log(
  `deliberate 503 (with Retry-After): ${deliberate}; other 5xx or no answer: ${bad.length}; error lines in the server's log: ${args.url === undefined ? errorLines.length : "not read"}`,
);
if (bad.length > 0 || errorLines.length > 0) {
  for (const o of bad.slice(0, 20)) console.error(`FAIL ${o.status ?? "no answer"}: ${o.request}`);
  for (const line of errorLines.slice(0, 10)) console.error(`LOG ${line.slice(0, 400)}`);
  console.error("FUZZ FAILED");
  process.exit(1);
}
