import type { Db } from "../../db/client";
import { isBusyError, type Write } from "../../db/writer";
import { errorText } from "../../shared/error-text";
import { claimReplica, readClaim } from "../platform/backup/claim";
import { clearRestored, ensureDatabaseId, readIdentity } from "../platform/backup/identity";
import { describeTarget } from "../platform/backup/settings";
import type { Config } from "../platform/config";

/**
 * `site backup promote`: the owner's word that the database in DATA_DIR is the shop's from now on
 * (a restore after a lost server, a move to a new machine, or taking the replica back). It stops
 * counting as a restored copy and the replica is claimed for it (claim.ts), so a server on it
 * replicates, and a server still writing there from another database stops within seconds.
 * The replica is read before anything changes: out of reach, nothing is changed.
 */
export async function backupPromote(
  db: Db,
  write: Write,
  config: Config,
  out: (line: string) => void,
  err: (line: string) => void,
  now: () => Date,
): Promise<number> {
  const target = config.backup;
  if (target === null) {
    err(
      "BACKUP_URL is not set: promote makes this database the one that replicates to BACKUP_URL. Set it (the same value the server uses) and run promote again.\n",
    );
    return 2;
  }
  let previous: Awaited<ReturnType<typeof readClaim>>;
  try {
    previous = await readClaim(target);
  } catch (error) {
    err(
      `The replica at ${describeTarget(target)} could not be read (${errorText(error)}). Nothing was changed; run promote again once it can be.\n`,
    );
    return 1;
  }
  const was = readIdentity(db);
  let id: string;
  try {
    id = await write((tx) => {
      clearRestored(tx);
      return ensureDatabaseId(tx, now());
    });
  } catch (error) {
    if (!isBusyError(error)) throw error;
    err(
      `The database ${config.dbPath} is locked by another program (an open sqlite3 session in a transaction?). Nothing was changed; try again once it is finished.\n`,
    );
    return 1;
  }
  try {
    await claimReplica(target, { id, path: config.dbPath }, now(), previous);
  } catch (error) {
    err(
      `This database no longer counts as a restored copy, but the replica at ${describeTarget(target)} could not be claimed for it (${errorText(error)}): run promote again.\n`,
    );
    return 1;
  }
  out(
    `This database (${id}${was.restored !== null ? `, restored from ${was.restored.from}` : ""}) is now the primary: a server on ${config.dataDir} replicates to ${describeTarget(target)} (one running now starts within 10 seconds).\n`,
  );
  if (previous !== null && previous.database !== id)
    out(
      `The replica belonged to database ${previous.database} (at ${previous.host}:${previous.path}): a server still running on it stops replicating within 10 seconds, and what it records afterwards is not backed up. Stop it.\n`,
    );
  return 0;
}
