import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { invoiceLink } from "../../server/shop/paperwork/links";
import { createTestSite, SITE_SECRET, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { pdfText } from "./pdf-text";

// A refund's credit note (its own sequence, naming the invoice), and the invoice's download link:
// the right capability gives the PDF, anything else the same 404.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});
const year = new Date().getFullYear();

async function paidOrder(env: Record<string, string> = {}) {
  site = await createTestSite({
    env: { SELLER_NAME: "Stream Shop SAS", VAT_SCHEME: "fr", PUBLIC_BASE_URL: "https://shop.example", ...env },
    transport: createSmtpTransport(smtp.url),
  });
  await payWithTestCard(site, { locale: "en", email: "ana@example.com", country: "ES" });
  await smtp.waitFor(1);
  return { s: site, order: site.db.select().from(orders).get()! };
}

test("a test refund gets credit note TEST-AV-YYYY-000001, attached to the refund e-mail, citing the invoice it cancels", async () => {
  const { s, order } = await paidOrder();
  expect(
    await runCommand(
      ["orders", "refund", String(order.id)],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  await s.mailer!.deliverDue();
  await smtp.waitFor(2);
  const note = s.db.select().from(invoices).where(eq(invoices.kind, "credit-note")).get()!;
  const invoice = s.db.select().from(invoices).where(eq(invoices.kind, "invoice")).get()!;
  expect(note).toMatchObject({ number: `TEST-AV-${year}-000001`, creditsInvoiceId: invoice.id, vatAmount: invoice.vatAmount });
  const refund = mailsTo(smtp, "ana@example.com").at(-1)!;
  const attached = refund.mail.attachments.find((a) => a.contentType === "application/pdf");
  expect(attached?.filename).toBe(`credit-note-TEST-AV-${year}-000001.pdf`);
  const text = pdfText(attached!.content);
  expect(text).toContain("Credit note");
  expect(text).toContain(`Cancels invoice no. ${invoice.number}`);
  expect(text).toContain("-€29.99");
});

test("the invoice link gives the PDF; a wrong capability, a guessed reference or no capability get 404", async () => {
  const { s, order } = await paidOrder();
  const link = new URL(invoiceLink("https://shop.example", order, SITE_SECRET));
  const ok = await s.request(`${link.pathname}${link.search}`);
  expect(ok.status).toBe(200);
  expect(ok.headers.get("content-type")).toBe("application/pdf");
  const body = Buffer.from(await ok.arrayBuffer());
  expect(pdfText(body)).toContain(`TEST-${year}-000001`);
  // The same document every time: made from stored data.
  const again = Buffer.from(await (await s.request(`${link.pathname}${link.search}`)).arrayBuffer());
  expect(again.equals(body)).toBe(true);

  const capability = link.searchParams.get("k")!;
  const wrong = `${capability.slice(0, -1)}${capability.endsWith("A") ? "B" : "A"}`;
  expect((await s.request(`${link.pathname}?k=${wrong}`)).status).toBe(404);
  expect((await s.request(link.pathname)).status).toBe(404);
  const guessed = new URL(invoiceLink("https://shop.example", { reference: "AAAA-BBBB-CCCC" }, "not-the-site-secret"));
  expect((await s.request(`${guessed.pathname}${guessed.search}`)).status).toBe(404);
  // The credit note of an order not refunded does not exist.
  const credit = new URL(invoiceLink("https://shop.example", order, SITE_SECRET, "credit-note"));
  expect((await s.request(`${credit.pathname}${credit.search}`)).status).toBe(404);
});
