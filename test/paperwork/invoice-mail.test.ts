import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { TERMS_SECTIONS } from "../../shared/legal";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { pdfText } from "./pdf-text";

// The access e-mail as the buyer receives it (real SMTP server on loopback): the invoice and the
// terms accepted as PDF attachments, whose text holds the seller, the number and the right VAT.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const SELLER = {
  SELLER_NAME: "Stream Shop SAS",
  SELLER_ADDRESS: "12 rue de la Paix, 75002 Paris",
  SELLER_REGISTRATION: "RCS Paris 912 345 678",
};

async function buy(scheme: string, locale: "fr" | "en", country: string, payment?: Record<string, string>) {
  site = await createTestSite({
    env: { ...SELLER, VAT_SCHEME: scheme, PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url),
  });
  const email = `buyer-${scheme}-${locale}@example.com`;
  await payWithTestCard(site, { locale, email, name: "Anna Schmidt", country, ...(payment === undefined ? {} : { payment }) });
  await smtp.waitFor(1);
  const [received] = mailsTo(smtp, email);
  if (received === undefined) throw new Error("no access e-mail");
  const order = site.db.select().from(orders).get();
  const invoice = site.db.select().from(invoices).where(eq(invoices.orderId, order!.id)).get();
  const pdfs = received.mail.attachments.filter((a) => a.contentType === "application/pdf");
  return { received, order: order!, invoice: invoice!, pdfs, texts: pdfs.map((a) => pdfText(a.content)) };
}

const year = new Date().getFullYear();
/** A body's text with the non-breaking and narrow spaces of French amounts read as plain spaces. */
const plain = (text: unknown) => String(text).replace(/[\u00a0\u202f]/g, " ");

for (const locale of ["fr", "en"] as const) {
  test(`franchise, ${locale}: the invoice says VAT does not apply (art. 293 B du CGI) and charges none`, async () => {
    const { invoice, pdfs, texts, received } = await buy("franchise", locale, "FR");
    expect(pdfs).toHaveLength(2);
    expect(invoice.number).toBe(`TEST-${year}-000001`);
    const [invoiceText, termsText] = texts;
    expect(invoiceText).toContain("Stream Shop SAS");
    expect(invoiceText).toContain(`TEST-${year}-000001`);
    expect(invoiceText).toContain("TVA non applicable, art. 293 B du CGI");
    expect(invoice.vatAmount).toBe(0);
    // No VAT is charged: no rate, no "excluding/including VAT" column or total on the invoice.
    // Whole words: a random licence key or order reference may hold the letters (ETTCW-…, …AHT-).
    expect(invoiceText).not.toMatch(locale === "fr" ? /\bTTC\b|\bHT\b|\d ?%/ : /\bVAT\b(?!.*293)|\d ?%/);
    // The receipt in the body says so too, never "VAT included".
    expect(plain(received.mail.text)).toContain(
      locale === "fr" ? "29,99 € (TVA non applicable, art. 293 B du CGI)" : "€29.99, VAT not applicable",
    );
    expect(received.mail.text).not.toMatch(/\bTTC\b|VAT included/);
    expect(termsText).toContain(locale === "fr" ? "Conditions générales de vente" : "Terms of sale");
    // No section heading is left alone at the foot of a page, its text on the next.
    const headings = new Set(
      ["seller", ...TERMS_SECTIONS].map((section) => SOURCE_MESSAGES[locale][`terms.${section}.title` as "terms.seller.title"]),
    );
    const pages = (termsText ?? "").split("\f").filter((page) => page.trim() !== "");
    expect(pages.length).toBeGreaterThan(1);
    const lastLines = pages.slice(0, -1).map((page) => page.trim().split("\n").at(-1)?.trim() ?? "");
    expect(lastLines.filter((line) => headings.has(line))).toEqual([]);
    // The body names the seller and links to the invoice's download.
    expect(received.mail.text).toContain("Stream Shop SAS");
    expect(received.mail.html).toMatch(/https:\/\/shop\.example\/documents\/[A-Z0-9-]+\/invoice\.pdf\?k=[\w-]{22}/);
    // The link is a sentence of its own after the attachments' one: it starts with a capital.
    expect(plain(received.mail.text)).toContain(
      locale === "fr" ? "(PDF). Télécharger la facture à nouveau" : "(PDF). Download the invoice again",
    );
  });

  test(`fr scheme, ${locale}: French VAT at 20 %: 24,99 € net and 5,00 € VAT in 29,99 €`, async () => {
    const { invoice, texts, received } = await buy("fr", locale, "DE");
    // The receipt in the body states the VAT paid as the invoice writes it, cents included.
    expect(plain(received.mail.text)).toContain(locale === "fr" ? "Dont TVA : 5,00 € (20 %)" : "Including VAT: €5.00 (20%)");
    expect(invoice).toMatchObject({ vatRate: 2000, vatCountry: "FR", netAmount: 2499, vatAmount: 500, totalAmount: 2999 });
    const [invoiceText] = texts;
    expect(invoiceText).toContain("Stream Shop SAS");
    expect(invoiceText).toContain(invoice.number);
    expect(invoiceText).toContain(locale === "fr" ? "5,00 €" : "€5.00");
    expect(invoiceText).toContain("20");
  });

  test(`oss, ${locale}: a German buyer pays 19 % (net 25,20 €, VAT 4,79 €), an Italian 22 %`, async () => {
    const german = await buy("oss", locale, "DE");
    expect(german.order.billingCountry).toBe("DE");
    expect(german.invoice).toMatchObject({ vatRate: 1900, vatCountry: "DE", netAmount: 2520, vatAmount: 479 });
    expect(german.texts[0]).toContain(locale === "fr" ? "4,79 €" : "€4.79");
    expect(german.texts[0]).toContain(locale === "fr" ? "25,20 €" : "€25.20");
    expect(german.texts[0]).toContain("Stream Shop SAS");
    expect(plain(german.received.mail.text)).toContain(locale === "fr" ? "Dont TVA : 4,79 € (19 %)" : "Including VAT: €4.79 (19%)");
    await site?.close();
    site = undefined;
    smtp.received.splice(0);
    const italian = await buy("oss", locale, "IT");
    expect(italian.invoice).toMatchObject({ vatRate: 2200, vatCountry: "IT", netAmount: 2458, vatAmount: 541 });
    expect(italian.texts[0]).toContain(locale === "fr" ? "5,41 €" : "€5.41");
  });

  test(`fr, ${locale}: the receipts of a sale without VAT say why, never "VAT included" beside a VAT of 0`, async () => {
    const british = await buy("fr", locale, "GB");
    expect(british.invoice).toMatchObject({ vatRule: "outside-eu", vatAmount: 0 });
    const britishText = plain(british.received.mail.text);
    expect(britishText).toContain(
      locale === "fr" ? "29,99 €, sans TVA : acheteur hors de l'Union européenne" : "€29.99, no VAT: buyer outside the European Union",
    );
    expect(britishText).not.toMatch(/\bTTC\b|VAT included|Dont TVA|Including VAT/);
    await site?.close();
    site = undefined;
    smtp.received.splice(0);
    const company = await buy("fr", locale, "DE", {
      company: "Weber Medien GmbH",
      companyAddress: "Friedrichstraße 10, 10117 Berlin",
      companyCountry: "DE",
      vatNumber: "DE136695976",
    });
    expect(company.invoice).toMatchObject({ vatRule: "reverse-charge", vatAmount: 0, totalAmount: 2499 });
    const companyText = plain(company.received.mail.text);
    expect(companyText).toContain(
      locale === "fr"
        ? "24,99 € HT : autoliquidation, la TVA est due par votre entreprise"
        : "€24.99, excluding VAT: reverse charge, the VAT is due by your company",
    );
    expect(companyText).not.toMatch(/\bTTC\b|VAT included|Dont TVA|Including VAT/);
  });
}
