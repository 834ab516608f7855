import { inArray, lt } from "drizzle-orm";
import type { Write } from "../../db/writer";
import { accessResends, chatMessages, emailLeads, mailOutbox } from "../../db/schema";
import type { Config } from "../config";
import type { Logger } from "../log";

// Data retention (issue 12): what the privacy page says is kept for a limited time is deleted when
// that time is up, by the server itself, at start-up and then once a day. Several processes on one
// data folder may all run it: each delete only removes what is due, so running it twice is harmless.

const DAY_MS = 24 * 60 * 60 * 1000;
/** The access-resend limit reads the last 24 hours (licenses/service.ts); older rows serve nothing. */
export const ACCESS_RESEND_RETENTION_MS = DAY_MS;
export const RETENTION_INTERVAL_MS = DAY_MS;

export type RetentionResult = { leads: number; leadMails: number; chatMessages: number; accessResends: number };

/** Deletes what has outlived its retention at `now`, in one transaction. */
export function deleteExpiredData(write: Write, retention: Config["retention"], now: Date): Promise<RetentionResult> {
  const leadCutoff = new Date(now.getTime() - retention.leadDays * DAY_MS);
  const chatCutoff = new Date(now.getTime() - retention.chatDays * DAY_MS);
  const resendCutoff = new Date(now.getTime() - ACCESS_RESEND_RETENTION_MS);
  return write((tx) => {
      const expired = tx.select({ id: emailLeads.id }).from(emailLeads).where(lt(emailLeads.createdAt, leadCutoff)).all().map((r) => r.id);
      // The demo e-mail goes with its lead: it holds the address (and the foreign key requires it).
      const leadMails = expired.length === 0 ? [] : tx.delete(mailOutbox).where(inArray(mailOutbox.leadId, expired)).returning({ id: mailOutbox.id }).all();
      const leads = expired.length === 0 ? [] : tx.delete(emailLeads).where(inArray(emailLeads.id, expired)).returning({ id: emailLeads.id }).all();
      const chats = tx.delete(chatMessages).where(lt(chatMessages.createdAt, chatCutoff)).returning({ id: chatMessages.id }).all();
      const resends = tx.delete(accessResends).where(lt(accessResends.createdAt, resendCutoff)).returning({ id: accessResends.id }).all();
      return { leads: leads.length, leadMails: leadMails.length, chatMessages: chats.length, accessResends: resends.length };
  });
}

export type RetentionJob = { runNow(): Promise<RetentionResult | null>; stop(): void };

/**
 * Runs the deletion now (resolving once it is done, so a server starts without expired data) and
 * then every `intervalMs` (a day) while the server runs.
 */
export async function startRetention(
  deps: { write: Write; config: Pick<Config, "retention">; log: Logger; now: () => Date },
  intervalMs = RETENTION_INTERVAL_MS,
): Promise<RetentionJob> {
  const runNow = async (): Promise<RetentionResult | null> => {
    try {
      const result = await deleteExpiredData(deps.write, deps.config.retention, deps.now());
      if (result.leads + result.chatMessages + result.accessResends > 0) deps.log.info("retention: expired data deleted", result);
      return result;
    } catch (error) {
      // A busy database (a long backup) only delays the deletion to the next run.
      deps.log.warn("retention: deletion failed, will retry", { error: error instanceof Error ? error.message : String(error) });
      return null;
    }
  };
  await runNow();
  const timer = setInterval(() => void runNow(), intervalMs);
  // The daily timer alone must not keep a process alive (tests, a server shutting down).
  timer.unref?.();
  return { runNow, stop: () => clearInterval(timer) };
}
