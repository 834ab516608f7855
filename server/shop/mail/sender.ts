import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { emailLeads, orders } from "../../../db/schema";
import { isStorageUnavailable } from "../../../db/storage";
import { isBusyError, type Write } from "../../../db/writer";
import type { Locale } from "../../../shared/locales";
import type { Config } from "../../platform/config";
import type { Logger } from "../../platform/log";
import type { ContentSource } from "../../site/content/live";
import type { MailLinks } from "../licenses/tokens";
import type { MailPaperwork } from "../paperwork/mail-paperwork";

// The e-mail templates (React Email) are loaded with the first message, not at start-up.
const loadCompose = () => import("./compose");

import { errorText } from "../../../shared/error-text";
import type { DigestListsReader } from "./compose";
import { claimDue, type HeldRow, type MailOutcome, type OutboxRow, recordOutcome, renewLeases, resumeAfterRestart } from "./outbox";
import { judgeHolder, retireSender, senderIdentity } from "./sender-identity";
import type { MailContext } from "./templates/messages";
import { MailSendError, type MailTransport, SMTP_CONNECTIONS } from "./transport";

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
 * How long a claimed message stays with this sender when nothing is known of it (a row from before
 * holders were named, whose pid is now taken). It is renewed while the sender holds the message; a
 * sender known to be gone (its process ended, or its pid now belongs to another run or program)
 * gives its messages back at once, whatever the lease (sender-identity.ts).
 */
export const LEASE_MS = 5 * 60 * 1000;
const RENEW_EVERY_MS = LEASE_MS / 5;
/** Another process (the CLI's retry, a second server) may queue mail: look for it this often. */
export const POLL_MS = 2000;
/**
 * A message that has not gone through in this time is given up on (its connection closed) and tried
 * again later: the SMTP timeouts bound each silence, this bounds a server that answers a byte at a time.
 */
export const SEND_DEADLINE_MS = 3 * 60 * 1000;
/** At a stop, messages being sent get this long to finish before they are given up on. */
export const STOP_GRACE_MS = 5000;
/** How long a message's outcome waits for another program's lock on the database before it is kept for later. */
const OUTCOME_LOCK_WAIT_MS = 30_000;
/** Messages in flight at once, one per SMTP connection (transport.ts). */
const IN_FLIGHT = SMTP_CONNECTIONS;

export type MailSender = {
  /** Where mail goes, for the start-up log line. */
  describe: string;
  /** Something was queued: deliver it now rather than at the next poll. */
  wake(): void;
  start(): void;
  /**
   * Stops taking messages, gives those being sent STOP_GRACE_MS to finish, then gives up on the
   * rest (they are due again at the next start) and records what it can.
   */
  stop(): Promise<void>;
  /**
   * Delivers everything due, until the sender is idle: nothing being sent and nothing due (a message
   * whose retry is later waits). Resolves with how many messages were handled meanwhile.
   */
  deliverDue(): Promise<number>;
};

/** A message this sender holds: being sent, or sent (or failed) with its outcome not yet written. */
type Held = {
  row: OutboxRow;
  outcome: MailOutcome | null;
  abort: AbortController;
  /** Its outcome is being written now. */
  recording: boolean;
  /** The owner was told the outcome could not be written (said once). */
  reported: boolean;
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
  /** The published content the messages quote (product name, price, texts). */
  content: ContentSource;
}): MailSender {
  const { db, write, config, log, transport, now, links, paperwork, digestLists, content } = deps;
  // Named by more than the pid: a restarted container has the same (sender-identity.ts).
  const me = senderIdentity();
  let running = false;
  let stopping = false;
  // Bumped by stop(): a deliverDue() begun before it takes nothing more.
  let epoch = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let starting: Promise<void> | null = null;
  let claims: Promise<void> = Promise.resolve();
  let lastRenewal = 0;
  let handled = 0;
  let waitingForStorage = false;
  const held = new Map<number, Held>();
  const inFlight = new Set<Promise<void>>();
  // Texts and formatters per language, built on first use and again after a publish. A new map per
  // version: a message still being written with the previous version (sends run side by side)
  // fills the old map, never the new one.
  let contexts = { version: -1, byLocale: new Map<Locale, MailContext>() };

  /** Sends one claimed message (or not) and says what became of it; writes nothing. */
  const attempt = async (row: OutboxRow, signal: AbortSignal): Promise<MailOutcome> => {
    const skip = reasonToSkip(db, row);
    if (skip !== null) {
      log.info("mail cancelled", { id: row.id, kind: row.kind, reason: skip });
      return { status: "cancelled", reason: skip };
    }
    try {
      const published = content.current();
      if (published.version !== contexts.version) contexts = { version: published.version, byLocale: new Map() };
      const { byLocale } = contexts;
      const mail = await (await loadCompose()).composeMail(row, config, published, byLocale, links, paperwork, digestLists);
      if (mail === null) {
        log.error("mail not composed", { id: row.id, kind: row.kind });
        return { status: "failed", reason: "unreadable payload" };
      }
      await transport.send(mail, { signal });
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

  /**
   * Writes a held message's outcome. Until it is written the message stays this sender's, in memory:
   * a message the mail server took is never sent again because its "sent" could not be written (a
   * full disk, a lock held by another program). Another program's lock is waited for a while; a
   * storage failure is not (the next poll tries again). true once written.
   */
  const record = async (entry: Held): Promise<boolean> => {
    const { row, outcome } = entry;
    if (outcome === null || entry.recording) return false;
    entry.recording = true;
    const started = performance.now();
    try {
      for (;;) {
        try {
          const kept = await recordOutcome(write, row.id, outcome, { waitMs: config.dbBusyWaitMs });
          held.delete(row.id);
          if (entry.reported) log.info("mail outcome recorded", { id: row.id, kind: row.kind, outcome: outcome.status });
          // Erased while it was on its way: what the transport kept of it (a .eml file) goes too.
          if (!kept && outcome.status === "sent") {
            const removed = transport.discard(row.id);
            for (const f of removed.failed)
              log.warn("mail file of an erased message not deleted", { id: row.id, path: f.path, reason: f.reason });
          }
          return true;
        } catch (error) {
          if (isBusyError(error) && !stopping && performance.now() - started < OUTCOME_LOCK_WAIT_MS) {
            await Bun.sleep(100);
            continue;
          }
          if (!entry.reported) {
            entry.reported = true;
            log[isStorageUnavailable(error) ? "warn" : "error"]("mail outcome not recorded", {
              id: row.id,
              kind: row.kind,
              outcome: outcome.status,
              // It stays with this sender: written as soon as the database can be written again.
              kept: "until the database can be written",
              error: errorText(error),
            });
          }
          return false;
        }
      }
    } finally {
      entry.recording = false;
    }
  };

  /** Writes the outcomes kept for want of a writable database. */
  const flushOutcomes = async (): Promise<void> => {
    for (const entry of [...held.values()]) {
      if (entry.outcome === null || entry.recording) continue;
      // The first that fails tells: the database is not writable yet.
      if (!(await record(entry))) return;
    }
  };

  /** Keeps what this sender holds its own while it runs (lapses only for a sender out of sight). */
  const renewIfDue = async (): Promise<void> => {
    const at = now().getTime();
    if (held.size === 0 || at - lastRenewal < RENEW_EVERY_MS) return;
    try {
      await renewLeases(write, [...held.keys()], me, new Date(at + LEASE_MS));
      lastRenewal = at;
    } catch {
      // Not writable now: the messages' outcomes are not either, and the next poll tries both again.
    }
  };

  /** Whether a message held by another sender (or left by this one) may be taken. */
  const takeOver = (row: HeldRow): boolean => {
    const state = judgeHolder(me, row.leaseOwner, row.leaseHolder);
    if (state === "self") return !held.has(row.id);
    if (state === "alive") return false;
    if (state === "gone") return true;
    return row.nextAttemptAt.getTime() <= now().getTime();
  };

  const deliver = (row: OutboxRow): void => {
    const abort = new AbortController();
    const entry: Held = { row, outcome: null, abort, recording: false, reported: false };
    held.set(row.id, entry);
    const deadline = setTimeout(
      () => abort.abort(new MailSendError(`not sent within ${SEND_DEADLINE_MS / 1000} s`, false)),
      SEND_DEADLINE_MS,
    );
    const done: Promise<void> = (async () => {
      try {
        entry.outcome = await attempt(row, abort.signal);
      } finally {
        clearTimeout(deadline);
      }
      handled++;
      await record(entry);
    })()
      .catch((error: unknown) => log.error("mail sender failed", { id: row.id, error: errorText(error) }))
      .finally(() => {
        inFlight.delete(done);
        // A message done frees a connection for the next one due; nothing waits for a whole batch.
        if (running) void fill(() => running);
      });
    inFlight.add(done);
  };

  /** Takes due messages while a connection is free and `mayClaim` says so, and starts sending each. */
  const fill = (mayClaim: () => boolean): Promise<void> => {
    // One claim at a time, so that what this sender holds is known before it claims again.
    claims = claims.then(async () => {
      while (mayClaim() && inFlight.size < IN_FLIGHT) {
        let rows: OutboxRow[];
        try {
          rows = await claimDue(write, { now: now(), limit: IN_FLIGHT - inFlight.size, leaseMs: LEASE_MS, holder: me, takeOver });
        } catch (error) {
          // The database was locked by another program, full, or closing: the rows stay due and the
          // next poll takes them. Said once, not at every poll.
          const message = errorText(error);
          if (!isStorageUnavailable(error)) log.error("mail sender failed", { error: message });
          else if (!waitingForStorage) log.warn("mail waits for the database", { error: message });
          waitingForStorage ||= isStorageUnavailable(error);
          return;
        }
        waitingForStorage = false;
        if (rows.length === 0) return;
        for (const row of rows) deliver(row);
      }
    });
    return claims;
  };

  const tick = async (): Promise<void> => {
    await flushOutcomes();
    await renewIfDue();
    await fill(() => running);
  };

  const schedule = () => {
    if (!running) return;
    timer = setTimeout(() => void tick().finally(schedule), POLL_MS);
  };

  const deliverDue = async (): Promise<number> => {
    const before = handled;
    const begun = epoch;
    for (;;) {
      await flushOutcomes();
      await fill(() => epoch === begun);
      if (inFlight.size === 0) return handled - before;
      await Promise.race(inFlight);
    }
  };

  return {
    describe: transport.describe,
    wake() {
      if (running) void fill(() => running);
    },
    start() {
      if (running) return;
      running = true;
      starting = (async () => {
        // Messages left behind by a previous run (a crash mid-send, a restart during a retry wait) go out now.
        try {
          const resumed = await resumeAfterRestart(write, now(), takeOver);
          if (resumed > 0) log.info("mail resumed", { messages: resumed });
        } catch (error) {
          log[isStorageUnavailable(error) ? "warn" : "error"]("mail resume failed", {
            error: errorText(error),
          });
        }
        if (running) void tick().finally(schedule);
      })();
    },
    async stop() {
      running = false;
      stopping = true;
      epoch++;
      clearTimeout(timer);
      try {
        await starting;
        await claims;
        if (inFlight.size > 0) {
          await settledWithin(Promise.all(inFlight), STOP_GRACE_MS);
          // Given up on: due again at the next start. One the mail server had taken whole without
          // answering yet is the one case sent twice (with the same Message-ID).
          for (const entry of held.values())
            if (entry.outcome === null) entry.abort.abort(new MailSendError("the server stopped while it was being sent", false));
          await settledWithin(Promise.all(inFlight), 2000);
        }
        await flushOutcomes();
        transport.close();
      } finally {
        stopping = false;
        retireSender(me);
      }
    },
    deliverDue,
  };
}

/** Resolves when `promise` does or after `ms`, whichever comes first. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
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
