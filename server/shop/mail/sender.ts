import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { isStorageUnavailable } from "../../../db/storage";
import type { Write } from "../../../db/writer";
import { emailLeads, orders } from "../../../db/schema";
import type { Config } from "../../platform/config";
import type { Logger } from "../../platform/log";
import type { MailLinks } from "../licenses/tokens";
import type { MailPaperwork } from "../paperwork/mail-paperwork";
import type { Locale } from "../../../shared/locales";
// The e-mail templates (React Email) are loaded with the first message, not at start-up.
const loadCompose = () => import("./compose");
import type { MailContext } from "./templates/messages";
import type { DigestListsReader } from "./compose";
import { claimDue, recordOutcome, resumeAfterRestart, type MailOutcome, type OutboxRow } from "./outbox";
import { MailSendError, type MailTransport } from "./transport";
import { errorText } from "../../../shared/error-text";

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
/**
 * How long a claimed message stays with this sender; longer than the SMTP timeouts add up to
 * (transport.ts), so no other sender takes a message that is still being answered. A sender that
 * died gives its messages back at the next start, whatever the lease (resumeAfterRestart).
 */
export const LEASE_MS = 20 * 60 * 1000;
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

export function createMailSender(deps: {
  db: Db;
  write: Write;
  config: Config;
  log: Logger;
  transport: MailTransport;
  now: () => Date;
  /** Signed links for the messages that carry one (the access e-mail's devices page); without, none. */
  links?: MailLinks;
  /** The invoices, credit notes and terms the buyers' e-mails attach; without, none. */
  paperwork?: MailPaperwork;
  /** The owner's digest's lists, read when it is written (server/owner/digest/); without, the digest leaves them out. */
  digestLists?: DigestListsReader;
}): MailSender {
  const { db, write, config, log, transport, now, links, paperwork, digestLists } = deps;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let starting: Promise<void> | null = null;
  let inFlight: Promise<number> | null = null;
  let again = false;
  // Texts and formatters per language, built on first use; the configuration does not change while running.
  const contexts = new Map<Locale, MailContext>();

  /** Sends one claimed message (or not) and says what became of it; writes nothing. */
  const attempt = async (row: OutboxRow): Promise<MailOutcome> => {
    const skip = reasonToSkip(db, row);
    if (skip !== null) {
      log.info("mail cancelled", { id: row.id, kind: row.kind, reason: skip });
      return { status: "cancelled", reason: skip };
    }
    try {
      const mail = await (await loadCompose()).composeMail(row, config, contexts, links, paperwork, digestLists);
      if (mail === null) {
        log.error("mail not composed", { id: row.id, kind: row.kind });
        return { status: "failed", reason: "unreadable payload" };
      }
      await transport.send(mail);
      log.info("mail sent", { id: row.id, kind: row.kind, attempts: row.attempts });
      return { status: "sent", at: now() };
    } catch (error) {
      const failure = error instanceof MailSendError ? error : new MailSendError(errorText(error), false);
      if (failure.permanent) {
        log.warn("mail refused", { id: row.id, kind: row.kind, reason: failure.message });
        return { status: "failed", reason: failure.message };
      }
      if (row.attempts >= MAX_ATTEMPTS) {
        log.warn("mail given up", { id: row.id, kind: row.kind, reason: failure.message });
        return { status: "failed", reason: `gave up after ${row.attempts} attempts: ${failure.message}` };
      }
      const delay = retryDelayMs(row.attempts);
      log.warn("mail deferred", { id: row.id, kind: row.kind, retryInSeconds: Math.round(delay / 1000), reason: failure.message });
      return { status: "pending", retryAt: new Date(now().getTime() + delay), reason: failure.message };
    }
  };

  const deliverOne = async (row: OutboxRow): Promise<void> => {
    const outcome = await attempt(row);
    // The message stays this sender's until its lease ends (claimDue set nextAttemptAt to that
    // time): the outcome may wait that long for another program's lock. A message sent but not
    // recorded as sent would go out again once the lease is over.
    const waitMs = Math.max(config.dbBusyWaitMs, row.nextAttemptAt.getTime() - now().getTime());
    try {
      const kept = await recordOutcome(write, row.id, outcome, { waitMs });
      // Erased while it was on its way: what the transport kept of it (a .eml file) goes too.
      if (!kept && outcome.status === "sent") {
        const removed = transport.discard(row.id);
        for (const f of removed.failed)
          log.warn("mail file of an erased message not deleted", { id: row.id, path: f.path, reason: f.reason });
      }
    } catch (error) {
      log.error("mail outcome not recorded", {
        id: row.id,
        kind: row.kind,
        outcome: outcome.status,
        error: errorText(error),
      });
    }
  };

  const drain = async (): Promise<number> => {
    let handled = 0;
    for (;;) {
      const rows = await claimDue(write, now(), BATCH, LEASE_MS, process.pid);
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
        // The database was locked by another program or closing: the rows stay due and the next
        // poll takes them.
        const message = errorText(error);
        if (isStorageUnavailable(error)) log.warn("mail waits for the database", { error: message });
        else log.error("mail sender failed", { error: message });
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
      starting = (async () => {
        // Messages left behind by a previous run (a crash mid-send, a restart during a retry wait) go out now.
        try {
          const resumed = await resumeAfterRestart(write, now(), isAlive);
          if (resumed > 0) log.info("mail resumed", { messages: resumed });
        } catch (error) {
          log[isStorageUnavailable(error) ? "warn" : "error"]("mail resume failed", {
            error: errorText(error),
          });
        }
        if (running) void deliverDue().finally(schedule);
      })();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await starting;
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
