import { createHmac, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import { emailLeads, mailOutbox } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import type { Lead } from "../../../shared/schemas/leads";
import { enqueueMail } from "../mail/outbox";

/**
 * A known address asking for the demo again gets it again (the first one may be lost in a spam
 * folder), but never twice within this window, which absorbs double submits and someone using the
 * form to flood an inbox (the decision record on repeat demo requests, in docs/decisions/).
 */
export const DEMO_REPEAT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * What a demo request did: a new lead with its demo e-mail, the demo queued again for a known
 * address, or nothing new (a demo queued within the window or still waiting to be sent, or an
 * address that unsubscribed). For the owner's log only: the visitor gets the same answer for all four.
 */
export type LeadOutcome = "new" | "sent-again" | "recently-sent" | "unsubscribed";

/**
 * Stores a lead and queues its demo e-mail in the same transaction, so a stored lead always has its
 * message; the insert is committed (and, with synchronous=FULL, on disk) before this returns, so an
 * address the visitor got a success for is never lost. An address already stored keeps its one row
 * (unique index), with the source of its first request, and gets the demo again under the rules
 * above, whichever form it used this time.
 */
export function recordLead(write: Write, lead: Lead & { ipHash: string; now: Date }, mailDomain: string): Promise<LeadOutcome> {
  return write((tx): LeadOutcome => {
    const queueDemo = (leadId: number, unsubscribeToken: string) =>
      enqueueMail(
        tx,
        mailDomain,
        { kind: "demo", recipient: lead.email, locale: lead.locale, leadId, payload: { unsubscribeToken } },
        lead.now,
      );
    const unsubscribeToken = newUnsubscribeToken();
    const [inserted] = tx
      .insert(emailLeads)
      .values({ email: lead.email, source: lead.source, ipHash: lead.ipHash, locale: lead.locale, createdAt: lead.now, unsubscribeToken })
      .onConflictDoNothing({ target: emailLeads.email })
      .returning({ id: emailLeads.id })
      .all();
    if (inserted !== undefined) {
      queueDemo(inserted.id, unsubscribeToken);
      return "new";
    }
    const known = tx
      .select({ id: emailLeads.id, unsubscribeToken: emailLeads.unsubscribeToken, unsubscribedAt: emailLeads.unsubscribedAt })
      .from(emailLeads)
      .where(eq(emailLeads.email, lead.email))
      .get();
    // The conflict means the row exists, and this transaction holds the write lock: it cannot be gone.
    if (known === undefined) throw new Error("lead vanished inside its own transaction");
    if (known.unsubscribedAt !== null) return "unsubscribed";
    const since = new Date(lead.now.getTime() - DEMO_REPEAT_WINDOW_MS);
    const pendingOrRecent = tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.leadId, known.id),
          eq(mailOutbox.kind, "demo"),
          or(gt(mailOutbox.createdAt, since), inArray(mailOutbox.status, ["pending", "sending"])),
        ),
      )
      .get();
    if (pendingOrRecent !== undefined) return "recently-sent";
    // Leads stored before unsubscribe links existed have no token yet: they get one now.
    if (known.unsubscribeToken === null) tx.update(emailLeads).set({ unsubscribeToken }).where(eq(emailLeads.id, known.id)).run();
    queueDemo(known.id, known.unsubscribeToken ?? unsubscribeToken);
    return "sent-again";
  });
}

const newUnsubscribeToken = () => randomBytes(16).toString("hex");

/** Marks the lead of an unsubscribe link; its address is never mailed again. false for an unknown token. */
export function unsubscribeLead(write: Write, token: string, now: Date): Promise<{ locale: string } | null> {
  return write((tx) => {
    const [lead] = tx
      .update(emailLeads)
      .set({ unsubscribedAt: sql`coalesce(${emailLeads.unsubscribedAt}, ${now.getTime()})` })
      .where(eq(emailLeads.unsubscribeToken, token))
      .returning({ locale: emailLeads.locale })
      .all();
    return lead ?? null;
  });
}

/** A keyed hash of the client address: lets the owner see repeats from one client without storing the IP. */
export function hashIp(secret: string, ip: string): string {
  return createHmac("sha256", secret).update(ip).digest("hex");
}

export const IP_HASH_SECRET_FILE = "ip-hash.secret";

/**
 * IP_HASH_SECRET when configured; otherwise a random secret generated once and kept in DATA_DIR, so
 * hashes stay comparable across restarts. Created with link() so that two processes starting at the
 * same time agree on one secret.
 */
export function loadIpHashSecret(configured: string | undefined, dataDir: string): string {
  if (configured !== undefined) return configured;
  const path = join(dataDir, IP_HASH_SECRET_FILE);
  const existing = readSecret(path);
  if (existing !== null) return existing;
  mkdirSync(dataDir, { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temp, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (error) {
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
  } finally {
    unlinkSync(temp);
  }
  const secret = readSecret(path);
  if (secret === null) throw new Error(`Could not read ${path}`);
  return secret;
}

function readSecret(path: string): string | null {
  try {
    const text = readFileSync(path, "utf8").trim();
    return text.length >= 16 ? text : null;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
    throw error;
  }
}
