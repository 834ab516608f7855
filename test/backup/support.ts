import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "../../server/owner/cli";
import { litestreamBinary, litestreamConfig, litestreamEnv } from "../../server/platform/backup/litestream";
import { backupTargetOf } from "../../server/platform/backup/settings";
import { loadConfig } from "../../server/platform/config";

// What a replica holds, read the way a restore would (Litestream's own restore into a scratch
// file): the backup tests wait on it ("the order is in the replica") rather than on the clock.

/** The backup target of a test's environment (BACKUP_URL and the S3 settings). */
export function targetOf(env: Record<string, string>) {
  const target = backupTargetOf({
    BACKUP_URL: env.BACKUP_URL,
    BACKUP_S3_ENDPOINT: env.BACKUP_S3_ENDPOINT,
    BACKUP_S3_REGION: env.BACKUP_S3_REGION,
    BACKUP_S3_ACCESS_KEY_ID: env.BACKUP_S3_ACCESS_KEY_ID,
    BACKUP_S3_SECRET_ACCESS_KEY: env.BACKUP_S3_SECRET_ACCESS_KEY,
    BACKUP_S3_FORCE_PATH_STYLE: undefined,
    LITESTREAM_PATH: undefined,
  });
  if (target === null) throw new Error("no BACKUP_URL in the test's environment");
  return target;
}

/**
 * Runs `read` on the database Litestream restores from the replica now (its latest generation), or
 * resolves null when nothing can be restored yet. Spawned, not spawnSync: a fake S3 in this
 * process must go on answering meanwhile.
 */
export async function readReplica<T>(env: Record<string, string>, read: (db: Database) => T): Promise<T | null> {
  const target = targetOf(env);
  const scratch = mkdtempSync(join(tmpdir(), "site-replica-probe-"));
  try {
    const config = join(scratch, "litestream.yml");
    writeFileSync(config, litestreamConfig(join(scratch, "site.db"), target));
    const run = Bun.spawn({
      cmd: [litestreamBinary(undefined), "restore", "-config", config, "-o", join(scratch, "probe.db"), join(scratch, "site.db")],
      env: litestreamEnv(target),
      stdout: "ignore",
      stderr: "ignore",
    });
    if ((await run.exited) !== 0) return null;
    const db = new Database(join(scratch, "probe.db"), { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Polls `check` (every `everyMs`) until it holds or `ms` have passed; resolves with its last answer. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, everyMs = 100): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= end) return false;
    await Bun.sleep(everyMs);
  }
}

/**
 * Whether `read` holds on the replica within `ms`. Each look is a Litestream restore (a process of
 * its own, tens of milliseconds of CPU), and the server ships its changes twice a second
 * (sync-interval 500ms): looking more often than that only finds the same replica again.
 */
export function untilInReplica(env: Record<string, string>, read: (db: Database) => boolean, ms: number): Promise<boolean> {
  return until(async () => (await readReplica(env, read)) === true, ms, 500);
}

const ROOT = join(import.meta.dir, "..", "..");
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** A purchase with the test card through a running server; resolves with its checkout's order once paid. */
export async function buy(baseUrl: string, email: string): Promise<void> {
  const start = await fetch(`${baseUrl}/api/payment`, {
    method: "POST",
    headers: FORM,
    body: "locale=fr&acceptTerms=yes",
    redirect: "manual",
  });
  const cardPage = start.headers.get("location") ?? "";
  const card = new URLSearchParams({ email, name: "Camille", city: "Lyon", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  const paid = await fetch(`${baseUrl}${cardPage}`, { method: "POST", headers: FORM, body: card.toString(), redirect: "manual" });
  if (paid.status !== 303) throw new Error(`payment not accepted: ${paid.status}`);
}

/**
 * An owner command with the site's settings. `restore` runs in its own process: it waits for
 * Litestream with spawnSync, which in this one would stall the fake S3 it reads from. The others
 * run here, through the same `runCommand` the program calls (a process each is half a second of
 * CPU, and the drills run eight).
 */
export async function cli(args: string[], env: Record<string, string>) {
  if (args[0] !== "restore") {
    let out = "";
    const err: string[] = [];
    const code = await runCommand(
      args,
      loadConfig({ LOG_LEVEL: "silent", ...env }),
      (chunk) => {
        out += chunk;
      },
      (line) => err.push(line),
    );
    return { code, out, err: err.join("\n") };
  }
  const run = Bun.spawn({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "silent", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([run.exited, new Response(run.stdout).text(), new Response(run.stderr).text()]);
  return { code, out, err };
}

/** Whether a process still runs with `dir` in its command line (a replicator the server started). */
export function processMentions(dir: string): boolean {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dir)) return true;
    } catch {
      // Ended between the listing and the read.
    }
  }
  return false;
}
