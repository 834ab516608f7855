import type { LegalIdentity } from "../../../shared/legal";
import { FRANCHISE_MENTION } from "../../../shared/vat-scheme";
import type { Invoice } from "./numbering";
import { FONT, type PdfDoc, renderPdf } from "./pdf";
import type { DocumentTexts } from "./texts";

// An invoice or a credit note as a PDF, in the order's language, from stored data only (the
// invoice row with its frozen VAT, the order, the seller's settings): downloading it again gives
// the same document.

export type InvoiceDocument = {
  document: Invoice;
  /** For a credit note: the invoice it cancels. */
  credited: Invoice | null;
  order: {
    reference: string;
    provider: "stripe" | "test" | "free";
    customerEmail: string | null;
    billingName: string | null;
    billingCountry: string | null;
    paidAt: Date | null;
    refundedAt: Date | null;
    /** A company buyer's details (the payment page's "Buying for a company?"); null for a consumer. */
    company: string | null;
    companyAddress: string | null;
    companyCountry: string | null;
    buyerVatNumber: string | null;
  };
  seller: LegalIdentity;
  supportEmail: string;
  siteName: string;
};

const GREY = "#555555";
const INK = "#111111";
const RED = "#b00020";

export function invoicePdf(data: InvoiceDocument, x: DocumentTexts): Promise<Buffer> {
  const { document: d, order, seller } = data;
  const { t } = x;
  const credit = d.kind === "credit-note";
  const title = t(credit ? "invoice.creditTitle" : "invoice.title");
  const sellerName = seller.sellerName ?? t("legal.todo", { what: t("legal.sellerName") });
  return renderPdf({ title: `${title} ${d.number}`, author: sellerName, date: d.issuedAt, lang: x.locale }, (doc) => {
    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;

    if (order.provider === "test") {
      doc.font(FONT.bold).fontSize(10).fillColor(RED).text(t("invoice.testMode"), { width });
      doc.moveDown(0.8);
    }

    // The seller, as the legal notice names them.
    doc.font(FONT.bold).fontSize(14).fillColor(INK).text(sellerName, { width });
    doc.font(FONT.regular).fontSize(9.5).fillColor(GREY);
    const sellerLines = [
      seller.sellerAddress ?? t("legal.todo", { what: t("legal.sellerAddress") }),
      seller.sellerRegistration ?? t("legal.todo", { what: t("legal.sellerRegistration") }),
      seller.sellerVatId !== null ? t("terms.seller.vat", { vatId: seller.sellerVatId }) : null,
      t("invoice.contact", { email: data.supportEmail }),
    ];
    for (const line of sellerLines) if (line !== null) doc.text(line, { width });

    doc.moveDown(1.5);
    doc.font(FONT.bold).fontSize(20).fillColor(INK).text(title, { width });
    doc
      .font(FONT.regular)
      .fontSize(11)
      .text(t("invoice.number", { number: d.number }), { width });
    doc.fontSize(9.5).fillColor(GREY);
    doc.text(t("invoice.issuedOn", { date: x.day(d.issuedAt) }), { width });
    doc.text(t("invoice.order", { reference: order.reference }), { width });

    doc.moveDown(1.2);
    doc.font(FONT.bold).fontSize(10).fillColor(INK).text(t("invoice.buyer"), { width });
    doc.font(FONT.regular).fontSize(9.5).fillColor(INK);
    // A company buys in its own name: its name, address, country and VAT number, then who ordered.
    if (order.company !== null) doc.font(FONT.bold).text(order.company, { width }).font(FONT.regular);
    if (order.companyAddress !== null) doc.text(order.companyAddress, { width });
    if (order.billingName !== null) doc.text(order.billingName, { width });
    if (order.customerEmail !== null) doc.text(order.customerEmail, { width });
    const buyerCountry = order.companyCountry ?? order.billingCountry;
    if (buyerCountry !== null) doc.text(t("invoice.country", { country: x.country(buyerCountry) }), { width });
    if (order.buyerVatNumber !== null) doc.text(t("invoice.buyerVat", { number: order.buyerVatNumber }), { width });

    doc.moveDown(1.5);
    lineTable(doc, data, x, left, width);

    doc.moveDown(1);
    doc.font(FONT.regular).fontSize(9.5).fillColor(INK);
    if (d.vatScheme === "franchise") doc.font(FONT.bold).text(FRANCHISE_MENTION, left, doc.y, { width }).font(FONT.regular);
    // The rule that set the VAT, where the law asks the invoice to say it.
    // Reverse charge: the mention the law asks for (CGI art. 242 nonies A, I-13°), with both VAT numbers.
    if (d.vatRule === "reverse-charge")
      doc
        .font(FONT.bold)
        .text(
          t("invoice.reverseCharge", {
            seller: seller.sellerVatId ?? t("invoice.vatMissing"),
            buyer: order.buyerVatNumber ?? t("invoice.vatMissing"),
          }),
          left,
          doc.y,
          { width },
        )
        .font(FONT.regular);
    if (d.vatRule === "outside-eu") doc.font(FONT.bold).text(t("invoice.outsideEu"), left, doc.y, { width }).font(FONT.regular);
    if (d.vatRule === "registered" && d.vatCountry !== null && d.sellerVatNumber !== null)
      doc.text(t("invoice.registered", { country: x.country(d.vatCountry), number: d.sellerVatNumber }), left, doc.y, { width });
    if (credit) {
      const invoice = data.credited;
      if (invoice !== null)
        doc.text(t("invoice.credits", { number: invoice.number, date: x.day(invoice.issuedAt) }), left, doc.y, { width });
      doc.text(t("invoice.refunded", { date: x.dateTime(order.refundedAt ?? d.issuedAt) }), left, doc.y, { width });
    } else if (order.provider === "free") {
      doc.text(t("invoice.paidFree", { date: x.dateTime(order.paidAt ?? d.issuedAt) }), left, doc.y, { width });
    } else {
      doc.text(t("invoice.paid", { date: x.dateTime(order.paidAt ?? d.issuedAt) }), left, doc.y, { width });
    }
  });
}

/** The one line (the licence, quantity 1) and the totals, amounts right-aligned in their columns. */
function lineTable(doc: PdfDoc, data: InvoiceDocument, x: DocumentTexts, left: number, width: number): void {
  const { document: d } = data;
  const { t } = x;
  // A credit note cancels the invoice: the same amounts, negative.
  const sign = d.kind === "credit-note" ? -1 : 1;
  const money = (minor: number) => x.money(sign * minor, d.currency);
  // Under the franchise no VAT is charged: no rate, no "excluding" or "including" VAT, only the
  // price and the mention printed below the table.
  const franchise = d.vatScheme === "franchise";
  const columns = franchise
    ? [
        { width: width * 0.5, align: "left" as const },
        { width: width * 0.1, align: "right" as const },
        { width: width * 0.2, align: "right" as const },
        { width: width * 0.2, align: "right" as const },
      ]
    : [
        { width: width * 0.4, align: "left" as const },
        { width: width * 0.08, align: "right" as const },
        { width: width * 0.18, align: "right" as const },
        { width: width * 0.12, align: "right" as const },
        { width: width * 0.22, align: "right" as const },
      ];
  const row = (cells: string[], font: string) => {
    const top = doc.y;
    let cx = left;
    let bottom = top;
    doc.font(font).fontSize(9.5).fillColor(INK);
    cells.forEach((cell, i) => {
      const column = columns[i];
      if (column === undefined) return;
      doc.text(cell, cx + (i === 0 ? 0 : 6), top, { width: column.width - 6, align: column.align });
      bottom = Math.max(bottom, doc.y);
      cx += column.width;
    });
    doc.y = bottom + 4;
  };
  // No VAT charged under a rule (reverse charge, outside the EU): the total includes no VAT, so it
  // is never called "TTC".
  const noVatCharged = d.vatRule === "reverse-charge" || d.vatRule === "outside-eu";
  row(
    franchise
      ? [t("invoice.description"), t("invoice.quantity"), t("invoice.unitPrice"), t("invoice.lineAmount")]
      : [
          t("invoice.description"),
          t("invoice.quantity"),
          t("invoice.unitNet"),
          t("invoice.vatRate"),
          t(noVatCharged ? "invoice.lineAmount" : "invoice.lineTotal"),
        ],
    FONT.bold,
  );
  doc
    .moveTo(left, doc.y - 2)
    .lineTo(left + width, doc.y - 2)
    .strokeColor("#999999")
    .lineWidth(0.5)
    .stroke();
  doc.y += 4;
  row(
    franchise
      ? [t("orderProduct"), "1", money(d.totalAmount), money(d.totalAmount)]
      : [t("orderProduct"), "1", money(d.netAmount), x.rate(d.vatRate), money(d.totalAmount)],
    FONT.regular,
  );
  doc.y += 8;

  // A discount code: the list price and what the code took off, before the totals of what was paid.
  // Where VAT is charged they include it, as the price the buyer saw did: said beside them, so they
  // are not read as amounts excluding VAT under the column of that name.
  // By the rate, not the amount: a 100 % code's invoice charges 0 € of a 20 % VAT, and its list
  // price still includes that VAT.
  const withVat = !franchise && d.vatRate > 0;
  const discount: [string, string][] =
    d.discountAmount > 0 && d.listAmount !== null && d.discountCode !== null
      ? [
          [t(withVat ? "invoice.listPriceInclVat" : "invoice.listPrice"), money(d.listAmount)],
          [t(withVat ? "invoice.discountInclVat" : "invoice.discount", { code: d.discountCode }), money(-d.discountAmount)],
        ]
      : [];
  // No VAT charged under a rule (reverse charge, outside the EU): the rule's name, never "VAT 0 %"
  // of a country whose VAT is not 0 %.
  const vatLabel =
    d.vatRule === "reverse-charge"
      ? t("invoice.totalVatReverseCharge")
      : d.vatRule === "outside-eu"
        ? t("invoice.totalVatNotApplicable")
        : t("invoice.totalVat", { rate: x.rate(d.vatRate), country: d.vatCountry ?? "" });
  const totals: [string, string][] = franchise
    ? [...discount, [t("invoice.totalNoVat"), money(d.totalAmount)]]
    : [
        ...discount,
        [t("invoice.totalNet"), money(d.netAmount)],
        [vatLabel, money(d.vatAmount)],
        [t(noVatCharged ? "invoice.totalNoVat" : "invoice.total"), money(d.totalAmount)],
      ];
  const labelWidth = width * 0.5;
  const valueWidth = width * 0.22;
  const labelX = left + width - labelWidth - valueWidth;
  totals.forEach(([label, value], i) => {
    const last = i === totals.length - 1;
    const top = doc.y;
    doc
      .font(last ? FONT.bold : FONT.regular)
      .fontSize(last ? 11 : 9.5)
      .fillColor(INK);
    doc.text(label, labelX, top, { width: labelWidth - 6, align: "right" });
    doc.text(value, labelX + labelWidth, top, { width: valueWidth, align: "right" });
    doc.y = Math.max(doc.y, top) + 2;
  });
}
