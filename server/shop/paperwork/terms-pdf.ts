import { formatTermsVersion, type LegalIdentity, TERMS_SECTIONS } from "../../../shared/legal";
import type { VatScheme } from "../../../shared/vat-scheme";
import { FONT, renderPdf } from "./pdf";
import type { DocumentTexts } from "./texts";

// The terms of sale as the buyer accepted them, for the access e-mail (a durable medium, Directive
// 2011/83/EU art. 8(7)): the same texts as the /cgv page, in the order's language, with the version
// and the time of acceptance recorded on the order.

export type TermsDocument = {
  reference: string;
  termsVersion: string;
  acceptedAt: Date;
  provider: "stripe" | "test" | "free";
  vatScheme: VatScheme;
  activationLimit: number;
  seller: LegalIdentity;
};

/** The page's "[linked words]" markup, read as plain words on paper. */
const plain = (text: string) => text.replace(/\[([^\]]+)\]/g, "$1");

export function termsPdf(data: TermsDocument, x: DocumentTexts): Promise<Buffer> {
  const { t } = x;
  const { seller } = data;
  const value = (field: keyof LegalIdentity, label: Parameters<typeof t>[0]) => seller[field] ?? t("legal.todo", { what: t(label) });
  const title = t("terms.title");
  // French typography puts a space before the colon.
  const colon = x.locale === "fr" ? " :" : ":";
  return renderPdf({ title, author: seller.sellerName ?? title, date: data.acceptedAt, lang: x.locale }, (doc) => {
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    const heading = (text: string) => {
      doc.moveDown(0.8);
      doc.font(FONT.bold).fontSize(11.5);
      // A heading keeps its first lines with it: one that would end a page starts the next.
      const keep = doc.heightOfString(text, { width }) + 4 * doc.font(FONT.regular).fontSize(9.5).currentLineHeight(true);
      if (doc.y + keep > doc.page.height - doc.page.margins.bottom) doc.addPage();
      doc.font(FONT.bold).fontSize(11.5).fillColor("#111111").text(text, { width });
      doc.moveDown(0.2);
    };
    const paragraph = (text: string) => {
      doc.font(FONT.regular).fontSize(9.5).fillColor("#111111").text(plain(text), { width, align: "left" });
      doc.moveDown(0.4);
    };

    doc.font(FONT.bold).fontSize(18).fillColor("#111111").text(title, { width });
    doc.font(FONT.regular).fontSize(9.5).fillColor("#555555");
    doc.text(t("terms.version", { version: formatTermsVersion(data.termsVersion, x.locale) }), { width });
    doc.text(t("invoice.termsAccepted", { date: x.dateTime(data.acceptedAt), reference: data.reference }), { width });
    doc.moveDown(0.6);
    paragraph(t("terms.intro"));

    heading(t("terms.seller.title"));
    paragraph(
      t("terms.seller.text", {
        sellerName: value("sellerName", "legal.sellerName"),
        sellerAddress: value("sellerAddress", "legal.sellerAddress"),
        sellerRegistration: value("sellerRegistration", "legal.sellerRegistration"),
      }) + (seller.sellerVatId !== null ? ` ${t("terms.seller.vat", { vatId: seller.sellerVatId })}` : ""),
    );
    for (const section of TERMS_SECTIONS) {
      heading(t(`terms.${section}.title`));
      switch (section) {
        case "payment":
          paragraph(t(data.provider === "test" ? "terms.payment.test" : "terms.payment.stripe"));
          break;
        case "licence":
          paragraph(t("terms.licence.text", { devices: data.activationLimit }));
          break;
        case "price":
          paragraph(t("terms.price.text"));
          paragraph(t(`terms.vat.${data.vatScheme}`));
          break;
        case "complaints":
          paragraph(t("terms.complaints.text"));
          paragraph(`${t("legal.mediatorName")}${colon} ${value("mediatorName", "legal.mediatorName")}`);
          paragraph(`${t("legal.mediatorUrl")}${colon} ${value("mediatorUrl", "legal.mediatorUrl")}`);
          break;
        default:
          paragraph(t(`terms.${section}.text`));
      }
    }
    paragraph(t("terms.privacy"));
  });
}
