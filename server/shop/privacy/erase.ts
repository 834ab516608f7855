import { eq, inArray, sql } from "drizzle-orm";
import { accessResends, chatMessages, emailLeads, mailOutbox, orders } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import { type MailFilesRemoved, removeMailFiles } from "../mail/mail-files";
import { deleteReviewsOf } from "../reviews/store";

// The owner's answer to an erasure request (GDPR art. 17): `site leads erase EMAIL`.
// Deleted: the person's demo requests, every e-mail queued or sent for them (the outbox rows and
// the .eml files the embedded transport wrote for those rows), the support-chat conversations in
// which they wrote that address (the only link between a transcript and a person), and their
// access-resend requests. Orders are kept: accounting law requires them and the
// licence check reads them; the privacy page says so.

export type ErasureResult = {
  leads: number;
  mails: { pending: number; sent: number; other: number };
  /** The e-mails' files in the mail folder (written when no SMTP server is configured). */
  mailFiles: MailFilesRemoved & { dir: string };
  conversations: number;
  chatMessages: number;
  accessResends: number;
  /** Reviews of the orders paid with this address (published, waiting or refused). */
  reviews: number;
  /** Orders paid with this address, kept. */
  ordersKept: number;
};

/** `mailDir`: the folder of the file transport (DATA_DIR/mail). */
export async function eraseByEmail(write: Write, rawEmail: string, mailDir: string): Promise<ErasureResult> {
  const email = rawEmail.trim().toLowerCase();
  const { mailIds, ...rows } = await write((tx) => {
    // Leads are stored trimmed and in lower case (shared/schemas/leads.ts).
    const leadIds = tx
      .select({ id: emailLeads.id })
      .from(emailLeads)
      .where(eq(emailLeads.email, email))
      .all()
      .map((r) => r.id);
    const mails =
      leadIds.length === 0
        ? []
        : tx
            .delete(mailOutbox)
            .where(inArray(mailOutbox.leadId, leadIds))
            .returning({ id: mailOutbox.id, status: mailOutbox.status })
            .all();
    const leads =
      leadIds.length === 0 ? [] : tx.delete(emailLeads).where(inArray(emailLeads.id, leadIds)).returning({ id: emailLeads.id }).all();
    // instr() rather than LIKE: an address may hold "_" or "%", which LIKE would read as wildcards.
    const conversations = tx
      .selectDistinct({ id: chatMessages.conversationId })
      .from(chatMessages)
      .where(sql`instr(lower(${chatMessages.content}), ${email}) > 0`)
      .all()
      .map((r) => r.id);
    const messages =
      conversations.length === 0
        ? []
        : tx.delete(chatMessages).where(inArray(chatMessages.conversationId, conversations)).returning({ id: chatMessages.id }).all();
    const resends = tx.delete(accessResends).where(eq(accessResends.email, email)).returning({ id: accessResends.id }).all();
    // The buyer's reviews are theirs (their text, their name): erased, the orders themselves kept.
    const orderIds = tx
      .select({ id: orders.id })
      .from(orders)
      .where(eq(sql`lower(${orders.customerEmail})`, email))
      .all()
      .map((r) => r.id);
    const reviewsErased = deleteReviewsOf(tx, orderIds, new Date());
    const kept = tx
      .select({ n: sql<number>`count(*)` })
      .from(orders)
      .where(eq(sql`lower(${orders.customerEmail})`, email))
      .get();
    return {
      leads: leads.length,
      mails: {
        pending: mails.filter((m) => m.status === "pending" || m.status === "sending").length,
        sent: mails.filter((m) => m.status === "sent").length,
        other: mails.filter((m) => m.status === "failed" || m.status === "cancelled").length,
      },
      conversations: conversations.length,
      chatMessages: messages.length,
      accessResends: resends.length,
      reviews: reviewsErased,
      ordersKept: kept?.n ?? 0,
      mailIds: mails.map((m) => m.id),
    };
  });
  // After the commit: the transaction may run more than once, and a file deleted cannot come back.
  return { ...rows, mailFiles: { dir: mailDir, ...removeMailFiles(mailDir, mailIds) } };
}

/** What the command prints: every kind of row, deleted or kept, with its count. */
export function describeErasure(email: string, r: ErasureResult): string {
  const mails = r.mails.pending + r.mails.sent + r.mails.other;
  return [
    `Erased for ${email}:`,
    `  ${r.leads} demo request(s) (email_leads)`,
    `  ${mails} e-mail(s) of the outbox (${r.mails.pending} not yet sent, ${r.mails.sent} sent, ${r.mails.other} failed or cancelled)`,
    `  ${r.mailFiles.deleted} e-mail file(s) in ${r.mailFiles.dir}`,
    `  ${r.conversations} chat conversation(s) mentioning the address (${r.chatMessages} message(s))`,
    `  ${r.accessResends} access-resend request(s)`,
    `  ${r.reviews} review(s) of their orders (published, waiting or refused)`,
    r.ordersKept > 0
      ? `Kept: ${r.ordersKept} order(s) paid with this address (accounting records; the licence check reads them).`
      : "No order was paid with this address.",
    "",
  ].join("\n");
}
