import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailLeads, orders } from "../../db/schema";
import type { Config } from "../config";
import type { Logger } from "../log";
import type { Locale } from "../../shared/locales";
// The e-mail templates (React Email) are loaded with the first message, not at start-up.
const loadCompose = () => import("./compose");
import type { MailContext } from "./templates/messages";
import { claimDue, markFinal, markRetry, markSent, resumeAfterRestart, type OutboxRow } from "./outbox";
import { MailSendError, type MailTransport } from "./transport";

/** Temporary failures are retried this long (a mail server down for a day still gets the message). */
export const GIVE_UP_AFTER_MS = 72 * 60 * 60 * 1000;
/** First retry after 30 s, then doubling, never more than an hour apart. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
}
/**
 * Tries before a temporary failure becomes final: the waits between them add up to GIVE_UP_AFTER_MS.
 * Counted in attempts rather than from the message's creation, so the owner's `mail retry` of an old
 * message gets a whole new series of tries.
 */
export const MAX_ATTEMPTS = (() => {
  let waited = 0;
  let failures = 0;
  while (waited < GIVE_UP_AFTER_MS) waited += retryDelayMs(++failures);
  return failures + 1;
})();
/** How long a claimed message stays with this sender; longer than the SMTP timeouts add up to. */
export const LEASE_MS = 2 * 60 * 1000;
/** Another process (the CLI's retry, a second server) may queue mail: look for it this often. */
export const POLL_MS = 2000;
const BATCH = 20;

export type MailSender = {
  /** Where mail goes, for the start-up log line. */
  describe: string;
  /** Something was queued: deliver it now rather than at the next poll. */
  wake(): void;
  start(): void;
  /** Stops polling and waits for the sends in progress. */
  stop(): Promise<void>;
  /** Delivers everything due now, once; resolves with how many messages were handled. */
  deliverDue(): Promise<number>;
};

export function createMailSender(deps: { db: Db; config: Config; log: Logger; transport: MailTransport; now: () => Date }): MailSender {
  const { db, config, log, transport, now } = deps;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<number> | null = null;
  let again = false;
  // Texts and formatters per language, built on first use; the configuration does not change while running.
  const contexts = new Map<Locale, MailContext>();

  const deliverOne = async (row: OutboxRow): Promise<void> => {
    const skip = reasonToSkip(db, row);
    if (skip !== null) {
      markFinal(db, row.id, "cancelled", skip);
      log.info("mail cancelled", { id: row.id, kind: row.kind, reason: skip });
      return;
    }
    try {
      const mail = await (await loadCompose()).composeMail(row, config, contexts);
      if (mail === null) {
        markFinal(db, row.id, "failed", "unreadable payload");
        log.error("mail not composed", { id: row.id, kind: row.kind });
        return;
      }
      await transport.send(mail);
      markSent(db, row.id, now());
      log.info("mail sent", { id: row.id, kind: row.kind, attempts: row.attempts });
    } catch (error) {
      const failure = error instanceof MailSendError ? error : new MailSendError(error instanceof Error ? error.message : String(error), false);
      const at = now();
      if (failure.permanent) {
        markFinal(db, row.id, "failed", failure.message);
        log.warn("mail refused", { id: row.id, kind: row.kind, reason: failure.message });
      } else if (row.attempts >= MAX_ATTEMPTS) {
        markFinal(db, row.id, "failed", `gave up after ${row.attempts} attempts: ${failure.message}`);
        log.warn("mail given up", { id: row.id, kind: row.kind, reason: failure.message });
      } else {
        const delay = retryDelayMs(row.attempts);
        markRetry(db, row.id, new Date(at.getTime() + delay), failure.message);
        log.warn("mail deferred", { id: row.id, kind: row.kind, retryInSeconds: Math.round(delay / 1000), reason: failure.message });
      }
    }
  };

  const drain = async (): Promise<number> => {
    let handled = 0;
    for (;;) {
      const rows = claimDue(db, now(), BATCH, LEASE_MS, process.pid);
      if (rows.length === 0) return handled;
      await Promise.all(rows.map(deliverOne));
      handled += rows.length;
    }
  };

  const deliverDue = (): Promise<number> => {
    if (inFlight !== null) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await drain();
        } while (again);
      } catch (error) {
        // The database was busy or closing: the rows stay due and the next poll takes them.
        log.error("mail sender failed", { error: error instanceof Error ? error.message : String(error) });
      } finally {
        inFlight = null;
      }
      return total;
    })();
    return inFlight;
  };

  const schedule = () => {
    if (!running) return;
    timer = setTimeout(() => void deliverDue().finally(schedule), POLL_MS);
  };

  return {
    describe: transport.describe,
    wake() {
      if (running) void deliverDue();
    },
    start() {
      if (running) return;
      running = true;
      // Messages left behind by a previous run (a crash mid-send, a restart during a retry wait) go out now.
      try {
        const resumed = resumeAfterRestart(db, now(), isAlive);
        if (resumed > 0) log.info("mail resumed", { messages: resumed });
      } catch (error) {
        log.error("mail resume failed", { error: error instanceof Error ? error.message : String(error) });
      }
      void deliverDue().finally(schedule);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await inFlight;
      transport.close();
    },
    deliverDue,
  };
}

/** A message that must not go out any more: an unsubscribed lead, a refunded order's access. */
function reasonToSkip(db: Db, row: OutboxRow): string | null {
  if (row.kind === "demo" && row.leadId !== null) {
    const lead = db.select({ unsubscribedAt: emailLeads.unsubscribedAt }).from(emailLeads).where(eq(emailLeads.id, row.leadId)).get();
    if (lead?.unsubscribedAt != null) return "unsubscribed";
  }
  if (row.kind === "access" && row.orderId !== null) {
    const order = db.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId)).get();
    if (order?.status === "refunded") return "order refunded before delivery";
  }
  return null;
}

/** Whether a process exists on this machine (the data folder is local, so its senders are too). */
function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}
