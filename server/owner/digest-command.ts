import * as v from "valibot";
import type { Db } from "../../db/client";
import type { Write } from "../../db/writer";
import { dateIn, SELLER_TIME_ZONE } from "../../shared/offer";
import type { Config } from "../platform/config";
import type { OutboxRow } from "../shop/mail/outbox";
import { contentNow } from "../site/content/live";
import { recordActivity } from "./console/activity";
import { latestOwnerLocale } from "./console/sessions";
import { type DigestFrequency, type DigestPeriod, dayPeriod, lastEndedPeriod, weekPeriod } from "./digest/period";
import { digestListsReader, digestPayload, queueDigest, queuedDigest } from "./digest/service";

/** A calendar date that exists (2026-02-30 does not). */
const CalendarDate = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/),
  v.check((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s),
);

/** The options `preview` and `send` take. */
export type DigestOptions = { date?: string; daily?: boolean; weekly?: boolean };

/** The period the options name: `--date` (a day, or the ISO week holding it), else the last one that ended. */
function periodOf(options: DigestOptions, usage: string, config: Config, now: Date): DigestPeriod | string {
  if (options.daily === true && options.weekly === true) return `--daily or --weekly, not both: ${usage}`;
  const frequency: DigestFrequency =
    options.daily === true ? "daily" : options.weekly === true ? "weekly" : config.digest.frequency === "weekly" ? "weekly" : "daily";
  if (options.date !== undefined && !v.is(CalendarDate, options.date)) return `--date needs a date such as 2026-11-24: ${usage}`;
  const date = options.date ?? null;
  const period = date === null ? lastEndedPeriod(frequency, now) : frequency === "daily" ? dayPeriod(date) : weekPeriod(date);
  if (period.to.getTime() > now.getTime()) {
    const today = dateIn(SELLER_TIME_ZONE, now);
    return `The ${frequency === "daily" ? "day" : "week"} ${period.key} has not ended yet (today is ${today}, Paris time): a digest reports on a period that ended.`;
  }
  return period;
}

/**
 * `site digest preview|send`: the owner's digest e-mail of a period that ended, by hand. `preview`
 * prints it as the e-mail's text part and queues nothing; `send` queues it to OWNER_EMAIL through the
 * outbox (the running server sends it within seconds), once per period, as the server's own would be.
 */
export async function digestCommand(
  db: Db,
  write: Write,
  config: Config,
  action: "preview" | "send",
  options: DigestOptions,
  usage: string,
  now: () => Date,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const period = periodOf(options, usage, config, now());
  if (typeof period === "string") {
    err(period);
    return 2;
  }
  const deps = { db, write, config, now };
  if (action === "preview") {
    const at = now();
    const row: OutboxRow = {
      id: 0,
      kind: "owner-digest",
      recipient: config.mail.ownerEmail ?? "OWNER_EMAIL (not set)",
      locale: latestOwnerLocale(db),
      payload: JSON.stringify(await digestPayload(deps, period)),
      messageId: `<digest-preview@${config.mail.domain}>`,
      status: "pending",
      attempts: 0,
      nextAttemptAt: at,
      leaseOwner: null,
      leaseHolder: null,
      lastError: null,
      orderId: null,
      leadId: null,
      createdAt: at,
      sentAt: null,
    };
    // The templates (React Email) are loaded by this command only, not by every command.
    const { composeMail } = await import("../shop/mail/compose");
    const mail = await composeMail(
      row,
      config,
      contentNow(db, config.site).current(),
      undefined,
      undefined,
      undefined,
      digestListsReader(db, now, config.tls),
    );
    if (mail === null) throw new Error("the digest could not be written");
    out(`To: ${row.recipient}\nSubject: ${mail.subject}\n\n${mail.text}\n`);
    const queued = queuedDigest(db, period.key);
    if (queued !== null) out(`\n(The digest of ${period.key} was queued on ${queued.queuedAt.toISOString()}, message ${queued.mailId}.)\n`);
    return 0;
  }
  const outcome = await queueDigest(deps, period, {
    byHand: true,
    also: (tx) => recordActivity(tx, { action: "digest-sent", detail: period.key, sessionId: null }, now()),
  });
  if (outcome.status === "no-owner-email") {
    err("OWNER_EMAIL is not set: the digest has no address to go to. Set it (as for the server) and run the command again.");
    return 1;
  }
  if (outcome.status === "already") {
    err(
      `The digest of ${period.key} was queued already on ${outcome.queuedAt.toISOString()} (message ${outcome.mailId}): a period's digest goes once. 'site mail list' shows it; 'site mail retry ${outcome.mailId}' sends it again if it failed.`,
    );
    return 1;
  }
  out(`Digest of ${period.key} queued to ${outcome.recipient} (message ${outcome.mailId}); the running server sends it within seconds.\n`);
  return 0;
}
