import { and, count, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { chatMessages, emailLeads, type MailStatus, mailOutbox } from "../../../db/schema";
import type { OutboxRow } from "../../shop/mail/outbox";

export type LeadRow = typeof emailLeads.$inferSelect & { demo: MailStatus | null };

/** Leads newest first, each with the status of its latest demo e-mail. */
export function listLeads(db: Db, limit = 200): LeadRow[] {
  const leads = db.select().from(emailLeads).orderBy(desc(emailLeads.id)).limit(limit).all();
  if (leads.length === 0) return [];
  const mails = db
    .select({ leadId: mailOutbox.leadId, status: mailOutbox.status })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.kind, "demo"),
        inArray(
          mailOutbox.leadId,
          leads.map((l) => l.id),
        ),
      ),
    )
    .orderBy(mailOutbox.id)
    .all();
  const latest = new Map<number, MailStatus>();
  for (const m of mails) if (m.leadId !== null) latest.set(m.leadId, m.status);
  return leads.map((l) => ({ ...l, demo: latest.get(l.id) ?? null }));
}

export type Conversation = {
  id: string;
  locale: string;
  startedAt: Date;
  messages: { role: "user" | "assistant"; content: string; at: Date }[];
};

/** The latest conversations of the support chat, newest first, with their messages. */
export function listConversations(db: Db, limit = 50): Conversation[] {
  const latest = db
    .selectDistinct({ id: chatMessages.conversationId })
    .from(chatMessages)
    .orderBy(desc(chatMessages.id))
    .limit(limit * 20)
    .all();
  const ids = [...new Set(latest.map((r) => r.id))].slice(0, limit);
  if (ids.length === 0) return [];
  const rows = db.select().from(chatMessages).where(inArray(chatMessages.conversationId, ids)).orderBy(chatMessages.id).all();
  const byId = new Map<string, Conversation>();
  for (const r of rows) {
    let c = byId.get(r.conversationId);
    if (c === undefined) {
      c = { id: r.conversationId, locale: r.locale, startedAt: r.createdAt, messages: [] };
      byId.set(r.conversationId, c);
    }
    c.messages.push({ role: r.role, content: r.content, at: r.createdAt });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type Between = { from: Date; to: Date };

/** The answers that handed a question over to the support address, all or those given in a range. */
const handedOver = (between?: Between) =>
  and(
    eq(chatMessages.role, "assistant"),
    eq(chatMessages.handedOver, true),
    between === undefined ? undefined : gte(chatMessages.createdAt, between.from),
    between === undefined ? undefined : lt(chatMessages.createdAt, between.to),
  );

/** How many questions were handed over in a range (the digest quotes a few and counts them all). */
export function countHandOvers(db: Db, between: Between): number {
  return db.select({ n: count() }).from(chatMessages).where(handedOver(between)).get()?.n ?? 0;
}

export type HandOver = { question: string; locale: string; at: Date; conversationId: string };

/**
 * The questions the assistant could not answer: each answer marked as handed over to the support
 * address (the chat records it with the answer, offline or with Claude), with the question just
 * before it. Newest first: what to add to the FAQ. With `between`, only the answers given in that
 * range (start included, end excluded): the owner's digest e-mail lists its period's.
 */
export function listHandOvers(db: Db, limit = 100, between?: Between): HandOver[] {
  const answers = db.select().from(chatMessages).where(handedOver(between)).orderBy(desc(chatMessages.id)).limit(limit).all();
  return answers.flatMap((answer) => {
    const question = db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.conversationId, answer.conversationId), eq(chatMessages.role, "user")))
      .orderBy(desc(chatMessages.id))
      .all()
      .find((m) => m.id < answer.id);
    return question === undefined
      ? []
      : [{ question: question.content, locale: question.locale, at: question.createdAt, conversationId: answer.conversationId }];
  });
}

/** The e-mails not sent: failed or cancelled ones, and those waiting (with the last error of a retry). */
export function troubledMail(db: Db, limit = 200) {
  return db
    .select()
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ["failed", "cancelled", "pending"]))
    .orderBy(desc(mailOutbox.id))
    .limit(limit)
    .all();
}

/** A message waiting this long after it was queued is late: the sender takes new mail within seconds. */
export const MAIL_LATE_MS = 60 * 60 * 1000;

export type MailAlerts = {
  /** Failed and not retried since (the overview's count), with the newest few. */
  failed: { count: number; latest: OutboxRow[] };
  /** Still waiting MAIL_LATE_MS after being queued (a mail server refusing for now), with the oldest few. */
  late: { count: number; oldest: OutboxRow[] };
};

/** What of the e-mail page needs the owner at `now`: the messages that failed, and those late. */
export function mailAlerts(db: Db, now: Date, shown = 5): MailAlerts {
  const failed = eq(mailOutbox.status, "failed");
  const late = and(eq(mailOutbox.status, "pending"), lt(mailOutbox.createdAt, new Date(now.getTime() - MAIL_LATE_MS)));
  const total = (where: typeof failed | typeof late) => db.select({ n: count() }).from(mailOutbox).where(where).get()?.n ?? 0;
  return {
    failed: {
      count: total(failed),
      latest: db.select().from(mailOutbox).where(failed).orderBy(desc(mailOutbox.id)).limit(shown).all(),
    },
    late: { count: total(late), oldest: db.select().from(mailOutbox).where(late).orderBy(mailOutbox.id).limit(shown).all() },
  };
}
