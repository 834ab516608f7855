import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../../db/client";
import { type MailKind, type MailStatus, mailOutbox } from "../../../db/schema";
import type { DbWriter, Write, WriteOptions } from "../../../db/writer";
import { LOCALES, type Locale } from "../../../shared/locales";
import { REFUSAL_REASONS } from "../../../shared/reviews";
import type { SenderIdentity } from "./sender-identity";

// The transactional outbox. A message is written by the same transaction as the change it reports
// (an order paid or refunded, a lead stored), so it exists exactly when the change does; the sender
// (sender.ts) delivers it afterwards and a crash in between only delays it.

const OrderFacts = {
  orderId: v.number(),
  // What the buyer and the owner know the order by; absent from messages queued before references.
  reference: v.optional(v.string()),
  amountMinor: v.number(),
  currency: v.string(),
};

/** The owner's notice of a sale or a refund: the same facts either way. */
const OwnerNotice = v.object({
  ...OrderFacts,
  locale: v.picklist(LOCALES),
  city: v.nullable(v.string()),
  licenseKey: v.nullable(v.string()),
  customerEmail: v.nullable(v.string()),
  provider: v.string(),
  at: v.number(),
  /** The discount code applied (absent from notices queued before codes existed). */
  code: v.optional(v.nullable(v.string())),
});

/** Money figures in minor units, as the console's overview counts them. */
const DigestSales = v.object({
  gross: v.number(),
  refunded: v.number(),
  net: v.number(),
  paidOrders: v.number(),
  refundedOrders: v.number(),
});

/**
 * The owner's digest: the period and its figures, frozen when it is queued. The lists that name
 * people (questions handed over, e-mails failing) are read when it is written, from what is still
 * stored: a chat deleted at the end of its retention, or erased on request, is not kept here.
 */
const OwnerDigest = v.object({
  frequency: v.picklist(["daily", "weekly"]),
  period: v.string(),
  firstDay: v.string(),
  lastDay: v.string(),
  from: v.number(),
  to: v.number(),
  currency: v.string(),
  sales: DigestSales,
  audience: v.object({
    visitors: v.number(),
    pageviews: v.number(),
    paymentPage: v.number(),
    checkoutStarted: v.number(),
    paid: v.number(),
    sources: v.array(v.object({ key: v.string(), visitors: v.number() })),
  }),
});

/** What each kind of message needs to be written, frozen when the change happens. */
export const PAYLOADS = {
  access: v.object({
    ...OrderFacts,
    licenseKey: v.string(),
    paidAt: v.number(),
    email: v.string(),
    // The consent given on the payment page; absent from messages queued before it existed.
    termsAcceptedAt: v.nullish(v.number()),
    termsVersion: v.nullish(v.string()),
    // The price before a discount code, the code and what it took off; absent from messages queued
    // before the receipt named them, and when no code applied.
    listAmountMinor: v.nullish(v.number()),
    discountCode: v.nullish(v.string()),
    discountMinor: v.nullish(v.number()),
  }),
  refund: v.object({ ...OrderFacts, licenseKey: v.nullable(v.string()), refundedAt: v.number() }),
  demo: v.object({ unsubscribeToken: v.string() }),
  "owner-sale": OwnerNotice,
  "owner-refund": OwnerNotice,
  "owner-refund-request": OwnerNotice,
  "owner-digest": OwnerDigest,
  // The review links are made when the message is written (server/shop/reviews/links.ts), never stored.
  "review-invite": v.object({ orderId: v.number(), reference: v.string() }),
  "review-refused": v.object({ orderId: v.number(), reference: v.string(), reason: v.picklist(REFUSAL_REASONS) }),
} satisfies Record<MailKind, v.GenericSchema>;

export type MailPayloads = { [K in MailKind]: v.InferOutput<(typeof PAYLOADS)[K]> };

export type NewMail<K extends MailKind = MailKind> = {
  kind: K;
  recipient: string;
  locale: Locale;
  payload: MailPayloads[K];
  orderId?: number;
  leadId?: number;
};

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** Writes a message to the outbox, due at once; call it inside the transaction of the change it reports. */
export function enqueueMail<K extends MailKind>(tx: DbWriter, domain: string, mail: NewMail<K>, now: Date): number {
  const [row] = tx
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      recipient: mail.recipient,
      locale: mail.locale,
      payload: JSON.stringify(mail.payload),
      messageId: `<${randomUUID()}@${domain}>`,
      status: "pending",
      nextAttemptAt: now,
      orderId: mail.orderId ?? null,
      leadId: mail.leadId ?? null,
      createdAt: now,
    })
    .returning({ id: mailOutbox.id })
    .all();
  if (row === undefined) throw new Error("outbox insert returned no row");
  return row.id;
}

/** What a sender needs of a "sending" row to decide whether it may take it over. */
export type HeldRow = Pick<OutboxRow, "id" | "leaseOwner" | "leaseHolder" | "nextAttemptAt">;

type Tx = Parameters<Parameters<Write>[0]>[0];

/** The rows some sender holds ("sending") that `takeOver` says this one may take. */
function heldRows(tx: Tx, takeOver: (row: HeldRow) => boolean): HeldRow[] {
  return tx
    .select({
      id: mailOutbox.id,
      leaseOwner: mailOutbox.leaseOwner,
      leaseHolder: mailOutbox.leaseHolder,
      nextAttemptAt: mailOutbox.nextAttemptAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, "sending"))
    .all()
    .filter(takeOver);
}

/**
 * Takes up to `limit` messages for this sender: the pending ones that are due, and those another
 * sender held that `takeOver` gives up (its sender gone, or its lease over). Each becomes "sending",
 * held by `holder` (pid and run) with a lease of `leaseMs`, the attempt counted.
 */
export function claimDue(
  write: Write,
  options: { now: Date; limit: number; leaseMs: number; holder: SenderIdentity; takeOver: (row: HeldRow) => boolean },
): Promise<OutboxRow[]> {
  const { now, limit, leaseMs, holder, takeOver } = options;
  if (limit <= 0) return Promise.resolve([]);
  return write((tx) => {
    const byDue = (a: HeldRow, b: HeldRow) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id;
    const pending = tx
      .select({
        id: mailOutbox.id,
        leaseOwner: mailOutbox.leaseOwner,
        leaseHolder: mailOutbox.leaseHolder,
        nextAttemptAt: mailOutbox.nextAttemptAt,
      })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(limit)
      .all();
    // Few at any time: one sender holds at most a handful.
    const orphaned = heldRows(tx, takeOver);
    const due = [...orphaned, ...pending].sort(byDue).slice(0, limit);
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({
        status: "sending",
        leaseOwner: holder.pid,
        leaseHolder: holder.holder,
        nextAttemptAt: new Date(now.getTime() + leaseMs),
        attempts: sql`${mailOutbox.attempts} + 1`,
      })
      .where(
        inArray(
          mailOutbox.id,
          due.map((d) => d.id),
        ),
      )
      .returning()
      .all()
      .sort(byDue);
  });
}

/** Extends this sender's lease on the messages it still holds (being sent, or their outcome not yet written). */
export async function renewLeases(write: Write, ids: number[], holder: SenderIdentity, until: Date): Promise<void> {
  if (ids.length === 0) return;
  await write((tx) =>
    tx
      .update(mailOutbox)
      .set({ nextAttemptAt: until })
      .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.status, "sending"), eq(mailOutbox.leaseHolder, holder.holder)))
      .run(),
  );
}

/**
 * At start-up: messages held by a sender that is gone (killed mid-send) and messages waiting for
 * a retry are due now, so a restart delivers at once what was left behind. Rows held by a running
 * sender (another server on the same folder) are left to it.
 */
export function resumeAfterRestart(write: Write, now: Date, takeOver: (row: HeldRow) => boolean): Promise<number> {
  return write((tx) => {
    const held = heldRows(tx, takeOver).map((r) => r.id);
    const orphans =
      held.length === 0
        ? []
        : tx
            .update(mailOutbox)
            .set({ status: "pending", leaseOwner: null, leaseHolder: null, nextAttemptAt: now })
            .where(and(inArray(mailOutbox.id, held), eq(mailOutbox.status, "sending")))
            .returning({ id: mailOutbox.id })
            .all();
    const deferred = tx
      .update(mailOutbox)
      .set({ nextAttemptAt: now })
      .where(and(eq(mailOutbox.status, "pending"), gt(mailOutbox.nextAttemptAt, now)))
      .returning({ id: mailOutbox.id })
      .all();
    return orphans.length + deferred.length;
  });
}

/** What became of a claimed message: sent, to be tried again at a time, or given up for a reason. */
export type MailOutcome =
  | { status: "sent"; at: Date }
  | { status: "pending"; retryAt: Date; reason: string }
  | { status: Extract<MailStatus, "failed" | "cancelled">; reason: string };

/**
 * Records the outcome of a claimed message; it leaves this sender's hands. false when the row is
 * no longer there: erased (on request, or expired) while it was being sent.
 */
export async function recordOutcome(write: Write, id: number, outcome: MailOutcome, options?: WriteOptions): Promise<boolean> {
  const set =
    outcome.status === "sent"
      ? { status: outcome.status, leaseOwner: null, leaseHolder: null, sentAt: outcome.at, lastError: null }
      : outcome.status === "pending"
        ? {
            status: outcome.status,
            leaseOwner: null,
            leaseHolder: null,
            nextAttemptAt: outcome.retryAt,
            lastError: outcome.reason.slice(0, 500),
          }
        : { status: outcome.status, leaseOwner: null, leaseHolder: null, lastError: outcome.reason.slice(0, 500) };
  const updated = await write(
    (tx) => tx.update(mailOutbox).set(set).where(eq(mailOutbox.id, id)).returning({ id: mailOutbox.id }).all(),
    options,
  );
  return updated.length > 0;
}

/** The queue for the owner's CLI, newest first. */
export function listOutbox(db: Db, limit = 100): OutboxRow[] {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit).all();
}

/** Puts a failed (or cancelled) message back in the queue, due now. false when there is no such message or it was sent. */
export async function retryMail(write: Write, id: number, now: Date): Promise<boolean> {
  const updated = await write((tx) =>
    tx
      .update(mailOutbox)
      .set({ status: "pending", nextAttemptAt: now, attempts: 0, lastError: null })
      .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ["failed", "cancelled", "pending"])))
      .returning({ id: mailOutbox.id })
      .all(),
  );
  return updated.length > 0;
}

const parseOr =
  <S extends v.GenericSchema>(schema: S) =>
  (value: unknown): v.InferOutput<S> | null => {
    const result = v.safeParse(schema, value);
    return result.success ? result.output : null;
  };
const READERS: { [K in MailKind]: (value: unknown) => MailPayloads[K] | null } = {
  access: parseOr(PAYLOADS.access),
  refund: parseOr(PAYLOADS.refund),
  demo: parseOr(PAYLOADS.demo),
  "owner-sale": parseOr(PAYLOADS["owner-sale"]),
  "owner-refund": parseOr(PAYLOADS["owner-refund"]),
  "owner-refund-request": parseOr(PAYLOADS["owner-refund-request"]),
  "owner-digest": parseOr(PAYLOADS["owner-digest"]),
  "review-invite": parseOr(PAYLOADS["review-invite"]),
  "review-refused": parseOr(PAYLOADS["review-refused"]),
};

/** The payload of a row, checked against its kind's schema (the row may come from an older version). */
export function readPayload<K extends MailKind>(kind: K, payload: string): MailPayloads[K] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  return READERS[kind](parsed);
}
