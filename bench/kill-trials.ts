// Kill trials: writes acknowledged by the server are never lost when it is killed outright.
// Each trial starts the real server (from source, WORKERS=2) on one data folder kept across trials,
// sends leads and test-card purchases from 8 clients, kills the first process with SIGKILL at a
// random moment while they write, then reads the database: every lead answered 201 and every
// purchase answered 303 (paid) must be there. Prints trials, writes acknowledged, writes lost and
// answers 5xx (the database is never locked here: a 503 would be a failure too).
//   ./node_modules/.bin/bun run bench/kill-trials.ts [TRIALS=42] [seed=7]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";

const ROOT = join(import.meta.dir, "..");
const TRIALS = Number(process.argv[2] ?? 42);
let state = Number(process.argv[3] ?? 7) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const dataDir = mkdtempSync(join(tmpdir(), "kill-trials-"));
const dbPath = join(dataDir, "site.db");

async function start(): Promise<{ base: string; kill: () => Promise<void> }> {
  const proc = spawn({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts")],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      WORKERS: "2",
      TRUST_PROXY: "true",
      LOG_LEVEL: "info",
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let base = "";
  while (base === "" || !text.includes("worker listening")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`server exited:\n${text}`);
    text += decoder.decode(value, { stream: true });
    const url = /listening on (http:\/\/[0-9.]+:\d+)/.exec(text)?.[1];
    if (url !== undefined) base = url;
  }
  // Read on: a full pipe would stop the server at its next log line.
  void (async () => {
    for (;;) if ((await reader.read()).done) return;
  })();
  return {
    base,
    async kill() {
      proc.kill("SIGKILL");
      await proc.exited;
      // The workers end when the first process is gone (they watch it): wait until the port is free of them.
      await Bun.sleep(1500);
    },
  };
}

let acknowledged = 0;
let lost = 0;
let fivexx = 0;
let n = 0;
const lostList: string[] = [];
try {
  for (let trial = 0; trial < TRIALS; trial++) {
    const server = await start();
    const leads: string[] = [];
    const paid: string[] = [];
    let killed = false;
    const client = async (c: number) => {
      while (!killed) {
        const i = n++;
        const who = { "x-forwarded-for": `10.${trial}.${c}.${i & 255}` };
        try {
          if (i % 4 !== 0) {
            const email = `k${trial}-${i}@example.com`;
            const r = await fetch(`${server.base}/api/leads`, {
              method: "POST",
              headers: { "content-type": "application/json", ...who },
              body: JSON.stringify({ email, source: "exit_popup", ip_hash: null, locale: "fr" }),
            });
            if (r.status >= 500) fivexx++;
            if (r.status === 201) leads.push(email);
          } else {
            const s = await fetch(`${server.base}/api/payment`, {
              method: "POST",
              headers: { ...FORM, ...who },
              body: "locale=fr&acceptTerms=yes",
              redirect: "manual",
            });
            if (s.status >= 500) fivexx++;
            const card = s.headers.get("location") ?? "";
            if (!card.startsWith("/")) continue;
            const body = new URLSearchParams({
              email: `p${trial}-${i}@example.com`,
              name: "A",
              city: "Lyon",
              card: "4242 4242 4242 4242",
              expiry: "12/34",
              cvc: "123",
            });
            const p = await fetch(`${server.base}${card}`, {
              method: "POST",
              headers: { ...FORM, ...who },
              body: body.toString(),
              redirect: "manual",
            });
            if (p.status >= 500) fivexx++;
            if (p.status === 303) paid.push(card.split("/").pop() ?? "");
          }
        } catch {
          // The server killed under the request: not acknowledged, nothing to find.
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, c) => client(c));
    await Bun.sleep(1000 + random() * 3000);
    await server.kill();
    killed = true;
    await Promise.all(clients);
    const db = new Database(dbPath);
    const haveLead = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM email_leads WHERE email = ?");
    const havePaid = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM orders WHERE checkout_id = ? AND status = 'paid'");
    for (const email of leads) if ((haveLead.get(email)?.n ?? 0) !== 1) lostList.push(email);
    for (const id of paid) if ((havePaid.get(id)?.n ?? 0) !== 1) lostList.push(`order ${id.slice(0, 12)}…`);
    db.close();
    acknowledged += leads.length + paid.length;
    lost = lostList.length;
    console.log(JSON.stringify({ trial: trial + 1, leads: leads.length, paid: paid.length, lostSoFar: lost }));
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  JSON.stringify({ trials: TRIALS, writesAcknowledged: acknowledged, writesLost: lost, answers5xx: fivexx, lost: lostList.slice(0, 10) }),
);
process.exit(lost > 0 || fivexx > 0 ? 1 : 0);
