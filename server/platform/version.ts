import { join } from "node:path";
import packageJson from "../../package.json" with { type: "json" };

/**
 * Which program this is: the version (package.json), the commit it was built from and when. The
 * executable carries what `npm run build` read from git (scripts/build.ts); run from source, git
 * is asked once, at first use. Said by `site version`, the start-up line, /healthz and the
 * console's footer, so that an owner and a bug report name the same build.
 */
export type BuildInfo = {
  version: string;
  /** Short commit hash, `+changes` when the working tree differed from it; "unknown" outside git. */
  commit: string;
  /** ISO 8601: the build's time for the executable, the commit's time run from source. */
  date: string;
  /** The compiled executable, or Bun running the sources (its date is then the commit's). */
  from: "executable" | "source";
};

/** package.json's version: the one number the changelog, the saved database copies and the owner go by. */
export const VERSION: string = packageJson.version;

const ROOT = join(import.meta.dir, "..", "..");

/**
 * The commit and its date as git sees them in `root` (the build asks this too). Nothing is thrown
 * where there is no git or no repository: a copy of the sources still runs, as "unknown".
 */
export function readGitBuild(root: string = ROOT, built?: Date): BuildInfo {
  const from = built === undefined ? "source" : "executable";
  const git = (...args: string[]): string | null => {
    try {
      const run = Bun.spawnSync(["git", "-C", root, ...args], { stdout: "pipe", stderr: "ignore" });
      return run.exitCode === 0 ? run.stdout.toString().trim() : null;
    } catch {
      return null;
    }
  };
  const head = git("log", "-1", "--format=%h %cI");
  if (head === null || head === "") return { version: VERSION, commit: "unknown", date: (built ?? new Date(0)).toISOString(), from };
  const [hash = "unknown", committed = ""] = head.split(" ");
  // Only tracked files count: a data folder or a build output in the checkout is not a change.
  const changed = (git("status", "--porcelain", "--untracked-files=no") ?? "") !== "";
  return { version: VERSION, commit: changed ? `${hash}+changes` : hash, date: (built ?? new Date(committed)).toISOString(), from };
}

let fromSource: BuildInfo | undefined;

/** This program's build: the executable's embedded one when given, else read from git once. */
export function currentBuild(embedded?: BuildInfo): BuildInfo {
  if (embedded !== undefined) return embedded;
  fromSource ??= readGitBuild();
  return fromSource;
}

/** One line, as `site version` prints it: `0.2.0 (commit 1a2b3c4, built 2026-11-28T10:00:00.000Z)`. */
export function describeBuild(build: BuildInfo): string {
  return build.from === "executable"
    ? `${build.version} (commit ${build.commit}, built ${build.date})`
    : `${build.version} (commit ${build.commit} of ${build.date}, run from source)`;
}
