import { hostname } from "node:os";
import * as v from "valibot";
import { storeFor } from "./kept-files";
import type { BackupTarget } from "./settings";

/**
 * Which database a replica belongs to, in a small file beside it (`site-files/database.json`).
 * Litestream lets any number of databases write into one replica, each as a "generation" of its
 * own, and a restore brings back whichever wrote last: a restore drill left replicating, or a
 * forgotten second server, silently becomes "the backup". The file names the one database allowed
 * to write there (claimed by the first server to replicate into an empty replica, and by
 * `site backup promote`), and the generations the databases that held it wrote, so that `site
 * restore` brings back theirs and nothing else.
 */
const CLAIM = "database.json";
/** Enough for years of restarts; the oldest are let go (their snapshots are gone after a week anyway). */
const MAX_GENERATIONS = 200;

const Claim = v.object({
  database: v.pipe(v.string(), v.nonEmpty()),
  /** Where that database was when it claimed the replica: for the owner reading a refusal. */
  host: v.string(),
  path: v.string(),
  since: v.pipe(v.string(), v.isoTimestamp()),
  /** Litestream generations written by the databases that held the replica, oldest first. */
  generations: v.array(v.object({ id: v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/)), database: v.string() })),
});
export type ReplicaClaim = v.InferOutput<typeof Claim>;

/** The replica's claim, or null when no database has claimed it yet. Throws when it cannot be read. */
export async function readClaim(target: BackupTarget): Promise<ReplicaClaim | null> {
  const bytes = await storeFor(target).get(CLAIM);
  if (bytes === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new Error(`${CLAIM} beside the replica is not JSON`);
  }
  const result = v.safeParse(Claim, parsed);
  if (!result.success) throw new Error(`${CLAIM} beside the replica is not as this site writes it`);
  return result.output;
}

async function writeClaim(target: BackupTarget, claim: ReplicaClaim): Promise<void> {
  await storeFor(target).put(CLAIM, new TextEncoder().encode(`${JSON.stringify(claim, null, 2)}\n`));
}

/** The replica now belongs to `database`; the generations already listed stay (they are its history). */
export async function claimReplica(
  target: BackupTarget,
  database: { id: string; path: string },
  now: Date,
  previous: ReplicaClaim | null,
): Promise<ReplicaClaim> {
  const claim: ReplicaClaim = {
    database: database.id,
    host: hostname(),
    path: database.path,
    since: now.toISOString(),
    generations: previous?.generations ?? [],
  };
  await writeClaim(target, claim);
  return claim;
}

/**
 * Adds a generation the claiming database has begun. Read again first: when the replica has been
 * claimed by another database meanwhile, nothing is written and the claim found is returned.
 */
export async function recordGeneration(target: BackupTarget, database: string, generation: string): Promise<ReplicaClaim | null> {
  const claim = await readClaim(target);
  if (claim === null || claim.database !== database) return claim;
  if (claim.generations.some((g) => g.id === generation)) return claim;
  const updated = { ...claim, generations: [...claim.generations, { id: generation, database }].slice(-MAX_GENERATIONS) };
  await writeClaim(target, updated);
  return updated;
}

/** What the log, the console and `backup status` say when the replica belongs to another database. */
export const claimedElsewhereReason = (claim: ReplicaClaim) =>
  `the replica belongs to another database (${claim.database}, at ${claim.host}:${claim.path} since ${claim.since}): this server does not write into it. To bring that database here, stop this server and run \`site restore --force\`; to make this one the primary instead, run \`site backup promote\``;
