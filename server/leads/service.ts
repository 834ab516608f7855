import { createHmac, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { emailLeads } from "../../db/schema";
import type { Write } from "../../db/writer";
import { enqueueMail } from "../mail/outbox";
import type { Lead } from "../../shared/schemas/leads";

/**
 * Stores a lead. The insert is committed (and, with synchronous=FULL, on disk) before this returns,
 * so an address the visitor got a success for is never lost (issue 3). An address already stored for
 * the same source is left as it was: the caller answers the same way, giving no hint it existed.
 */
export function recordLead(write: Write, lead: Lead & { ipHash: string; now: Date }, mailDomain: string): Promise<{ created: boolean }> {
  // The demo e-mail is queued by the same transaction: a stored lead always has its message, and
  // an address already known (the unique index) gets nothing new.
  return write((tx) => {
    const unsubscribeToken = randomBytes(16).toString("hex");
    const [inserted] = tx
      .insert(emailLeads)
      .values({ email: lead.email, source: lead.source, ipHash: lead.ipHash, locale: lead.locale, createdAt: lead.now, unsubscribeToken })
      .onConflictDoNothing({ target: [emailLeads.email, emailLeads.source] })
      .returning({ id: emailLeads.id })
      .all();
    if (inserted === undefined) return { created: false };
    enqueueMail(tx, mailDomain, { kind: "demo", recipient: lead.email, locale: lead.locale, leadId: inserted.id, payload: { unsubscribeToken } }, lead.now);
    return { created: true };
  });
}

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
