// Twenty servers started at the same moment on one new data folder: how many
// come up and answer /healthz, and whether each migration was applied once. Rounds on fresh folders,
// since the race is lost only now and then.
// Run: ./node_modules/.bin/bun run bench/concurrent-start.ts [--rounds 3] [--servers 20] [--first-port 4410]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MIGRATIONS } from "../db/migrations";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    servers: { type: "string", default: "20" },
    "first-port": { type: "string", default: "4410" },
  },
});
const root = join(import.meta.dir, "..");
const servers = Number(args.servers);

async function startOne(dataDir: string, port: number): Promise<{ up: boolean; why: string }> {
  const proc = Bun.spawn([process.execPath, "run", "server/main.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    for (let i = 0; i < 1200; i++) {
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return { up: true, why: "" };
      if (proc.exitCode !== null) {
        const stderr = await new Response(proc.stderr).text();
        return { up: false, why: stderr.split("\n").find((l) => /error|locked|exists/i.test(l)) ?? `exit ${proc.exitCode}` };
      }
      await Bun.sleep(100);
    }
    return { up: false, why: "no answer after 120 s" };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

let total = 0;
let up = 0;
for (let round = 1; round <= Number(args.rounds); round++) {
  const dir = mkdtempSync(join(tmpdir(), "bench-start-"));
  try {
    const dataDir = join(dir, "data");
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: servers }, (_, i) => startOne(dataDir, Number(args["first-port"]) + i)));
    const seconds = (performance.now() - started) / 1000;
    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    const applied = db.query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()?.n;
    const mode = db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
    db.close();
    const ok = results.filter((r) => r.up).length;
    total += servers;
    up += ok;
    console.log(
      `round ${round}: ${ok} of ${servers} started (${seconds.toFixed(1)} s), migrations applied ${applied} (expected ${MIGRATIONS.length}), journal ${mode}`,
    );
    for (const r of results.filter((r) => !r.up)) console.log(`  failed: ${r.why}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`total: ${up} of ${total} simultaneous starts succeeded`);
if (up !== total) process.exit(1);
