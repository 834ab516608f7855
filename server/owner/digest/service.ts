import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ownerDigests, siteSettings } from "../../../db/schema";
import type { DbTransaction, Write } from "../../../db/writer";
import type { Config } from "../../platform/config";
import type { TlsSettings } from "../../platform/tls/settings";
import { daysEnding } from "../../shop/analytics/day";
import { rollUpDue } from "../../shop/analytics/rollup";
import type { DigestListsReader } from "../../shop/mail/compose";
import { enqueueMail, type MailPayloads } from "../../shop/mail/outbox";
import type { DigestMailRow } from "../../shop/mail/templates/digest";
import { audienceOfDays } from "../console/audience";
import { certificateState, countsTestOrders, salesBetween } from "../console/overview";
import { countHandOvers, listHandOvers, mailAlerts } from "../console/people";
import { latestOwnerLocale } from "../console/sessions";
import type { DigestPeriod } from "./period";

// The owner's digest e-mail: the console's figures for a period that ended, queued through the
// e-mail outbox once per period. The period's row in owner_digests is written by the transaction
// that queues the message, and the period is its key: whoever queues it second (a restart, another
// process, the command line) finds it there and queues nothing.

/** How many of the period's handed-over questions the e-mail quotes; the rest are counted. */
export const DIGEST_QUESTIONS = 10;
/** How many failed and late messages it names (it counts them all). */
export const DIGEST_MAIL_ROWS = 5;
/** From when the server's digests count (site_settings): no digest of a period the site never ran in. */
const DIGEST_STARTED_AT = "digest_started_at";

import { readPublished } from "../../site/content/store";

export type DigestDeps = { db: Db; write: Write; config: Config; now: () => Date };

export type QueueOutcome =
  | { status: "queued"; mailId: number; recipient: string }
  | { status: "already"; mailId: number; queuedAt: Date; byHand: boolean }
  | { status: "no-owner-email" };

/** The period's digest as queued, or null when none was. */
export function queuedDigest(db: Db, period: string) {
  return db.select().from(ownerDigests).where(eq(ownerDigests.period, period)).get() ?? null;
}

/**
 * The figures of a period, read from the console's services now. The audience's daily totals of
 * today and yesterday are made again first, as the first process does every minute: a digest at
 * 00:05 sees the last minutes of the day before.
 */
export async function digestPayload(deps: DigestDeps, period: DigestPeriod): Promise<MailPayloads["owner-digest"]> {
  const { db, write, config } = deps;
  // The published currency (the owner's content), read when the digest is written.
  const { currency } = readPublished(db).document.offer;
  await rollUpDue(db, write, deps.now());
  const sales = salesBetween(db, period.from, period.to, countsTestOrders(config));
  // The audience is counted per UTC day (the Audience page's days): the period's dates as UTC days.
  const days = daysEnding(period.lastDay, period.frequency === "daily" ? 1 : 7);
  const audience = audienceOfDays(db, days, currency, config.analyticsMaxEventsPerDay, countsTestOrders(config));
  return {
    frequency: period.frequency,
    period: period.key,
    firstDay: period.firstDay,
    lastDay: period.lastDay,
    from: period.from.getTime(),
    to: period.to.getTime(),
    currency,
    sales,
    audience: {
      visitors: audience.funnel.visitors,
      pageviews: audience.totals.pageviews,
      paymentPage: audience.funnel.paymentPage,
      checkoutStarted: audience.funnel.checkoutStarted,
      paid: audience.funnel.paid,
      sources: audience.sources.slice(0, 5).map((s) => ({ key: s.key, visitors: s.visitors })),
    },
  };
}

/**
 * Queues a period's digest to OWNER_EMAIL, in the owner's language, unless that period's was queued
 * already. `also` runs in the same transaction (the command line's activity log entry).
 */
export async function queueDigest(
  deps: DigestDeps,
  period: DigestPeriod,
  options: { byHand: boolean; also?: (tx: DbTransaction) => void },
): Promise<QueueOutcome> {
  const { db, write, config } = deps;
  const recipient = config.mail.ownerEmail;
  if (recipient === undefined) return { status: "no-owner-email" };
  const before = queuedDigest(db, period.key);
  if (before !== null) return { status: "already", mailId: before.mailId, queuedAt: before.queuedAt, byHand: before.byHand };
  // Read outside the transaction, which holds the write lock only for the two inserts.
  const payload = await digestPayload(deps, period);
  const locale = latestOwnerLocale(db);
  const now = deps.now();
  return write((tx): QueueOutcome => {
    // Checked again under the lock: another process may have queued it since the read above.
    const queued = tx.select().from(ownerDigests).where(eq(ownerDigests.period, period.key)).get();
    if (queued !== undefined) return { status: "already", mailId: queued.mailId, queuedAt: queued.queuedAt, byHand: queued.byHand };
    const mailId = enqueueMail(tx, config.mail.domain, { kind: "owner-digest", recipient, locale, payload }, now);
    tx.insert(ownerDigests)
      .values({ period: period.key, frequency: period.frequency, mailId, queuedAt: now, byHand: options.byHand })
      .run();
    options.also?.(tx);
    return { status: "queued", mailId, recipient };
  });
}

/**
 * When the server's digests began on this data folder: recorded by the first server start that runs
 * them, then only read. A period that ended before is not reported (the site did not run in it).
 */
export async function digestsStartedAt(db: Db, write: Write, now: Date): Promise<Date> {
  const read = () =>
    db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, DIGEST_STARTED_AT)).get()?.value;
  const recorded =
    read() ??
    (await write((tx) => {
      tx.insert(siteSettings)
        .values({ key: DIGEST_STARTED_AT, value: String(now.getTime()), createdAt: now })
        .onConflictDoNothing()
        .run();
      return tx.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, DIGEST_STARTED_AT)).get()?.value;
    }));
  const ms = Number(recorded);
  return Number.isFinite(ms) ? new Date(ms) : now;
}

/**
 * The digest's lists as the console's support and e-mail pages read them, when the message is
 * written: the period's handed-over questions still stored, the e-mails failed or late now, and
 * a failed attempt to get or renew the HTTPS certificate (`tls`: DOMAIN's settings, null without).
 */
export function digestListsReader(db: Db, now: () => Date, tls: Pick<TlsSettings, "domains" | "dir"> | null = null): DigestListsReader {
  const row = (m: { kind: DigestMailRow["kind"]; recipient: string; lastError: string | null; createdAt: Date }): DigestMailRow => ({
    kind: m.kind,
    recipient: m.recipient,
    lastError: m.lastError,
    createdAt: m.createdAt.getTime(),
  });
  return (payload) => {
    const between = { from: new Date(payload.from), to: new Date(payload.to) };
    const mail = mailAlerts(db, now(), DIGEST_MAIL_ROWS);
    const cert = certificateState(tls);
    return {
      certificate:
        cert === null || cert.lastError === null
          ? null
          : {
              domains: cert.domains,
              notAfter: cert.notAfter?.getTime() ?? null,
              lastError: cert.lastError,
              lastErrorAt: cert.lastErrorAt?.getTime() ?? null,
              nextAttemptAt: cert.nextAttemptAt?.getTime() ?? null,
            },
      handOvers: listHandOvers(db, DIGEST_QUESTIONS, between).map((h) => ({ question: h.question, locale: h.locale, at: h.at.getTime() })),
      handOverCount: countHandOvers(db, between),
      failed: { count: mail.failed.count, rows: mail.failed.latest.map(row) },
      late: { count: mail.late.count, rows: mail.late.oldest.map(row) },
    };
  };
}
