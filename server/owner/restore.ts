import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { type ReplicaClaim, readClaim } from "../platform/backup/claim";
import { markRestored } from "../platform/backup/identity";
import { pullKeptFiles } from "../platform/backup/kept-files";
import { litestreamBinary, litestreamConfig, litestreamEnv } from "../platform/backup/litestream";
import { type BackupTarget, describeTarget } from "../platform/backup/settings";
import type { Config } from "../platform/config";
import { lastOutboxId, setAsideMailFilesAfter } from "../shop/mail/mail-files";
import { counted } from "./counted";

type Options = { toTime: Date | null; force: boolean };

function parseOptions(given: { toTime: string | undefined; force: boolean }): Options | string {
  if (given.toTime === undefined) return { toTime: null, force: given.force };
  const time = new Date(given.toTime);
  if (given.toTime === "" || Number.isNaN(time.getTime()))
    return `--to-time needs a date and time, such as 2026-05-01T12:00:00Z (got "${given.toTime}")`;
  return { toTime: time, force: given.force };
}

/**
 * Brings DATA_DIR back from BACKUP_URL: the database (to its latest state, or as it was at
 * --to-time) and the files kept beside it (the IP-hash secret, the licence-signing keys). Refuses
 * to touch a folder that still has a database unless --force, which keeps the old one as
 * site.db.before-restore-<time>. The server must be stopped meanwhile.
 */
export async function restoreCommand(
  given: { toTime: string | undefined; force: boolean },
  usage: string,
  config: Config,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const options = parseOptions(given);
  if (typeof options === "string") {
    err(`${options}\n\nUsage: ${usage}`);
    return 2;
  }
  const target = config.backup;
  if (target === null) {
    err("BACKUP_URL is not set: set it to the replica to restore from (the same value the server used), then run restore again.");
    return 2;
  }
  const dbPath = config.dbPath;
  const dbFiles = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`];
  if (existsSync(dbPath) && !options.force) {
    err(
      `${dbPath} already holds a database: restore would replace it. Stop the server, and run restore --force to replace it (the current one is kept as ${basename(dbPath)}.before-restore-…).`,
    );
    return 1;
  }
  mkdirSync(config.dataDir, { recursive: true });
  // Litestream's configuration names the database the replica belongs to; keys go by environment.
  const configDir = mkdtempSync(join(tmpdir(), "site-restore-"));
  const configPath = join(configDir, "litestream.yml");
  writeFileSync(configPath, litestreamConfig(dbPath, target), { mode: 0o600 });
  const restoring = `${dbPath}.restoring`;
  removeRestoringFiles(restoring);
  const started = performance.now();
  const binary = litestreamBinary(config.litestreamPath);
  let note: string | null = null;
  // The databases that held the replica, as listed beside it: their generations only are restored
  // (a copy that wrote there without the right to, from before claims were kept, is not).
  const claim = await readClaim(target).catch(() => null);
  try {
    const cmd = [binary, "restore", "-config", configPath, "-o", restoring];
    const generations = claim !== null || options.toTime !== null ? listGenerations(binary, configDir, target, claim) : [];
    if (options.toTime === null) {
      // The claim lists generations in the order they were begun: the last one still in the replica
      // is the database as its owner last wrote it.
      const present = new Set(generations.map((g) => g.generation));
      const latest = claim?.generations.findLast((g) => present.has(g.id));
      if (latest !== undefined) cmd.push("-generation", latest.id);
    } else {
      const pick = pointInTime(generations, options.toTime);
      if (pick.kind === "before-replica") {
        err(
          `The replica begins at ${pick.earliest.toISOString()}: it holds nothing as it was at ${options.toTime.toISOString()}. Choose a later time. ${dbPath} was not changed.`,
        );
        return 1;
      }
      if (pick.kind === "after-generation") {
        // Litestream restores a time only within a generation's first and last change; after the
        // last change (and before any later generation began) the database was as that change left it.
        cmd.push("-generation", pick.generation);
        note = `Nothing changed in the replica between ${pick.end.toISOString()} and ${options.toTime.toISOString()}: this is the database as of ${pick.end.toISOString()}.\n`;
      } else cmd.push("-timestamp", options.toTime.toISOString());
    }
    cmd.push(dbPath);
    const run = runLitestream(cmd, litestreamEnv(target));
    if (run instanceof Error) {
      // The compiled executable carries no Litestream: a missing binary is the owner's setting to fix.
      err(
        `Litestream could not be run (${binary}: ${run.message}). Set LITESTREAM_PATH to the litestream binary, or put litestream on the PATH (see docs/owner/backups.md). ${dbPath} was not changed.`,
      );
      return 1;
    }
    if (run.exitCode !== 0 || !existsSync(restoring)) {
      const said = `${run.stderr.toString()}${run.stdout.toString()}`
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .slice(-3)
        .join(" / ");
      removeRestoringFiles(restoring);
      err(`Restore from ${describeTarget(target)} failed: ${said || `litestream exited with ${run.exitCode}`}. ${dbPath} was not changed.`);
      return 1;
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
  // Checked before it replaces anything: a restored file that SQLite cannot read is no restore.
  const check = new Database(restoring, { readonly: true });
  const integrity = check.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check;
  const rows = (table: "orders" | "licenses" | "email_leads") =>
    check.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
  const counts = { orders: rows("orders"), licenses: rows("licenses"), email_leads: rows("email_leads") };
  check.close();
  if (integrity !== "ok") {
    removeRestoringFiles(restoring);
    err(`The restored database failed SQLite's integrity check (${integrity}). ${dbPath} was not changed.`);
    return 1;
  }
  // The copy is another database than the one it came from: a new name, and a mark that keeps a
  // server started on it from replicating until the owner promotes it (identity.ts).
  const copy = new Database(restoring, { readwrite: true });
  try {
    markRestored(drizzle({ client: copy }), describeTarget(target), new Date());
    copy.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    copy.close();
  }
  if (existsSync(dbPath)) {
    const aside = `${dbPath}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    // Its write-ahead log goes with it: a server killed outright leaves committed changes there,
    // perhaps the very ones the replica missed, and SQLite finds it by the file's name + "-wal".
    for (const suffix of ["", "-wal", "-shm"]) if (existsSync(`${dbPath}${suffix}`)) renameSync(`${dbPath}${suffix}`, `${aside}${suffix}`);
    out(`The database that was there is kept as ${aside}.\n`);
  }
  for (const stale of dbFiles.slice(1)) rmSync(stale, { force: true });
  renameSync(restoring, dbPath);
  removeRestoringFiles(restoring);
  // The e-mail files of the folder's own later messages: their numbers will be given again.
  const mailAside = `${config.mail.dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  const movedMail = setAsideMailFilesAfter(config.mail.dir, lastOutboxId(dbPath), mailAside);
  if (movedMail > 0)
    out(
      `Kept in ${mailAside}: ${counted(movedMail, "e-mail file", "e-mail files")} the restored copy does not know, whose numbers new e-mails will take again.\n`,
    );
  if (note !== null) out(note);
  const files = await pullKeptFiles(config.dataDir, target);
  const ms = Math.round(performance.now() - started);
  out(
    `Restored ${dbPath} from ${describeTarget(target)}${options.toTime !== null ? ` as it was at ${options.toTime.toISOString()}` : ""} in ${ms} ms: ${counted(counts.orders, "order", "orders")}, ${counted(counts.licenses, "licence", "licences")}, ${counted(counts.email_leads, "lead", "leads")}.\n`,
  );
  out(
    files.length > 0
      ? `Also restored: ${files.join(", ")}.\n`
      : "No site files (IP-hash secret, signing keys) were found next to the replica.\n",
  );
  out(
    "This copy is marked as restored: a server started on it does not replicate, so a drill never touches the replica. If it is to be the shop's database from now on (the old server is gone or stopped for good), run `site backup promote` before starting it.\n",
  );
  if (config.stripe !== undefined)
    out(
      "Start the server, then run `site orders reconcile --since <date of the last backup>` to rebuild any payment the restore missed.\n",
    );
  return 0;
}

type PointInTime =
  | { kind: "within" }
  | { kind: "after-generation"; generation: string; end: Date }
  | { kind: "before-replica"; earliest: Date };

type Generation = { generation: string; start: Date; end: Date };

/**
 * The replica's generations (`litestream generations`: one line each, with its first and last
 * change), those the claim beside the replica lists when it lists any of them; empty when the list
 * cannot be read (Litestream is then left to choose).
 */
function listGenerations(binary: string, configDir: string, target: BackupTarget, claim: ReplicaClaim | null): Generation[] {
  // `generations` wants the database file to exist: an empty stand-in, in a configuration of its own
  // naming the same replica, so the data folder is not touched.
  const standIn = join(configDir, "generations.db");
  writeFileSync(standIn, "");
  const configPath = join(configDir, "generations.yml");
  writeFileSync(configPath, litestreamConfig(standIn, target), { mode: 0o600 });
  const run = runLitestream([binary, "generations", "-config", configPath, standIn], litestreamEnv(target));
  if (run instanceof Error || run.exitCode !== 0) return [];
  const all = run.stdout
    .toString()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 5 && /^[0-9a-f]{16}$/.test(cols[1] ?? ""))
    .map((cols) => ({ generation: cols[1] ?? "", start: new Date(cols[3] ?? ""), end: new Date(cols[4] ?? "") }))
    .filter((g) => !Number.isNaN(g.start.getTime()) && !Number.isNaN(g.end.getTime()));
  const listed = new Set(claim?.generations.map((g) => g.id) ?? []);
  const claimed = all.filter((g) => listed.has(g.generation));
  return claimed.length > 0 ? claimed : all;
}

/**
 * Where `time` falls among the generations. Within one, Litestream restores it as asked. Between
 * two (a server restored or started afresh begins a new one) or after the last, the state at that
 * time is the last change before it. Before the first there is nothing. Without a list, Litestream
 * is left to answer for itself.
 */
function pointInTime(generations: Generation[], time: Date): PointInTime {
  if (generations.length === 0) return { kind: "within" };
  // The listing is to the second, rounded down: a time up to a listed end is within its generation.
  const t = time.getTime();
  if (generations.some((g) => g.start.getTime() <= t && t <= g.end.getTime())) return { kind: "within" };
  // Generations follow one another: the one begun last before the time was the database then.
  const current = generations.filter((g) => g.start.getTime() <= t).sort((a, b) => b.start.getTime() - a.start.getTime())[0];
  if (current !== undefined) return { kind: "after-generation", generation: current.generation, end: current.end };
  return { kind: "before-replica", earliest: new Date(Math.min(...generations.map((g) => g.start.getTime()))) };
}

/** Litestream run to its end, or the reason it could not be started at all (no such binary...). */
function runLitestream(cmd: string[], env: Record<string, string>) {
  try {
    return Bun.spawnSync({ cmd, env, stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * The restored file's companions: SQLite's -wal and -shm of the integrity check, and Litestream's
 * own `.tmp` file and its companions, none of which belongs in the data folder afterwards.
 */
function removeRestoringFiles(restoring: string): void {
  const dir = dirname(restoring);
  if (!existsSync(dir)) return;
  const name = basename(restoring);
  for (const entry of readdirSync(dir)) if (entry.startsWith(name)) rmSync(join(dir, entry), { force: true });
}
