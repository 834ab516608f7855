// Licences (server/shop/licenses/): (1) issuing a licence token and verifying it offline as the app
// does (jose, the JWKS only), p50/p99 over many rounds; (2) activations per second at 50 concurrent
// clients against the real server (each request a new device, from its own client address through
// TRUST_PROXY, so none is rate-limited); (3) whether time tells anything: the access-recovery form's
// answer time for a buyer's address and for an unknown one, and the licence API's for a known and
// an unknown key, 50 tries each, alternated, with the medians and their difference.
// Nothing leaves 127.0.0.1 (the X-Forwarded-For addresses are documentation addresses, only headers).
// Run: ./node_modules/.bin/bun run bench/licenses.ts [seconds]
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createLocalJWKSet, jwtVerify } from "jose";
import { openSigningKeys } from "../server/shop/licenses/signing-keys";
import { issueLicenseToken } from "../server/shop/licenses/tokens";
import { PRODUCTION_READY_ENV } from "../test/support/production-env";
import { fmt, runLoad, startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
const seconds = Number(process.argv[2] ?? 5);
const CLIENTS = 50;
const TRIES = 50;
// On the same disk as the site's data (not a tmpfs), or fsync would cost nothing.
const benchRoot = join(root, "data");
mkdirSync(benchRoot, { recursive: true });

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const sortedOf = (list: number[]) => [...list].sort((a, b) => a - b);
const ms = (n: number) => `${n.toFixed(3)} ms`;
/** A client address of its own per request: IPv6 documentation prefix, one /64 each. */
const clientAddress = (n: number) => `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`;

console.log(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);

// (1) Tokens, in this process.
{
  const dir = mkdtempSync(join(benchRoot, "bench-license-keys-"));
  try {
    const keys = openSigningKeys({ dataDir: dir, issuer: "https://stream-shop.fr", keepRetiredMs: 31 * 86_400_000, now: () => new Date() });
    const jwks = createLocalJWKSet(await keys.jwks());
    const license = { instanceId: "ins_0123456789abcdef01234567", status: "active" as const, activationLimit: 5 };
    const issue: number[] = [];
    const verify: number[] = [];
    const tokens: string[] = [];
    for (let i = 0; i < 200; i++) tokens.push((await issueLicenseToken(keys, license, new Date(), 14)).token); // warm-up
    for (let i = 0; i < 5000; i++) {
      const t0 = performance.now();
      const { token } = await issueLicenseToken(keys, license, new Date(), 14);
      issue.push(performance.now() - t0);
      tokens[i % tokens.length] = token;
    }
    for (let i = 0; i < 5000; i++) {
      const token = tokens[i % tokens.length] ?? "";
      const t0 = performance.now();
      await jwtVerify(token, jwks, { issuer: "https://stream-shop.fr", audience: "license", algorithms: ["EdDSA"] });
      verify.push(performance.now() - t0);
    }
    const i = sortedOf(issue);
    const v = sortedOf(verify);
    console.log(`token issue (sign, Ed25519):        p50 ${ms(quantile(i, 0.5))}, p99 ${ms(quantile(i, 0.99))} (${issue.length})`);
    console.log(`token verification offline (JWKS): p50 ${ms(quantile(v, 0.5))}, p99 ${ms(quantile(v, 0.99))} (${verify.length})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// (2) and (3): the real server.
const dataDir = mkdtempSync(join(benchRoot, "bench-licenses-"));
const server = await startBenchServer(
  [process.execPath, "run", join(root, "server/main.ts")],
  {
    ...PRODUCTION_READY_ENV,
    PORT: String(4500 + Math.floor(Math.random() * 100)),
    DATA_DIR: dataDir,
    ALLOW_TEST_CHECKOUT: "true",
    TRUST_PROXY: "true",
    LICENSE_ACTIVATION_LIMIT: "1000",
  },
  root,
);
const base = server.base;
let requests = 0;
const post = (path: string, body: string, type = "application/json") =>
  fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": type, "x-forwarded-for": clientAddress(requests++) },
    body,
  });

try {
  // 50 buyers through the test checkout, as a visitor without JavaScript would pay.
  const buyers: string[] = [];
  for (let n = 0; n < CLIENTS; n++) {
    const email = `buyer-${n}@stream-shop.fr`;
    const start = await post("/api/payment", "locale=en&acceptTerms=yes", "application/x-www-form-urlencoded");
    const card = start.headers.get("location");
    if (card === null) throw new Error(`no checkout: ${start.status}`);
    const form = new URLSearchParams({ email, name: "Sam", city: "Leeds", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
    const paid = await post(card, form.toString(), "application/x-www-form-urlencoded");
    if (paid.status !== 303) throw new Error(`payment refused: ${paid.status}`);
    buyers.push(email);
  }
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  const keys = db
    .query<{ key: string }, []>("SELECT key FROM licenses ORDER BY id")
    .all()
    .map((r) => r.key);
  if (keys.length !== CLIENTS) throw new Error(`expected ${CLIENTS} licences, found ${keys.length}`);
  // Let the access e-mails of the purchases go out before measuring.
  await Bun.sleep(3000);

  // (2) Activations: each client its own key, each request a new device.
  let device = 0;
  const activate = (client: number) =>
    post(
      "/api/licenses/activate",
      JSON.stringify({ key: keys[client % keys.length], instanceName: `Bench ${device}`, deviceId: `bench-device-${device++}` }),
    );
  await runLoad({ concurrency: 10, seconds: 1, request: activate, ok: (r) => r.status === 201 }); // warm-up
  const load = await runLoad({ concurrency: CLIENTS, seconds, request: activate, ok: (r) => r.status === 201 });
  const stored = db.query<{ n: number }, []>("SELECT count(*) AS n FROM license_activations").get()?.n ?? 0;
  console.log(`activations, ${CLIENTS} clients, ${seconds} s: ${fmt(load).replace("req/s", "activations/s")}; ${stored} stored in all`);

  // (3) Answer times, alternated so that both sides see the same machine.
  const timed = async (send: () => Promise<Response>, expected: number) => {
    const t0 = performance.now();
    const response = await send();
    await response.arrayBuffer();
    const took = performance.now() - t0;
    if (response.status !== expected) throw new Error(`expected ${expected}, got ${response.status}`);
    return took;
  };
  const compare = async (
    label: string,
    known: (i: number) => Promise<Response>,
    unknown: (i: number) => Promise<Response>,
    codes: [number, number],
  ) => {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 3; i++) {
      await timed(() => known(i), codes[0]);
      await timed(() => unknown(i), codes[1]);
    }
    for (let i = 0; i < TRIES; i++) {
      a.push(await timed(() => known(i), codes[0]));
      b.push(await timed(() => unknown(i), codes[1]));
    }
    const ma = quantile(sortedOf(a), 0.5);
    const mb = quantile(sortedOf(b), 0.5);
    console.log(`${label.padEnd(34)} median ${ms(ma)} vs ${ms(mb)}: difference ${ms(Math.abs(ma - mb))} (${TRIES} tries each)`);
  };
  await compare(
    "access form: buyer vs unknown",
    (i) => post("/api/access/resend", JSON.stringify({ email: buyers[i % buyers.length], locale: "en" })),
    (i) => post("/api/access/resend", JSON.stringify({ email: `nobody-${i}@stream-shop.fr`, locale: "en" })),
    [202, 202],
  );
  await compare(
    "access form, no JS: buyer vs unknown",
    (i) =>
      post(
        "/api/access/resend",
        `email=${encodeURIComponent(buyers[(i + 7) % buyers.length] ?? "")}&locale=fr`,
        "application/x-www-form-urlencoded",
      ),
    (i) => post("/api/access/resend", `email=personne-${i}%40stream-shop.fr&locale=fr`, "application/x-www-form-urlencoded"),
    [303, 303],
  );
  await compare(
    "verify: known vs unknown key",
    (i) => post("/api/licenses/verify", JSON.stringify({ key: keys[i % keys.length] })),
    () => post("/api/licenses/verify", JSON.stringify({ key: "22222-22222-22222-22222-22222" })),
    [200, 404],
  );
  // The lead form also looks up an address (a repeat request within 24 hours sends nothing).
  if (
    (await post("/api/leads", JSON.stringify({ email: "lead-again@stream-shop.fr", source: "exit_popup", ip_hash: null }))).status !== 201
  )
    throw new Error("lead refused");
  await compare(
    "lead form: repeat vs new address",
    () => post("/api/leads", JSON.stringify({ email: "lead-again@stream-shop.fr", source: "exit_popup", ip_hash: null })),
    (i) => post("/api/leads", JSON.stringify({ email: `lead-${i}-${Date.now()}@stream-shop.fr`, source: "exit_popup", ip_hash: null })),
    [201, 201],
  );
  // The same device of a buyer again (its slot kept, a token signed), against a key never issued.
  const again = JSON.stringify({ key: keys[0], instanceName: "Again", deviceId: "bench-device-again" });
  if ((await post("/api/licenses/activate", again)).status !== 201) throw new Error("first activation refused");
  await compare(
    "activate: known vs unknown key",
    () => post("/api/licenses/activate", again),
    () => post("/api/licenses/activate", JSON.stringify({ key: "22222-22222-22222-22222-22222", instanceName: "X" })),
    [200, 404],
  );
  db.close();
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `load average after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
