import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { confirmWithPasskey, ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { pdfText } from "./pdf-text";

// The owner's side of the paperwork in the console: the overview says how sales are invoiced, and
// an order's page downloads its invoice, then its credit note once refunded, behind the session.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const EN = { "accept-language": "en" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };

test("the overview names the VAT scheme in force", async () => {
  const said = {
    franchise: "VAT: none (franchise en base, art. 293 B CGI)",
    fr: "VAT: French: 20% on sales in the EU, none outside the EU or on reverse charge",
    oss: "VAT: the buyer&#x27;s country&#x27;s (OSS one-stop shop)",
  } as const;
  for (const scheme of ["franchise", "fr", "oss"] as const) {
    site = await createTestSite({ env: { VAT_SCHEME: scheme } });
    const cookie = await ownerCookie(site);
    const overview = await (await site.request("/admin", { headers: { cookie, ...EN } })).text();
    expect({ scheme, said: overview.includes(said[scheme]) }).toEqual({ scheme, said: true });
    await site.close();
    site = undefined;
  }
});

test("an order's page downloads its invoice, and its credit note once refunded; without the session, nothing", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "fr", SELLER_NAME: "Stream Shop SAS" } });
  const s = site;
  const cookie = await ownerCookie(s);
  await payWithTestCard(s, { locale: "en", email: "ana@example.com", country: "ES" });
  const order = s.db.select().from(orders).get()!;
  const get = (path: string, headers: Record<string, string> = { cookie, ...EN }) => s.request(path, { headers });

  const page = await (await get(`/admin/orders/${order.id}`)).text();
  expect(page).toContain(`href="/admin/orders/${order.id}/invoice.pdf"`);
  expect(page).not.toContain(`href="/admin/orders/${order.id}/credit-note.pdf"`);
  const invoice = s.db.select().from(invoices).where(eq(invoices.orderId, order.id)).get()!;
  const pdf = await get(`/admin/orders/${order.id}/invoice.pdf`);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get("content-type")).toBe("application/pdf");
  const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
  expect(text).toContain(invoice.number);
  expect(text).toContain("Stream Shop SAS");
  expect((await get(`/admin/orders/${order.id}/credit-note.pdf`)).status).toBe(404);
  // Without the owner's session the documents are not given.
  const anonymous = await get(`/admin/orders/${order.id}/invoice.pdf`, EN);
  expect(anonymous.headers.get("content-type")).not.toBe("application/pdf");

  await confirmWithPasskey(s, cookie);
  const refunded = await s.request(`/admin/orders/${order.id}/refund`, {
    method: "POST",
    headers: { cookie, ...FORM, ...EN },
    body: "confirm=yes",
  });
  expect(refunded.status).toBe(303);
  expect(s.db.select().from(orders).get()?.status).toBe("refunded");
  expect(await (await get(`/admin/orders/${order.id}`)).text()).toContain(`href="/admin/orders/${order.id}/credit-note.pdf"`);
  const note = await get(`/admin/orders/${order.id}/credit-note.pdf`);
  expect(note.status).toBe(200);
  expect(pdfText(Buffer.from(await note.arrayBuffer()))).toContain(`Cancels invoice no. ${invoice.number}`);
});
