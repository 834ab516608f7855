import { errorText } from "../../../shared/error-text";
import type { Logger } from "../../platform/log";
import { duePeriod } from "./period";
import { type DigestDeps, digestsStartedAt, queueDigest } from "./service";

/** How often the first process looks whether a digest is due: its hour is kept within a minute. */
export const DIGEST_CHECK_EVERY_MS = 60 * 1000;

export type DigestRun =
  /** DIGEST=off, or no OWNER_EMAIL to send it to. */
  | { status: "off" }
  | { status: "not-due" }
  | { status: "before-start"; period: string }
  | { status: "queued" | "already"; period: string; mailId: number }
  | { status: "failed"; error: string };

export type DigestJob = {
  runNow(): Promise<DigestRun>;
  /** No more looks; resolves once the look in progress, if any, is over. */
  stop(): Promise<void>;
};

/**
 * The owner's digest, scheduled by the first process only (the one that sends the e-mail), like the
 * audience roll-ups and the retention sweep. It looks now (a server started after the hour sends the
 * day's missed digest at once) and then every minute; queueDigest makes sure a period is queued once
 * whoever else looks. With DIGEST=off or without OWNER_EMAIL it does nothing.
 */
export function startDigests(deps: DigestDeps & { log: Logger; mailer: { wake(): void } }, everyMs = DIGEST_CHECK_EVERY_MS): DigestJob {
  const { log } = deps;
  let startedAt: Date | null = null;
  let running: Promise<DigestRun> | null = null;
  let lastLook = "";

  const check = async (): Promise<DigestRun> => {
    if (deps.config.digest.frequency === "off" || deps.config.mail.ownerEmail === undefined) return { status: "off" };
    const now = deps.now();
    // Recorded at the first look, due or not: the week's digest covers a site started on its Tuesday.
    startedAt ??= await digestsStartedAt(deps.db, deps.write, now);
    const period = duePeriod(deps.config.digest, now);
    if (period === null) return { status: "not-due" };
    if (period.to.getTime() <= startedAt.getTime()) return { status: "before-start", period: period.key };
    const outcome = await queueDigest(deps, period, { byHand: false });
    if (outcome.status === "no-owner-email") return { status: "off" };
    if (outcome.status === "queued") {
      log.info("digest queued", { period: period.key, frequency: period.frequency, mailId: outcome.mailId });
      deps.mailer.wake();
    }
    return { status: outcome.status, period: period.key, mailId: outcome.mailId };
  };

  /** Looks once more, after the look in progress if any (the minute's tick, the first look). */
  const runNow = async (): Promise<DigestRun> => {
    while (running !== null) await running;
    running = check()
      .then((run) => {
        // What each look found, when it changes (not once a minute): "already" after a restart, "off".
        const look = JSON.stringify(run);
        if (look !== lastLook) log.debug("digest: looked", run);
        lastLook = look;
        return run;
      })
      .catch((error: unknown): DigestRun => {
        const message = errorText(error);
        // A busy database only delays the digest to the next minute.
        log.warn("digest: not queued, will retry", { error: message });
        return { status: "failed", error: message };
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  void runNow();
  const timer = setInterval(() => void runNow(), everyMs);
  // The timer alone must not keep a process alive (tests, a server shutting down).
  timer.unref?.();
  return {
    runNow,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
