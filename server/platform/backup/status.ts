import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { Config } from "../config";
import { DISABLED_STATUS, type ReplicationStatus } from "./replicator";
import { describeTarget } from "./settings";

// The replicator runs in the first server process only; the owner's console (any process) and the
// CLI read its status from this small file in DATA_DIR, rewritten at most every few seconds
// (an update is never dropped: it waits at most that long).

const FILE = "backup-status.json";

const Stored = v.object({
  target: v.nullable(v.string()),
  running: v.boolean(),
  lastReplicatedAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  lastError: v.nullable(v.string()),
  restarts: v.number(),
  // Absent from files written before servers could be held.
  held: v.optional(v.nullable(v.string()), null),
  database: v.optional(v.nullable(v.string()), null),
});

/** `held` and `database` may be left out (a status written by hand in a test): then null. */
export function writeReplicationStatus(
  dataDir: string,
  status: Omit<ReplicationStatus, "held" | "database"> & Partial<Pick<ReplicationStatus, "held" | "database">>,
): void {
  const path = join(dataDir, FILE);
  const stored: v.InferOutput<typeof Stored> = {
    target: status.target,
    running: status.running,
    lastReplicatedAt: status.lastReplicatedAt?.toISOString() ?? null,
    lastError: status.lastError,
    restarts: status.restarts,
    held: status.held ?? null,
    database: status.database ?? null,
  };
  writeFileSync(`${path}.tmp`, JSON.stringify(stored));
  renameSync(`${path}.tmp`, path);
}

/** What a server last wrote in DATA_DIR's status file, whatever this environment's BACKUP_URL; null without one. */
export function readStatusFile(dataDir: string): (v.InferOutput<typeof Stored> & { path: string }) | null {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return null;
  try {
    const parsed = v.safeParse(Stored, JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? { ...parsed.output, path } : null;
  } catch {
    return null;
  }
}

/**
 * Whether backups are on and when the last replication happened, for the console's checklist and
 * `site backup status`: off when BACKUP_URL is unset, otherwise what the running server last wrote.
 */
export function readReplicationStatus(config: Pick<Config, "backup" | "dataDir">): ReplicationStatus {
  if (config.backup === null) return DISABLED_STATUS;
  const base = { ...DISABLED_STATUS, enabled: true, target: describeTarget(config.backup) };
  const s = readStatusFile(config.dataDir);
  if (s === null) return base;
  return {
    ...base,
    running: s.running,
    lastReplicatedAt: s.lastReplicatedAt === null ? null : new Date(s.lastReplicatedAt),
    lastError: s.lastError,
    restarts: s.restarts,
    held: s.held,
    database: s.database,
  };
}
