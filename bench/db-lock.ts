// The database's write lock held 12 s by another process, as the owner's `sqlite3` session after
// `BEGIN IMMEDIATE` holds it. At 0, 5 and 10 s into the lock and just after its
// release, four requests go out together: /healthz, GET /, a lead (JSON) and a test card payment
// (a form post); each line gives its status and how long it took. The server runs from source
// with its defaults (DB_BUSY_WAIT_MS 5000).
// Run: ./node_modules/.bin/bun run bench/db-lock.ts [--port 4400] [--hold-ms 12000] [--root DIR]
//   --root: run the server of another checkout (e.g. the code before the change) for comparison.
//   The lock is taken with the sqlite3 CLI when it is installed, otherwise with a bun:sqlite process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { errorText } from "../shared/error-text";
import { startBenchServer } from "./load";

const { values: args } = parseArgs({
  options: { port: { type: "string", default: "4400" }, "hold-ms": { type: "string", default: "12000" }, root: { type: "string" } },
});
const root = args.root ?? join(import.meta.dir, "..");
const holdMs = Number(args["hold-ms"]);
const dataDir = mkdtempSync(join(tmpdir(), "bench-db-lock-"));
const dbPath = join(dataDir, "site.db");

type Probe = { moment: string; name: string; startedAt: number; status: number | string; ms: number };

/** Holds the write lock for `ms`, with the sqlite3 CLI if there is one; resolves once it is held. */
async function holdLock(ms: number): Promise<{ how: string; released: Promise<number> }> {
  const cli = Bun.which("sqlite3");
  const proc =
    cli !== null
      ? Bun.spawn([cli, dbPath], { stdin: "pipe", stdout: "pipe", stderr: "inherit" })
      : Bun.spawn([process.execPath, "run", join(import.meta.dir, "../test/support/hold-db-lock.ts"), dbPath, String(ms)], {
          stdin: "ignore",
          stdout: "pipe",
          stderr: "inherit",
        });
  if (cli !== null && proc.stdin !== undefined && typeof proc.stdin !== "number") {
    proc.stdin.write("BEGIN IMMEDIATE;\nSELECT 'locked';\n");
    proc.stdin.flush();
  }
  const reader = proc.stdout.getReader();
  let said = "";
  while (!said.includes("locked")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the lock holder ended before taking the lock");
    said += new TextDecoder().decode(value);
  }
  const lockedAt = performance.now();
  const released = (async () => {
    if (cli !== null && proc.stdin !== undefined && typeof proc.stdin !== "number") {
      await Bun.sleep(ms);
      proc.stdin.write("ROLLBACK;\n.quit\n");
      proc.stdin.end();
    }
    await proc.exited;
    return performance.now() - lockedAt;
  })();
  return { how: cli !== null ? `sqlite3 CLI (${cli})` : "a bun:sqlite process (no sqlite3 CLI here)", released };
}

const server = await startBenchServer([process.execPath, "run", "server/main.ts"], { DATA_DIR: dataDir, PORT: args.port }, root);
const base = server.base;
const form = { "content-type": "application/x-www-form-urlencoded" };
try {
  // One test checkout per moment, opened before the lock (opening one writes its pending order).
  const cardPages: string[] = [];
  for (let i = 0; i < 4; i++) {
    const start = await fetch(`${base}/api/payment`, {
      method: "POST",
      headers: form,
      body: "locale=fr&acceptTerms=yes",
      redirect: "manual",
    });
    cardPages.push(start.headers.get("location") ?? "");
  }
  // Warm: the first render of / is cached afterwards, as on a server that has been up a while.
  await fetch(`${base}/`).then((r) => r.arrayBuffer());

  const probes: Probe[] = [];
  let t0 = 0;
  const probe = async (moment: string, name: string, send: () => Promise<Response>) => {
    const startedAt = performance.now();
    let status: number | string;
    try {
      const response = await send();
      await response.arrayBuffer();
      status = response.status;
    } catch (error) {
      status = errorText(error);
    }
    probes.push({ moment, name, startedAt: (startedAt - t0) / 1000, status, ms: performance.now() - startedAt });
  };
  const round = (moment: string, i: number) =>
    Promise.all([
      probe(moment, "GET /healthz", () => fetch(`${base}/healthz`)),
      probe(moment, "GET /", () => fetch(`${base}/`)),
      probe(moment, "POST /api/leads (JSON)", () =>
        fetch(`${base}/api/leads`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: `lock-${i}@example.com`, source: "exit_popup", ip_hash: null, locale: "fr" }),
        }),
      ),
      probe(moment, "test payment (card form)", () =>
        fetch(`${base}${cardPages[i]}`, {
          method: "POST",
          headers: form,
          body: new URLSearchParams({
            email: `buyer-${i}@example.com`,
            name: "Camille Durand",
            city: "Lyon",
            card: "4242 4242 4242 4242",
            expiry: "12/34",
            cvc: "123",
            terms: "yes",
          }).toString(),
          redirect: "manual",
        }),
      ),
    ]);

  const lock = await holdLock(holdMs);
  t0 = performance.now();
  console.log(`Server: ${root} (port ${args.port}); lock held ${holdMs / 1000} s by ${lock.how}`);
  const rounds: Promise<unknown>[] = [];
  for (const [i, at] of [0, 5000, 10000].entries()) {
    rounds.push(Bun.sleep(at).then(() => round(`${at / 1000} s into the lock`, i)));
  }
  const heldMs = await lock.released;
  rounds.push(round("just after release", 3));
  await Promise.all(rounds);
  console.log(`Lock released after ${(heldMs / 1000).toFixed(1)} s\n`);

  console.log(`${"moment".padEnd(22)} ${"request".padEnd(26)} ${"sent at".padStart(8)} ${"status".padStart(6)} ${"latency".padStart(10)}`);
  for (const p of probes.sort((a, b) => a.startedAt - b.startedAt || a.name.localeCompare(b.name))) {
    console.log(
      `${p.moment.padEnd(22)} ${p.name.padEnd(26)} ${`${p.startedAt.toFixed(2)} s`.padStart(8)} ${String(p.status).padStart(6)} ${`${p.ms.toFixed(1)} ms`.padStart(10)}`,
    );
  }
  const fiveHundreds = probes.filter((p) => p.status === 500);
  console.log(`\n500 answers: ${fiveHundreds.length}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
