import type { Config } from "../config";
import type { Logger } from "../log";
import { litestreamBinary } from "./litestream";
import { createReplicator, noReplicator, type Replicator } from "./replicator";
import { BACKUP_UNSET_WARNING } from "./settings";

/**
 * The first process's replicator: Litestream when BACKUP_URL is set; otherwise none, said once at
 * start-up (a warning in production comes with the other start-up warnings).
 */
export function replicatorFor(config: Config, log: Logger, now: () => Date): Replicator {
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
  });
}
