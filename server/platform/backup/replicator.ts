import type { Subprocess } from "bun";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../log";
import { endingWithThisProcess } from "../parent-death";
import { pushKeptFiles } from "./kept-files";
import { litestreamConfig, litestreamEnv } from "./litestream";
import { describeTarget, type BackupTarget } from "./settings";
import { writeReplicationStatus } from "./status";
import { errorText } from "../../../shared/error-text";

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
};

/** The replicator of a site without BACKUP_URL: nothing to run, and its status says so. */
export const noReplicator: Replicator = { start: () => {}, stop: async () => {}, status: () => DISABLED_STATUS };

/** Kept files are looked at this often (a licence-signing key rotated while running goes too). */
const KEPT_FILES_EVERY_MS = 60_000;
const STOP_WAIT_MS = 10_000;

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
 */
export function createReplicator(deps: {
  target: BackupTarget;
  dbPath: string;
  dataDir: string;
  binary: string;
  log: Logger;
  now: () => Date;
}): Replicator {
  const { target, dbPath, dataDir, binary, log, now } = deps;
  const configPath = join(dataDir, "litestream.yml");
  const status: ReplicationStatus = { ...DISABLED_STATUS, enabled: true, target: describeTarget(target) };
  let child: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let keptTimer: ReturnType<typeof setInterval> | undefined;
  let delayMs = 1000;
  let replicatedThisRun = false;
  const pushed = new Map<string, string>();
  // The status file is rewritten at most this often (Litestream reports every second under load).
  let savedAt = 0;
  const save = (force = false) => {
    if (!force && Date.now() - savedAt < 5_000) return;
    savedAt = Date.now();
    try {
      writeReplicationStatus(dataDir, status);
    } catch (error) {
      log.debug("backup status not written", { error: errorText(error) });
    }
  };

  const onLine = (line: string) => {
    const fields = parseLogLine(line);
    const msg = fields.msg ?? line;
    if (msg === "wal segment written" || msg === "snapshot written") {
      // The first of this run is said at info level: the log shows backups working, and when.
      if (!replicatedThisRun) log.info("backup: replicated", { at: now().toISOString(), to: status.target });
      replicatedThisRun = true;
      status.lastReplicatedAt = now();
      status.lastError = null;
      delayMs = 1000;
      log.debug("backup replicated", { position: fields.position });
      save();
    } else if (fields.level === "ERROR" || fields.level === "WARN") {
      status.lastError = fields.error !== undefined ? `${msg}: ${fields.error}` : msg;
      log.warn("backup problem", { litestream: status.lastError });
      save(true);
    } else {
      log.debug("litestream", { msg });
    }
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

  const pushKept = () =>
    pushKeptFiles(dataDir, target, pushed).then(
      (copied) => {
        if (copied.length > 0) log.info("backup: site files copied", { files: copied });
      },
      (error: unknown) => {
        status.lastError = `site files not copied: ${errorText(error)}`;
        log.warn("backup: site files not copied", { error: errorText(error) });
      },
    );

  const launch = () => {
    if (stopping) return;
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
    status.running = true;
    const running = child;
    void pump(running.stdout);
    void pump(running.stderr);
    void running.exited.then((code) => {
      status.running = false;
      if (child === running) child = null;
      if (stopping) return;
      status.lastError = `litestream exited with code ${code}`;
      log.error("backup: litestream stopped, starting it again", { code, inSeconds: delayMs / 1000 });
      save(true);
      scheduleRestart();
    });
  };

  const scheduleRestart = () => {
    if (stopping) return;
    status.restarts++;
    restartTimer = setTimeout(launch, delayMs);
    delayMs = Math.min(delayMs * 2, 30_000);
  };

  return {
    start() {
      log.info("backup: replicating the database", { to: status.target });
      launch();
      void pushKept();
      keptTimer = setInterval(() => void pushKept(), KEPT_FILES_EVERY_MS);
    },
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      clearInterval(keptTimer);
      const running = child;
      if (running === null) return;
      running.kill("SIGTERM");
      const killer = setTimeout(() => running.kill("SIGKILL"), STOP_WAIT_MS);
      await running.exited;
      clearTimeout(killer);
      save(true);
    },
    status: () => ({ ...status }),
  };
}
