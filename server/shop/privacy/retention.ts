import { inArray, lt } from "drizzle-orm";
import { accessResends, chatMessages, emailLeads, mailOutbox, reviews } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import { errorText } from "../../../shared/error-text";
import type { Config } from "../../platform/config";
import type { Logger } from "../../platform/log";
import { type MailFilesRemoved, removeMailFiles } from "../mail/mail-files";
import { bumpProofStamp } from "../reviews/store";

// Data retention: what the privacy page says is kept for a limited time is deleted when
// that time is up, by the server itself, at start-up and then every hour. Several processes on one
// data folder may all run it: each delete only removes what is due, so running it twice is harmless.

const DAY_MS = 24 * 60 * 60 * 1000;
/** The access-resend limit reads the last 24 hours (licenses/service.ts); older rows serve nothing. */
export const ACCESS_RESEND_RETENTION_MS = DAY_MS;
/**
 * Hourly, so that nothing outlives its period by more than an hour: run daily, a resend request the
 * privacy page says is kept 24 hours stayed up to 48.
 */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** The review pages (`/avis`) promise a review stays five years at most: counted from when it was written. */
export const REVIEW_RETENTION_DAYS = 5 * 365 + 1;

export type RetentionResult = {
  leads: number;
  leadMails: number;
  /** The demo e-mails' .eml files (mail folder of the file transport). */
  leadMailFiles: MailFilesRemoved;
  chatMessages: number;
  accessResends: number;
  reviews: number;
};

/**
 * Deletes what has outlived its retention at `now`, in one transaction, then the files of the
 * e-mails it deleted from `mailDir` (the file transport's folder).
 */
export async function deleteExpiredData(
  write: Write,
  retention: Config["retention"],
  mailDir: string,
  now: Date,
): Promise<RetentionResult> {
  const leadCutoff = new Date(now.getTime() - retention.leadDays * DAY_MS);
  const chatCutoff = new Date(now.getTime() - retention.chatDays * DAY_MS);
  const resendCutoff = new Date(now.getTime() - ACCESS_RESEND_RETENTION_MS);
  const reviewCutoff = new Date(now.getTime() - REVIEW_RETENTION_DAYS * DAY_MS);
  const { leadMailIds, ...rows } = await write((tx) => {
    const expired = tx
      .select({ id: emailLeads.id })
      .from(emailLeads)
      .where(lt(emailLeads.createdAt, leadCutoff))
      .all()
      .map((r) => r.id);
    // The demo e-mail goes with its lead: it holds the address (and the foreign key requires it).
    const leadMails =
      expired.length === 0 ? [] : tx.delete(mailOutbox).where(inArray(mailOutbox.leadId, expired)).returning({ id: mailOutbox.id }).all();
    const leads =
      expired.length === 0 ? [] : tx.delete(emailLeads).where(inArray(emailLeads.id, expired)).returning({ id: emailLeads.id }).all();
    const chats = tx.delete(chatMessages).where(lt(chatMessages.createdAt, chatCutoff)).returning({ id: chatMessages.id }).all();
    const resends = tx.delete(accessResends).where(lt(accessResends.createdAt, resendCutoff)).returning({ id: accessResends.id }).all();
    const oldReviews = tx.delete(reviews).where(lt(reviews.createdAt, reviewCutoff)).returning({ status: reviews.status }).all();
    // A published one leaves the pages: every process rebuilds them, as for any change they show.
    if (oldReviews.some((r) => r.status === "published")) bumpProofStamp(tx, now);
    return {
      reviews: oldReviews.length,
      leads: leads.length,
      leadMails: leadMails.length,
      chatMessages: chats.length,
      accessResends: resends.length,
      leadMailIds: leadMails.map((m) => m.id),
    };
  });
  // After the commit (the transaction may run more than once): the file holds the address too.
  return { ...rows, leadMailFiles: removeMailFiles(mailDir, leadMailIds) };
}

export type RetentionJob = { runNow(): Promise<RetentionResult | null>; stop(): void };

/**
 * Runs the deletion now (resolving once it is done, so a server starts without expired data) and
 * then every `intervalMs` (an hour) while the server runs.
 */
export async function startRetention(
  deps: {
    write: Write;
    config: Pick<Config, "retention" | "mail">;
    log: Logger;
    now: () => Date;
    /** The audience counting's own deletions (server/shop/analytics/retention.ts), in batches of their own. */
    analytics?: (now: Date) => Promise<{ events: number; keys: number }>;
  },
  intervalMs = RETENTION_INTERVAL_MS,
): Promise<RetentionJob> {
  const runNow = async (): Promise<RetentionResult | null> => {
    try {
      if (deps.analytics !== undefined) {
        const analytics = await deps.analytics(deps.now());
        if (analytics.events + analytics.keys > 0) deps.log.info("retention: audience events and visitor keys deleted", analytics);
      }
      const result = await deleteExpiredData(deps.write, deps.config.retention, deps.config.mail.dir, deps.now());
      const { leadMailFiles, ...counts } = result;
      if (result.leads + result.chatMessages + result.accessResends + result.reviews > 0)
        deps.log.info("retention: expired data deleted", { ...counts, leadMailFiles: leadMailFiles.deleted });
      // The rows are gone, so no later run will find these files: the owner must hear of them.
      for (const f of leadMailFiles.failed)
        deps.log.error("retention: e-mail file not deleted, delete it by hand", { path: f.path, reason: f.reason });
      return result;
    } catch (error) {
      // A busy database (a long backup) only delays the deletion to the next run.
      deps.log.warn("retention: deletion failed, will retry", { error: errorText(error) });
      return null;
    }
  };
  await runNow();
  const timer = setInterval(() => void runNow(), intervalMs);
  // The timer alone must not keep a process alive (tests, a server shutting down).
  timer.unref?.();
  return { runNow, stop: () => clearInterval(timer) };
}
