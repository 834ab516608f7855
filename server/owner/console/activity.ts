import { desc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { type OwnerAction, ownerActivity } from "../../../db/schema";
import type { DbTransaction, DbWriter, Write } from "../../../db/writer";

export type ActivityEntry = { action: OwnerAction; detail: string; sessionId: number | null };

/** Written in the transaction of the change it reports, so the log never claims what did not happen. */
export function recordActivity(tx: DbWriter, entry: ActivityEntry, now: Date): void {
  tx.insert(ownerActivity)
    .values({ ...entry, at: now })
    .run();
}

export function listActivity(db: Db, limit = 200) {
  return db.select().from(ownerActivity).orderBy(desc(ownerActivity.id)).limit(limit).all();
}

/**
 * A writer that also records the owner's action in the same transaction, when `entryFor` says the
 * outcome was a change: the services are called as they are, and the log holds exactly what happened.
 * `sessionId` null is the command line.
 */
export function writeLogged(
  write: Write,
  sessionId: number | null,
  now: Date,
  entryFor: (outcome: unknown) => { action: OwnerAction; detail: string } | null,
): Write {
  return (run, options) =>
    write((tx: DbTransaction) => {
      const outcome = run(tx);
      const entry = entryFor(outcome);
      if (entry !== null) recordActivity(tx, { ...entry, sessionId }, now);
      return outcome;
    }, options);
}

/**
 * An entry's detail as it is written (one short line, kept as written), and read back by the log's
 * page to say it in the owner's language. Entries written before a form existed read as plain text.
 */
export const activityDetail = {
  /** The order acted on; its page's timeline lists the entries that name it. */
  order: (id: number) => `order ${id}`,
  passkey: (name: string) => `passkey “${name}”`,
  message: (id: number) => `message ${id}`,
  export: (rows: number) => `leads (${rows} rows)`,
  erasure: (maskedEmail: string, rows: number, ordersKept: number) => `${maskedEmail}: ${rows} rows, ${ordersKept} orders kept`,
  codesLeft: (left: number) => `${left} recovery codes left`,
  invite: (minutes: number) => `usable once, for ${minutes} minutes`,
  session: (id: number, label: string) => `#${id} ${label}`,
  /** A published version of the content; a restore also names the version it brought back. */
  version: (version: number, restoredFrom: number | null = null) =>
    restoredFrom === null ? `version ${version}` : `version ${version} from ${restoredFrom}`,
  /** A review and its order; a refusal adds its reason's code, a reply its first words. */
  review: (id: number, orderId: number, after?: { reason: string } | { reply: string }) => {
    const base = `review ${id} (order ${orderId})`;
    if (after === undefined) return base;
    if ("reason" in after) return `${base}: ${after.reason}`;
    const reply = after.reply.replace(/\s+/g, " ");
    return `${base}: “${reply.length > QUOTE_MAX ? `${reply.slice(0, QUOTE_MAX - 1)}…` : reply}”`;
  },
  posters: (count: number) => `${count} posters`,
};

const QUOTE_MAX = 80;

/**
 * For `writeLogged`: the entry of a write whose outcome is a published version of the content (a
 * publish, a restore, an import); none when it published nothing.
 */
export function versionEntry(action: OwnerAction) {
  return (outcome: unknown): { action: OwnerAction; detail: string } | null => {
    const version = versionOf(outcome);
    return version === null ? null : { action, detail: activityDetail.version(version.version, version.restoredFrom) };
  };
}

function versionOf(outcome: unknown): { version: number; restoredFrom: number | null } | null {
  if (typeof outcome !== "object" || outcome === null) return null;
  if ("state" in outcome) return outcome.state === "published" && "version" in outcome ? versionOf(outcome.version) : null;
  if (!("version" in outcome) || typeof outcome.version !== "number") return null;
  const from = "restoredFrom" in outcome && typeof outcome.restoredFrom === "number" ? outcome.restoredFrom : null;
  return { version: outcome.version, restoredFrom: from };
}

export type ActivityDetail =
  | { kind: "order"; id: number }
  | { kind: "licence"; key: string }
  | { kind: "passkey"; name: string }
  | { kind: "message"; id: number }
  | { kind: "export"; rows: number }
  | { kind: "erasure"; who: string; rows: number; ordersKept: number }
  | { kind: "codesLeft"; left: number }
  | { kind: "invite"; minutes: number }
  | { kind: "session"; id: number; label: string }
  | { kind: "version"; version: number; restoredFrom: number | null }
  | { kind: "review"; id: number; orderId: number | null; reason: string | null; reply: string | null }
  | { kind: "posters"; count: number }
  | { kind: "text"; text: string };

/** How each form of `activityDetail` reads back; a form some actions alone write is read for them alone. */
const READERS: { action?: OwnerAction; pattern: RegExp; read: (m: RegExpExecArray) => ActivityDetail }[] = [
  { pattern: /^order (\d{1,12})$/, read: (m) => ({ kind: "order", id: Number(m[1]) }) },
  // What the command line's licence actions wrote before they named the order.
  { pattern: /^licence ([A-Z0-9-]{25,29})$/, read: (m) => ({ kind: "licence", key: m[1] ?? "" }) },
  { pattern: /^passkey “(.*)”$/, read: (m) => ({ kind: "passkey", name: m[1] ?? "" }) },
  { action: "mail-retry", pattern: /^message (\d{1,12})$/, read: (m) => ({ kind: "message", id: Number(m[1]) }) },
  { action: "export", pattern: /^leads \((\d+) rows\)$/, read: (m) => ({ kind: "export", rows: Number(m[1]) }) },
  {
    action: "erasure",
    pattern: /^(.*): (\d+) rows, (\d+) orders kept$/,
    read: (m) => ({ kind: "erasure", who: m[1] ?? "", rows: Number(m[2]), ordersKept: Number(m[3]) }),
  },
  { action: "sign-in-recovery", pattern: /^(\d+) recovery codes left$/, read: (m) => ({ kind: "codesLeft", left: Number(m[1]) }) },
  { action: "invite-created", pattern: /^usable once, for (\d+) minutes$/, read: (m) => ({ kind: "invite", minutes: Number(m[1]) }) },
  {
    pattern: /^version (\d{1,12})(?: from (\d{1,12}))?$/,
    read: (m) => ({ kind: "version", version: Number(m[1]), restoredFrom: m[2] === undefined ? null : Number(m[2]) }),
  },
  // Entries written before they named the order read as the review alone.
  {
    action: "review-refused",
    pattern: /^review (\d{1,12})(?: \(order (\d{1,12})\))?: ([a-z-]{1,40})$/,
    read: (m) => ({
      kind: "review",
      id: Number(m[1]),
      orderId: m[2] === undefined ? null : Number(m[2]),
      reason: m[3] ?? null,
      reply: null,
    }),
  },
  {
    action: "review-reply",
    pattern: /^review (\d{1,12})(?: \(order (\d{1,12})\))?(?:: “(.*)”)?$/,
    read: (m) => ({
      kind: "review",
      id: Number(m[1]),
      orderId: m[2] === undefined ? null : Number(m[2]),
      reason: null,
      reply: m[3] ?? null,
    }),
  },
  {
    pattern: /^review (\d{1,12})(?: \(order (\d{1,12})\))?$/,
    read: (m) => ({ kind: "review", id: Number(m[1]), orderId: m[2] === undefined ? null : Number(m[2]), reason: null, reply: null }),
  },
  { action: "media-uploaded", pattern: /^(\d{1,6}) posters$/, read: (m) => ({ kind: "posters", count: Number(m[1]) }) },
  { action: "session-ended", pattern: /^#(\d{1,12}) (.*)$/, read: (m) => ({ kind: "session", id: Number(m[1]), label: m[2] ?? "" }) },
];

/** What an entry's detail says, for the log's page; anything else (a session's browser at sign-out) is plain text. */
export function readActivityDetail(action: OwnerAction, detail: string): ActivityDetail {
  for (const reader of READERS) {
    if (reader.action !== undefined && reader.action !== action) continue;
    const m = reader.pattern.exec(detail);
    if (m !== null) return reader.read(m);
  }
  return { kind: "text", text: detail };
}
