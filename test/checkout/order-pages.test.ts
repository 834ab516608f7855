import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { licenses, orders } from "../../db/schema";
import { signOrderLink } from "../../server/shop/checkout/order-links";
import { ORDER_PAGES_RATE_LIMIT } from "../../server/shop/checkout/refund-controller";
import { generateOrderReference } from "../../shared/order-reference";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";

// The success page names an order by its reference and shows the licence key once paid; only the
// site's own signed link (or the provider's session id) opens it: a reference alone, guessed or
// counted, finds nothing.

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const decode = (html: string) => html.replace(/&amp;/g, "&");
const h1Of = (html: string) => /<h1[^>]*>(.*?)<\/h1>/.exec(html)?.[1] ?? "";

test("a paid order's page shows its licence key, reference, address, guide, invoice and refund links, and no shared cache keeps it", async () => {
  const { successPath } = await payWithTestCard(site, { locale: "en", email: "keyed@example.com" });
  const response = await site.request(successPath);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("referrer-policy")).toBe("strict-origin");
  const html = decode(await response.text());
  const order = site.db.select().from(orders).where(eq(orders.customerEmail, "keyed@example.com")).get();
  const license = site.db
    .select()
    .from(licenses)
    .where(eq(licenses.orderId, order?.id ?? 0))
    .get();
  expect(license?.key).toBeString();
  expect(html).toContain(`<code class="order-key__value">${license?.key}</code>`);
  expect(html).toContain(`<dd>${order?.reference}</dd>`);
  expect(html).toContain("<dd>keyed@example.com</dd>");
  expect(html).toContain('href="/en/guide"');
  // The invoice link downloads the order's invoice.
  const invoice = new RegExp(`href="(/documents/${order?.reference}/invoice\\.pdf\\?k=[\\w-]+)"`).exec(html)?.[1];
  expect(invoice).toBeString();
  const pdf = await site.request(invoice ?? "");
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get("content-type")).toContain("application/pdf");
  expect(html).toMatch(new RegExp(`href="/en/remboursement\\?order=${order?.reference}&t=[\\w.-]+"`));
  // The row number is nowhere on the page.
  expect(html).not.toContain(`#${order?.id}<`);
  // The language switcher keeps the order by its signed reference, not by the provider's id.
  expect(html).toMatch(new RegExp(`href="/it/payment-success\\?order=${order?.reference}&t=[\\w.-]+"`));
});

test("the signed link of the page opens the same order; a guessed reference, a row number or a real reference without its signature finds nothing", async () => {
  const { successPath } = await payWithTestCard(site, { locale: "fr", email: "linked@example.com" });
  const first = decode(await (await site.request(successPath)).text());
  // The page's own address by reference, as its French alternate names it.
  const link = /hrefLang="fr" href="http:\/\/localhost:\d+(\/payment-success\?order=[^"]+)"/.exec(first)?.[1] ?? "";
  expect(link).toStartWith("/payment-success?order=");
  const page = await site.request(link);
  expect(page.status).toBe(200);
  const order = site.db.select().from(orders).where(eq(orders.customerEmail, "linked@example.com")).get();
  const html = await page.text();
  expect(html).toContain(`<dd>${order?.reference}</dd>`);
  expect(h1Of(html)).toContain("Paiement réussi");

  const reference = order?.reference ?? "";
  const anotherToken = await signOrderLink(site.licenseKeys, generateOrderReference(), new Date());
  const realToken = new URL(link, "http://x").searchParams.get("t") ?? "";
  for (const path of [
    `/payment-success?order=${reference}`,
    `/payment-success?order=${generateOrderReference()}&t=${realToken}`,
    `/payment-success?order=${reference}&t=${anotherToken}`,
    `/payment-success?order=${order?.id}&t=${realToken}`,
    `/payment-success?order=1`,
    `/payment-success?order=${reference}&t=${realToken.slice(0, -4)}AAAA`,
  ]) {
    const answer = await site.request(path);
    const text = await answer.text();
    expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    expect(text).not.toContain(reference);
    expect(h1Of(text)).not.toContain("Paiement réussi");
  }
});

test("a pending order's page says it looks again by itself, with a script and with a meta refresh to its signed link", async () => {
  const start = await site.request("/api/payment", { method: "POST", headers: FORM, body: "locale=en&acceptTerms=yes" });
  const checkoutId = (start.headers.get("location") ?? "").split("/").at(-1) ?? "";
  const html = decode(await (await site.request(`/en/payment-success?session_id=${checkoutId}`)).text());
  const order = site.db.select().from(orders).where(eq(orders.checkoutId, checkoutId)).get();
  expect(order?.status).toBe("pending");
  expect(h1Of(html)).toBe("Confirming your payment…");
  expect(html).toContain("This page refreshes by itself");
  expect(html).toContain(`Order reference: ${order?.reference}`);
  expect(html).toMatch(
    new RegExp(
      `<noscript><meta http-equiv="refresh" content="5;url=/en/payment-success\\?order=${order?.reference}&t=[\\w.-]+"/></noscript>`,
    ),
  );
  expect(html).toContain('data-island="pending-refresh"');
});

test("a refunded order's page says it was refunded, and shows no key", async () => {
  const { successPath } = await payWithTestCard(site, { locale: "en", email: "refunded@example.com" });
  const order = site.db.select().from(orders).where(eq(orders.customerEmail, "refunded@example.com")).get();
  const key =
    site.db
      .select()
      .from(licenses)
      .where(eq(licenses.orderId, order?.id ?? 0))
      .get()?.key ?? "";
  await site.write((tx) =>
    tx
      .update(orders)
      .set({ status: "refunded", refundedAt: new Date() })
      .where(eq(orders.id, order?.id ?? 0))
      .run(),
  );
  const html = await (await site.request(successPath)).text();
  expect(h1Of(html)).toBe("Order refunded");
  expect(html).toContain(`Order ${order?.reference} has been refunded`);
  expect(html).not.toContain(key);
});

test("looking up orders is rate-limited per client: a script counting references is stopped with 429", async () => {
  const own = await createTestSite();
  try {
    const statuses: number[] = [];
    for (let i = 0; i <= ORDER_PAGES_RATE_LIMIT.limit; i++) {
      statuses.push((await own.request(`/payment-success?order=${generateOrderReference()}&t=a.b.c`)).status);
    }
    expect(statuses.slice(0, ORDER_PAGES_RATE_LIMIT.limit).every((s) => s === 404)).toBe(true);
    const last = await own.request(`/payment-success?order=${generateOrderReference()}&t=a.b.c`);
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
  } finally {
    await own.close();
  }
});
