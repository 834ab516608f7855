import { afterEach, expect, test } from "bun:test";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";
import { payWithTestCard } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";

// The access e-mail of an order made with a discount code, as the buyer receives it (real SMTP on
// loopback): its receipt names the price, the code and what it took off, then what was paid, in the
// buyer's language, as the attached invoice does.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** A body's text with the non-breaking and narrow spaces of amounts read as plain spaces, lines joined. */
const plain = (text: unknown) =>
  String(text)
    .replace(/[\u00a0\u202f]/g, " ")
    .replace(/\s+/g, " ");

const RECEIPTS = {
  fr: ["Prix : 29,99 € Réduction (code SPRING20) : −6,00 € Montant payé : 23,99 € TTC"],
  en: ["Price: €29.99 Discount (code SPRING20): −€6.00 Amount paid: €23.99, VAT included"],
  it: ["Prezzo: 29,99 € Sconto (codice SPRING20): −6,00 €", ": 23,99 €"],
  es: ["Precio: 29,99 € Descuento (código SPRING20): −6,00 €", ": 23,99 €"],
} as const;

test("the access e-mail of a 20 % code names the price, the code and its reduction, and what was paid, in each language", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" }, transport: createSmtpTransport(smtp.url) });
  const s = site;
  expect((await cli(s, "codes", "create", "SPRING20", "--percent", "20")).code).toBe(0);
  for (const locale of ["fr", "en", "it", "es"] as const) {
    await payWithTestCard(s, { locale, email: `code-${locale}@example.com`, country: "FR", payment: { code: "spring20" } });
  }
  await smtp.waitFor(4);
  for (const locale of ["fr", "en", "it", "es"] as const) {
    const [received] = mailsTo(smtp, `code-${locale}@example.com`);
    const text = plain(received?.mail.text);
    for (const line of RECEIPTS[locale]) expect({ locale, has: text.includes(line), line }).toEqual({ locale, has: true, line });
  }
});

test("without a code the receipt names no reduction", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr" }, transport: createSmtpTransport(smtp.url) });
  await payWithTestCard(site, { locale: "en", email: "full@example.com", country: "FR" });
  await smtp.waitFor(1);
  const [received] = mailsTo(smtp, "full@example.com");
  const text = plain(received?.mail.text);
  expect(text).toContain("Product: Lifetime Stream — lifetime access Amount paid: €29.99, VAT included");
  expect(text).not.toContain("Discount");
});

test("the access e-mail of a 100 % code says no card was charged, where a paid order's names the card", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr", OWNER_EMAIL: "owner@example.com" }, transport: createSmtpTransport(smtp.url) });
  const s = site;
  expect((await cli(s, "codes", "create", "PRESS", "--percent", "100")).code).toBe(0);
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: form,
    body: new URLSearchParams({ locale: "fr", acceptTerms: "yes", code: "press" }).toString(),
  });
  const claimPage = start.headers.get("location") ?? "";
  const claim = new URLSearchParams({ email: "press@example.com", name: "Camille", city: "Paris", country: "FR" });
  const claimed = await s.request(claimPage, { method: "POST", headers: form, body: claim.toString() });
  expect(claimed.status).toBe(303);
  // The page after the claim: the access is ready, nothing "paid", and no refund of nothing offered.
  const success = plain(await (await s.request(claimed.headers.get("location") ?? "")).text());
  expect(success).toContain("<title>Accès prêt — ");
  expect(success).toContain("Votre accès est prêt — Merci !");
  expect(success).not.toContain("Paiement réussi");
  expect(success).not.toContain("/remboursement");
  await payWithTestCard(s, { locale: "fr", email: "card@example.com", country: "FR" });
  await smtp.waitFor(4);
  // The owner's notices: the claim names its code, not "New sale: 0 €"; the card order is a sale.
  const notices = mailsTo(smtp, "owner@example.com").map((m) => plain(m.mail.subject));
  expect(notices.filter((subject) => subject.includes("code PRESS"))).toHaveLength(1);
  expect(notices.some((subject) => /0 ?€|€ ?0\b/.test(subject))).toBe(false);
  expect(notices.filter((subject) => subject.includes("29,99"))).toHaveLength(1);
  const free = plain(mailsTo(smtp, "press@example.com")[0]?.mail.text);
  // Nothing paid: "0,00 €" like the price and reduction above it, no VAT wording, no "before paying".
  expect(free).toContain("Réduction (code PRESS) : −29,99 € Montant payé : 0,00 € Paiement :");
  expect(free).not.toContain("Dont TVA");
  expect(free).toContain("Avant de recevoir votre accès, vous avez accepté les conditions générales de vente");
  expect(free).not.toContain("Avant de payer");
  expect(free).not.toContain("satisfait ou remboursé");
  expect(free).toContain("Paiement : Aucun : accès offert par un code de réduction à 100 %");
  expect(free).not.toContain("Carte bancaire");
  // Nothing was paid: the e-mail offers no refund of it; the card order's does.
  expect(free).not.toContain("/remboursement");
  expect(plain(mailsTo(smtp, "card@example.com")[0]?.mail.text)).toContain("/remboursement");
  expect(plain(mailsTo(smtp, "card@example.com")[0]?.mail.text)).toContain("Paiement : Carte bancaire, paiement unique");
  expect(plain(mailsTo(smtp, "card@example.com")[0]?.mail.text)).toContain("Avant de payer, vous avez accepté");
});
