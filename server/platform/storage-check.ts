import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { errorText } from "../../shared/error-text";

/**
 * Whether the server can write its data folder, checked before anything is opened: a read-only
 * or unwritable folder would otherwise start a site that lists pages and fails every purchase
 * (SQLite opens a write-protected file read-only without a word), or end in a raw stack trace.
 * Answers the one line the owner reads, naming DATA_DIR, or null when the folder is usable. A
 * full disk passes: the site serves its pages and answers writes 503 until space is freed.
 */
export function unwritableDataDir(dataDir: string, files: readonly string[]): string | null {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    return `DATA_DIR ${dataDir} cannot be created (${reasonOf(error)}): choose a folder this user can write, or create it first.`;
  }
  // access() reports a read-only file system even to root, which file permissions do not stop.
  for (const path of [dataDir, ...files.map((file) => join(dataDir, file)).filter((path) => existsSync(path))]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const what = path === dataDir ? "" : ` (its file ${path})`;
      return `DATA_DIR ${dataDir} is not writable${what}: ${reasonOf(error)}. The site must write its database there; fix the folder's mount or permissions and start again.`;
    }
  }
  return null;
}

function reasonOf(error: unknown): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  if (code === "EROFS") return "the file system is read-only";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return errorText(error);
}
