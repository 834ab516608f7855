import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { errorText } from "../../../shared/error-text";
import type { Logger } from "../log";
import { endingWithThisProcess } from "../parent-death";
import { claimedElsewhereReason, claimReplica, type ReplicaClaim, readClaim, recordGeneration } from "./claim";
import { type DatabaseIdentity, restoredCopyReason } from "./identity";
import { pushKeptFiles } from "./kept-files";
import { litestreamConfig, litestreamEnv } from "./litestream";
import { type BackupTarget, describeTarget } from "./settings";
import { readStatusFile, writeReplicationStatus } from "./status";

/** What the owner's console and the start-up log can say about backups. */
export type ReplicationStatus = {
  enabled: boolean;
  /** Where to, without keys. */
  target: string | null;
  running: boolean;
  /** When Litestream last wrote a snapshot or a WAL segment to the replica. */
  lastReplicatedAt: Date | null;
  lastError: string | null;
  /** How many times Litestream had to be started again since the server started. */
  restarts: number;
  /**
   * Why this server does not replicate although BACKUP_URL is set (a restored copy not yet
   * promoted, a replica that belongs to another database), or null.
   */
  held: string | null;
  /** The database's own name (site_settings.database_id), once known. */
  database: string | null;
};

export type Replicator = {
  start(): void;
  /** Stops Litestream cleanly (it syncs what it has on SIGTERM); waits at most 10 s. */
  stop(): Promise<void>;
  status(): ReplicationStatus;
};

export const DISABLED_STATUS: ReplicationStatus = {
  enabled: false,
  target: null,
  running: false,
  lastReplicatedAt: null,
  lastError: null,
  restarts: 0,
  held: null,
  database: null,
};

/** The replicator of a site without BACKUP_URL: nothing to run, and its status says so. */
export const noReplicator: Replicator = { start: () => {}, stop: async () => {}, status: () => DISABLED_STATUS };

/** Kept files are looked at this often (a licence-signing key rotated while running goes too). */
const KEPT_FILES_EVERY_MS = 60_000;
const STOP_WAIT_MS = 10_000;
/**
 * How often the replica's claim (claim.ts) is read again while replicating, and the database's
 * own record while held: a promoted copy takes the replica over from a server still running
 * within this time, and a copy promoted while it runs starts replicating within it.
 */
const CHECK_EVERY_MS = 10_000;
/**
 * The status file is rewritten at most this often (Litestream reports every half second under
 * load). Once a second, not every 5 s: the trailing write runs on the server's event loop, which a
 * busy first process (an invoice PDF, pages rendered after a publish) can hold for seconds; with a
 * second's interval the file still shows a replication within 5 s of it on a loaded machine.
 */
const STATUS_EVERY_MS = 1_000;

/** When Litestream says it wrote (its own `time=`), else now: the replica's real time, not when this process read the line. */
function litestreamTime(fields: Record<string, string>, now: Date): Date {
  const at = fields.time === undefined ? Number.NaN : Date.parse(fields.time);
  // A clock of its own that runs ahead is not believed: never a replication in the future.
  return Number.isNaN(at) || at > now.getTime() ? now : new Date(at);
}

/** One line of Litestream's log (logfmt: time=… level=INFO msg="wal segment written" db=…). */
export function parseLogLine(line: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of line.matchAll(/(\w[\w.-]*)=("((?:[^"\\]|\\.)*)"|\S*)/g)) {
    const key = match[1] ?? "";
    fields[key] = match[3] !== undefined ? match[3].replace(/\\(.)/g, "$1") : (match[2] ?? "");
  }
  return fields;
}

/**
 * Runs `litestream replicate` for the site's database while the server runs, in the first process
 * only, and starts it again (after 1 s, doubling to 30 s) if it dies. Its configuration file is
 * written to DATA_DIR and holds no key (the keys reach it by its environment).
 *
 * It replicates only a database that may write into the replica: not a restored copy the owner
 * has not promoted, and not into a replica another database has claimed (claim.ts). Held, it
 * writes nothing beside the replica either, checkpoints the write-ahead log itself (Litestream
 * would otherwise), and looks again every CHECK_EVERY_MS.
 */
export function createReplicator(deps: {
  target: BackupTarget;
  dbPath: string;
  dataDir: string;
  binary: string;
  log: Logger;
  now: () => Date;
  /** The database's own record of who it is; `ensureId` names it if it has no name yet. */
  identity: { read(): DatabaseIdentity; ensureId(): Promise<string> };
  /** Moves the write-ahead log into the database file (Litestream's job while it runs). */
  checkpoint: () => void;
  checkEveryMs?: number;
  statusEveryMs?: number;
}): Replicator {
  const { target, dbPath, dataDir, binary, log, now, identity } = deps;
  const checkEveryMs = deps.checkEveryMs ?? CHECK_EVERY_MS;
  const statusEveryMs = deps.statusEveryMs ?? STATUS_EVERY_MS;
  const configPath = join(dataDir, "litestream.yml");
  const status: ReplicationStatus = { ...DISABLED_STATUS, enabled: true, target: describeTarget(target) };
  // The replica's last replication is what the previous run recorded until this run replicates:
  // a restart with nothing new to send is not "never".
  const previous = readStatusFile(dataDir);
  if (previous !== null && previous.target === status.target && previous.lastReplicatedAt !== null)
    status.lastReplicatedAt = new Date(previous.lastReplicatedAt);
  let child: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let restartPending = false;
  let keptTimer: ReturnType<typeof setInterval> | undefined;
  let checkTimer: ReturnType<typeof setInterval> | undefined;
  let delayMs = 1000;
  let replicatedThisRun = false;
  let announced = false;
  let generation: string | null = null;
  const pushed = new Map<string, string>();
  let savedAt = 0;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  // Written at once when forced, or when the last write is older than statusEveryMs; otherwise the
  // update is written when that time has passed (never dropped: the file may lag the truth by
  // statusEveryMs at most).
  const save = (force = false) => {
    const wait = savedAt + statusEveryMs - Date.now();
    if (!force && wait > 0) {
      trailing ??= setTimeout(() => {
        trailing = undefined;
        save(true);
      }, wait);
      return;
    }
    clearTimeout(trailing);
    trailing = undefined;
    savedAt = Date.now();
    try {
      writeReplicationStatus(dataDir, status);
    } catch (error) {
      log.debug("backup status not written", { error: errorText(error) });
    }
  };

  const hold = (reason: string) => {
    if (status.held !== reason) log.warn("backup: not replicating", { why: reason, to: status.target });
    status.held = reason;
    status.running = false;
    save(true);
  };

  /** Another database took the replica while this one wrote to it: stop at once, without a last sync. */
  const yieldTo = (claim: ReplicaClaim) => {
    if (status.held !== null) return;
    log.error("backup: the replica was taken over by another database; replication stopped", {
      database: claim.database,
      at: `${claim.host}:${claim.path}`,
      since: claim.since,
    });
    hold(claimedElsewhereReason(claim));
    clearTimeout(restartTimer);
    restartPending = false;
    child?.kill("SIGKILL");
  };

  const onLine = (line: string) => {
    const fields = parseLogLine(line);
    const msg = fields.msg ?? line;
    if (msg === "wal segment written" || msg === "snapshot written") {
      // When Litestream says it replicated (the time `backup status` and the next start show too,
      // rather than the moment its line was read here, a few milliseconds later).
      const at = litestreamTime(fields, now());
      // The first of this run is said at info level: the log shows backups working, and when.
      if (!replicatedThisRun) log.info("backup: replicated", { at: at.toISOString(), to: status.target });
      // The first replication of the run, or one that ends a problem (Litestream's warnings at
      // start, "wal header mismatch"…, are followed by a new generation that works), is written at once.
      const news = !replicatedThisRun || status.lastError !== null;
      replicatedThisRun = true;
      if (status.lastReplicatedAt === null || at.getTime() > status.lastReplicatedAt.getTime()) status.lastReplicatedAt = at;
      status.lastError = null;
      delayMs = 1000;
      log.debug("backup replicated", { position: fields.position });
      noteGeneration(fields.position);
      save(news);
    } else if (fields.level === "ERROR" || fields.level === "WARN") {
      status.lastError = fields.error !== undefined ? `${msg}: ${fields.error}` : msg;
      log.warn("backup problem", { litestream: status.lastError });
      save(true);
    } else {
      log.debug("litestream", { msg });
    }
  };

  /** A generation Litestream began (position = generation/index:offset) is listed beside the replica. */
  const noteGeneration = (position: string | undefined) => {
    const begun = position?.split("/")[0];
    if (begun === undefined || !/^[0-9a-f]{16}$/.test(begun) || begun === generation || status.database === null) return;
    generation = begun;
    recordGeneration(target, status.database, begun).then(
      (claim) => {
        if (claim !== null && claim.database !== status.database) yieldTo(claim);
      },
      (error: unknown) => {
        // Listed again when Litestream next reports it (a restart); restore falls back to Litestream's choice.
        generation = null;
        log.warn("backup: the replica's database.json not updated", { error: errorText(error) });
      },
    );
  };

  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let rest = "";
    const reader = stream.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) return;
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") onLine(line);
    }
  };

  const pushKept = () => {
    if (status.held !== null || child === null) return Promise.resolve();
    return pushKeptFiles(dataDir, target, pushed).then(
      (copied) => {
        if (copied.length > 0) log.info("backup: site files copied", { files: copied });
      },
      (error: unknown) => {
        status.lastError = `site files not copied: ${errorText(error)}`;
        log.warn("backup: site files not copied", { error: errorText(error) });
      },
    );
  };

  const launch = () => {
    if (stopping || status.held !== null || child !== null) return;
    try {
      writeFileSync(configPath, litestreamConfig(dbPath, target), { mode: 0o600 });
      // Started through setpriv, a missing binary would only show as setpriv's exit code: look first.
      if (Bun.which(binary) === null) throw new Error("not found or not executable");
      child = Bun.spawn({
        // A server killed outright (SIGKILL, a crash) leaves no replicator behind to race the next
        // one or to write into a data folder deleted after it: the kernel ends Litestream with it
        // (it resumes from the database's write-ahead log at the next start, so nothing is lost).
        // Where that is not available, Litestream runs a watcher that ends when this process is
        // gone, and exits with it within a second.
        cmd: endingWithThisProcess(
          [binary, "replicate", "-config", configPath, "-exec", `/bin/sh -c "while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done"`],
          "SIGKILL",
        ),
        env: litestreamEnv(target),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
    } catch (error) {
      // Most often the compiled executable without a litestream beside it: the owner's setting to fix.
      status.lastError = `litestream did not start (${binary}: ${errorText(error)}); set LITESTREAM_PATH to the litestream binary or put litestream on the PATH`;
      log.error("backup: litestream did not start, nothing is replicated", { binary, error: status.lastError });
      save(true);
      scheduleRestart();
      return;
    }
    if (!announced) log.info("backup: replicating the database", { to: status.target, database: status.database });
    announced = true;
    status.running = true;
    save(true);
    const running = child;
    void pump(running.stdout);
    void pump(running.stderr);
    void pushKept();
    void running.exited.then((code) => {
      if (child === running) child = null;
      if (stopping || status.held !== null) return;
      status.running = false;
      status.lastError = `litestream exited with code ${code}`;
      log.error("backup: litestream stopped, starting it again", { code, inSeconds: delayMs / 1000 });
      save(true);
      scheduleRestart();
    });
  };

  const scheduleRestart = () => {
    if (stopping) return;
    status.restarts++;
    restartPending = true;
    restartTimer = setTimeout(() => {
      restartPending = false;
      launch();
    }, delayMs);
    delayMs = Math.min(delayMs * 2, 30_000);
  };

  /** Whether this database may write into the replica now; starts or stops Litestream accordingly. */
  let checking = false;
  const check = async () => {
    if (checking || stopping) return;
    checking = true;
    try {
      const self = identity.read();
      if (self.restored !== null) {
        if (child === null) {
          hold(restoredCopyReason(self.restored));
          deps.checkpoint();
        }
        return;
      }
      status.database ??= self.id ?? (await identity.ensureId());
      let claim: ReplicaClaim | null;
      try {
        claim = await readClaim(target);
      } catch (error) {
        const problem = `the replica's database.json could not be read (${errorText(error)}); replication waits until it can be`;
        // While Litestream runs, its own messages tell of a replica out of reach.
        if (child === null && status.lastError !== problem) {
          status.lastError = problem;
          log.warn("backup problem", { error: problem });
          save(true);
        }
        if (child === null) deps.checkpoint();
        return;
      }
      if (stopping) return;
      if (claim !== null && claim.database !== status.database) {
        if (child !== null) yieldTo(claim);
        else hold(claimedElsewhereReason(claim));
        deps.checkpoint();
        return;
      }
      // An empty replica (or one from before claims were kept) becomes this database's.
      if (claim === null) {
        claim = await claimReplica(target, { id: status.database, path: dbPath }, now(), null);
        log.info("backup: the replica now belongs to this database", { database: status.database, to: status.target });
      }
      if (status.held !== null) {
        log.info("backup: replication resumes", { database: status.database });
        status.held = null;
        delayMs = 1000;
      }
      if (child === null && !restartPending) launch();
    } catch (error) {
      log.warn("backup: replica claim not checked", { error: errorText(error) });
    } finally {
      checking = false;
    }
  };

  return {
    start() {
      void check();
      checkTimer = setInterval(() => void check(), checkEveryMs);
      keptTimer = setInterval(() => void pushKept(), KEPT_FILES_EVERY_MS);
    },
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      clearInterval(keptTimer);
      clearInterval(checkTimer);
      const running = child;
      if (running !== null) {
        running.kill("SIGTERM");
        const killer = setTimeout(() => running.kill("SIGKILL"), STOP_WAIT_MS);
        await running.exited;
        clearTimeout(killer);
      }
      status.running = false;
      save(true);
    },
    status: () => ({ ...status }),
  };
}
