import type { Db } from "../../../db/client";
import type { Write } from "../../../db/writer";
import type { Config } from "../config";
import type { Logger } from "../log";
import { ensureDatabaseId, readIdentity } from "./identity";
import { litestreamBinary } from "./litestream";
import { createReplicator, noReplicator, type Replicator } from "./replicator";
import { BACKUP_UNSET_WARNING } from "./settings";

/**
 * The first process's replicator: Litestream when BACKUP_URL is set; otherwise none, said once at
 * start-up (a warning in production comes with the other start-up warnings).
 */
export function replicatorFor(config: Config, log: Logger, now: () => Date, db: Db, write: Write): Replicator {
  if (config.backup === null) {
    if (config.env !== "production") log.info(BACKUP_UNSET_WARNING);
    return noReplicator;
  }
  return createReplicator({
    target: config.backup,
    dbPath: config.dbPath,
    dataDir: config.dataDir,
    binary: litestreamBinary(config.litestreamPath),
    log,
    now,
    identity: { read: () => readIdentity(db), ensureId: () => write((tx) => ensureDatabaseId(tx, now())) },
    checkpoint: () => {
      try {
        db.$client.exec("PRAGMA wal_checkpoint(PASSIVE)");
      } catch {
        // Busy: the next look does it.
      }
    },
  });
}
