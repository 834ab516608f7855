import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { type InvoiceKind, invoices, orders } from "../../../db/schema";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../../../shared/locales";
import type { Config } from "../../platform/config";
import type { ContentSource } from "../../site/content/live";
import { invoicePdf } from "./invoice-pdf";
import type { Invoice } from "./numbering";
import { termsPdf } from "./terms-pdf";
import { type DocumentTexts, documentTexts } from "./texts";

// An order's paperwork as files: its invoice, its credit note, the terms its buyer accepted. Made
// from stored rows when asked (the e-mail sender, a download, the owner's console and CLI), never
// inside a payment's transaction.

export type DocumentFileOut = { filename: string; content: Buffer; contentType: "application/pdf" };

export type Paperwork = {
  /** The invoice or credit note of the order with this reference; null when it has none. */
  invoiceByReference(reference: string, kind: InvoiceKind): Promise<DocumentFileOut | null>;
  invoiceOfOrder(orderId: number, kind: InvoiceKind): Promise<DocumentFileOut | null>;
  /** The terms of sale as the buyer of this order accepted them; null without a recorded acceptance. */
  termsOfOrder(orderId: number): Promise<DocumentFileOut | null>;
  /** The number of an order's invoice or credit note, for the e-mails' texts. */
  numberOf(orderId: number, kind: InvoiceKind): string | null;
  /** The VAT of an order's invoice as it was issued (its scheme, rate and amount), for the receipt; null without an invoice. */
  vatOf(orderId: number): InvoiceVat | null;
};

export type InvoiceVat = Pick<Invoice, "vatScheme" | "vatRule" | "vatRate" | "vatAmount" | "currency">;

type Order = typeof orders.$inferSelect;

/**
 * Documents made lately, kept to be handed out again: an issued invoice, a credit note and the terms
 * an order accepted never change, and a message the mail server keeps refusing is written again at
 * every try (up to ~80 in three days), two PDFs each time. Keyed by the rows each is made from and
 * the content's version (the product's name is on them). A few suffice: the messages being sent.
 */
const KEPT_DOCUMENTS = 16;

export function createPaperwork(deps: { db: Db; config: Config; content: ContentSource }): Paperwork {
  const { db, config, content } = deps;
  // Per language, made again after a publish (the product's name on the documents).
  const texts = new Map<Locale, DocumentTexts>();
  let textsOf = -1;
  const textsFor = (order: Order) => {
    if (content.current().version !== textsOf) texts.clear();
    textsOf = content.current().version;
    const locale = isLocale(order.locale) ? order.locale : DEFAULT_LOCALE;
    let found = texts.get(locale);
    if (found === undefined) {
      found = documentTexts(content.current(), locale);
      texts.set(locale, found);
    }
    return found;
  };
  const kept = new Map<string, DocumentFileOut>();
  /** The document under `key`, made by `make` unless kept. */
  const keptOr = async (key: string, make: () => Promise<DocumentFileOut>): Promise<DocumentFileOut> => {
    const versioned = `${content.current().version}:${key}`;
    const found = kept.get(versioned);
    if (found !== undefined) {
      // Most recently used last: the first in the map is the first to go.
      kept.delete(versioned);
      kept.set(versioned, found);
      return found;
    }
    const made = await make();
    kept.set(versioned, made);
    for (const oldest of kept.keys()) {
      if (kept.size <= KEPT_DOCUMENTS) break;
      kept.delete(oldest);
    }
    return made;
  };
  const documentOf = (orderId: number, kind: InvoiceKind): Invoice | undefined =>
    db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind)))
      .get();

  const render = async (order: Order, kind: InvoiceKind): Promise<DocumentFileOut | null> => {
    const document = documentOf(order.id, kind);
    if (document === undefined) return null;
    const credited =
      document.creditsInvoiceId === null
        ? null
        : (db.select().from(invoices).where(eq(invoices.id, document.creditsInvoiceId)).get() ?? null);
    // Keyed by every row it is made from: a change to any of them makes it anew.
    return keptOr(JSON.stringify([kind, document, credited, order]), async () => {
      const x = textsFor(order);
      const pdf = await invoicePdf(
        { document, credited, order, seller: config.legal, supportEmail: config.site.supportEmail, siteName: content.current().site.name },
        x,
      );
      const name = x.t(kind === "invoice" ? "invoice.file" : "invoice.creditFile");
      return { filename: `${name}-${document.number}.pdf`, content: pdf, contentType: "application/pdf" };
    });
  };

  const termsNew = async (order: Order, acceptedAt: Date, termsVersion: string, invoice: Invoice | undefined): Promise<DocumentFileOut> => {
    const x = textsFor(order);
    const content = await termsPdf(
      {
        reference: order.reference,
        termsVersion,
        acceptedAt,
        provider: order.provider,
        // The scheme of the sale (on its invoice), not today's setting.
        vatScheme: invoice?.vatScheme ?? config.vatScheme,
        activationLimit: config.licenseActivationLimit,
        seller: config.legal,
      },
      x,
    );
    return { filename: `${x.t("invoice.termsFile")}-${termsVersion}.pdf`, content, contentType: "application/pdf" };
  };

  const orderById = (id: number) => db.select().from(orders).where(eq(orders.id, id)).get();

  return {
    async invoiceByReference(reference, kind) {
      const order = db.select().from(orders).where(eq(orders.reference, reference)).get();
      return order === undefined ? null : render(order, kind);
    },
    async invoiceOfOrder(orderId, kind) {
      const order = orderById(orderId);
      return order === undefined ? null : render(order, kind);
    },
    async termsOfOrder(orderId) {
      const order = orderById(orderId);
      if (order === undefined || order.termsAcceptedAt === null || order.termsVersion === null) return null;
      const { termsAcceptedAt, termsVersion } = order;
      const invoice = documentOf(order.id, "invoice");
      return keptOr(JSON.stringify(["terms", order, invoice ?? null]), () => termsNew(order, termsAcceptedAt, termsVersion, invoice));
    },
    numberOf(orderId, kind) {
      return documentOf(orderId, kind)?.number ?? null;
    },
    vatOf(orderId) {
      const invoice = documentOf(orderId, "invoice");
      return invoice === undefined
        ? null
        : {
            vatScheme: invoice.vatScheme,
            vatRule: invoice.vatRule,
            vatRate: invoice.vatRate,
            vatAmount: invoice.vatAmount,
            currency: invoice.currency,
          };
    },
  };
}
