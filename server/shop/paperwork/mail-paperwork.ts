import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orders } from "../../../db/schema";
import type { DocumentFileOut, InvoiceVat, Paperwork } from "./documents";
import { invoiceLink } from "./links";

// What the buyer's e-mails carry of an order's paperwork: the access e-mail its invoice and the
// terms accepted (attached) with a link to download the invoice again, the refund notice its
// credit note. Made by the sender when it writes the message, from the stored rows.

export type AccessPaperwork = {
  attachments: DocumentFileOut[];
  invoiceNumber: string | null;
  invoiceUrl: string;
  /** The invoice's VAT, for the receipt's lines: the scheme of the sale, not today's setting. */
  vat: InvoiceVat | null;
};
export type RefundPaperwork = { attachments: DocumentFileOut[]; creditNoteNumber: string | null; invoiceNumber: string | null };

export type MailPaperwork = {
  forAccess(orderId: number): Promise<AccessPaperwork | null>;
  forRefund(orderId: number): Promise<RefundPaperwork | null>;
};

export function mailPaperwork(deps: { db: Db; paperwork: Paperwork; baseUrl: string; secret: string }): MailPaperwork {
  const { db, paperwork, baseUrl, secret } = deps;
  const referenceOf = (orderId: number) => db.select({ reference: orders.reference }).from(orders).where(eq(orders.id, orderId)).get();
  const present = (files: (DocumentFileOut | null)[]) => files.filter((f) => f !== null);
  return {
    async forAccess(orderId) {
      const order = referenceOf(orderId);
      if (order === undefined) return null;
      const [invoice, terms] = await Promise.all([paperwork.invoiceOfOrder(orderId, "invoice"), paperwork.termsOfOrder(orderId)]);
      return {
        attachments: present([invoice, terms]),
        invoiceNumber: paperwork.numberOf(orderId, "invoice"),
        invoiceUrl: invoiceLink(baseUrl, order, secret),
        vat: paperwork.vatOf(orderId),
      };
    },
    async forRefund(orderId) {
      if (referenceOf(orderId) === undefined) return null;
      const creditNote = await paperwork.invoiceOfOrder(orderId, "credit-note");
      return {
        attachments: present([creditNote]),
        creditNoteNumber: paperwork.numberOf(orderId, "credit-note"),
        invoiceNumber: paperwork.numberOf(orderId, "invoice"),
      };
    },
  };
}
