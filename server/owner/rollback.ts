import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { copyToRollBackTo, OWN_SCHEMA, recordedSchema } from "../../db/versions";
import type { Config } from "../platform/config";
import { runningServer } from "../platform/running-server";
import { VERSION } from "../platform/version";
import { lastOutboxId, setAsideMailFilesAfter } from "../shop/mail/mail-files";
import { counted } from "./counted";

/** Asks the owner a yes-or-no question on the terminal; false when there is no one to ask. */
export type Confirm = (question: string) => Promise<boolean>;

/**
 * `site rollback [--yes]`, run with the older executable the owner goes back to: replaces a
 * database a newer version migrated with the copy saved before that migration
 * (`site.db.before-<version>`, db/versions.ts). The database it replaces is kept beside it
 * (`site.db.rolled-back-<time>`): what was written since the copy is set aside, never deleted.
 */
export async function rollbackCommand(
  args: { yes: boolean },
  config: Config,
  out: (line: string) => void,
  err: (line: string) => void,
  confirm: Confirm,
  now: () => Date = () => new Date(),
): Promise<number> {
  const { dbPath, dataDir } = config;
  if (!existsSync(dbPath)) {
    err(`No database at ${dbPath}: run this where the site runs, or set DATA_DIR to the folder that holds site.db.`);
    return 1;
  }
  const found = readSchema(dbPath);
  if (found.schema <= OWN_SCHEMA) {
    err(
      `This executable (version ${VERSION}, schema ${OWN_SCHEMA}) runs ${dbPath} (schema ${found.schema}) as it is: there is nothing to roll back. Run \`site rollback\` with the older executable you go back to, once a newer one has migrated the database.`,
    );
    return 1;
  }
  const copy = copyToRollBackTo(dbPath);
  if (copy === null) {
    err(
      `No copy saved before the migration to schema ${found.schema} is left beside ${dbPath} that version ${VERSION} can run. Restore a backup made before it (\`site restore --to-time\`), or run the newer version again.`,
    );
    return 1;
  }
  const server = runningServer(dataDir);
  if (server !== null) {
    err(`A server (version ${server.version}, process ${server.pid}) runs on ${dataDir}: stop it first. Nothing was changed.`);
    return 1;
  }
  const aside = `${dbPath}.rolled-back-${now().toISOString().replace(/[:.]/g, "-")}`;
  out(
    `${dbPath} (schema ${found.schema}, migrated by ${found.writtenBy ?? "a newer version"}) will be replaced by ${copy.path} (schema ${copy.schema}), saved on ${copy.savedAt.toISOString()} before version ${copy.version} migrated it.\n` +
      `What was written since then (orders, e-mails, sign-ins) will not be in the site's database; the current file is kept as ${aside}.\n`,
  );
  if (!args.yes && !(await confirm("Roll back? Type yes to go on: "))) {
    err("Nothing was changed (answer yes, or run `site rollback --yes`).");
    return 1;
  }
  // Leaving WAL mode needs every other connection closed: a server, a worker or an sqlite3 session
  // still on the file would keep writing to the file moved aside.
  if (!aloneOn(dbPath)) {
    err(`${dbPath} is open in another program (a server of this site, an sqlite3 session): stop it first. Nothing was changed.`);
    return 1;
  }
  renameSync(dbPath, aside);
  const partial = `${dbPath}.rollback.tmp`;
  copyFileSync(copy.path, partial);
  renameSync(partial, dbPath);
  for (const suffix of ["-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
  const mailAside = `${config.mail.dir}.rolled-back-${now().toISOString().replace(/[:.]/g, "-")}`;
  const moved = setAsideMailFilesAfter(config.mail.dir, lastOutboxId(dbPath), mailAside);
  if (moved > 0)
    out(
      `Kept in ${mailAside}: ${counted(moved, "e-mail file", "e-mail files")} written since then, whose numbers new e-mails will take again.\n`,
    );
  out(
    `Rolled back: ${dbPath} is the copy saved before ${copy.version} (kept as it was, to roll back again). Start version ${VERSION} now.\n`,
  );
  return 0;
}

function readSchema(dbPath: string) {
  const sqlite = new Database(dbPath, { readonly: true });
  try {
    return recordedSchema(sqlite);
  } finally {
    sqlite.close();
  }
}

/** True when no other connection has the file open (leaving WAL mode succeeds only then). */
function aloneOn(dbPath: string): boolean {
  const sqlite = new Database(dbPath);
  try {
    sqlite.exec("PRAGMA busy_timeout = 0");
    const mode = sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode = DELETE").get()?.journal_mode;
    return mode === "delete";
  } catch {
    return false;
  } finally {
    sqlite.close();
  }
}
