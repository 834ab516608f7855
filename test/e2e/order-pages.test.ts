import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { axeViolations } from "./axe";
import { type RunningServer, startServer } from "./harness";
import { useBrowser } from "./shared-browser";

// A buyer's journey after paying, in Chromium, with and without JavaScript: the success page waits
// for the payment by itself, then shows the licence key (copied with the button, or selected as
// text), and its refund link leads to the guarantee's refund page, which refunds on one click.

let server: RunningServer;
const shared = useBrowser();

beforeAll(async () => {
  server = await startServer({ env: { OWNER_EMAIL: "owner@shop.example" } });
});
afterAll(async () => {
  await server?.stop();
});

const EN = { email: "E-mail", name: "Full name", city: "City", card: "Card number", expiry: "Expiry (MM/YY)", cvc: "CVC" };

function row<T>(sql: string, ...params: string[]): T | undefined {
  const db = new Database(join(server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<T, string[]>(sql).get(...params) ?? undefined;
  } finally {
    db.close();
  }
}

/** Starts a checkout from the payment page and returns its card page's address, not yet paid. */
async function startCheckout(page: Page, hydrated: boolean): Promise<string> {
  await page.goto(`${server.baseUrl}/en/paiement`);
  if (hydrated) {
    await page.waitForFunction(() => {
      const button = document.querySelector('[data-testid="pay-button"]');
      return button !== null && Object.keys(button).some((k) => k.startsWith("__reactProps"));
    });
  }
  await page.getByTestId("consent-box").check();
  await page.getByTestId("pay-button").click();
  await page.waitForURL("**/checkout/test/**");
  return page.url();
}

async function payOn(page: Page, cardPage: string, buyer: string) {
  await page.goto(cardPage);
  await page.getByLabel(EN.email).fill(buyer);
  await page.getByLabel(EN.name).fill("Sam Taylor");
  await page.getByLabel(EN.city).fill("Leeds");
  await page.getByLabel(EN.card).fill("4242 4242 4242 4242");
  await page.getByLabel(EN.expiry).fill("12/34");
  await page.getByLabel(EN.cvc).fill("123");
  await page.locator('form button[type="submit"]').first().click();
  await page.waitForURL("**/payment-success?session_id=*");
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";
  test(`${mode}: the pending page updates itself, then shows the licence key and the reference; the refund link refunds on one click`, async () => {
    // bypassCSP lets the accessibility checker in (test/e2e/axe.ts); the pages are unchanged.
    const context = await shared.newContext({ javaScriptEnabled, locale: "en-GB", bypassCSP: true });
    if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    try {
      const buyer = `journey-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
      const page = await context.newPage();
      const cardPage = await startCheckout(page, javaScriptEnabled);
      const checkoutId = cardPage.split("/").at(-1) ?? "";
      // The buyer's first tab waits on the success page while the payment is not made yet.
      await page.goto(`${server.baseUrl}/en/payment-success?session_id=${checkoutId}`);
      await page.getByRole("heading", { level: 1, name: "Confirming your payment…" }).waitFor();
      const payTab = await context.newPage();
      await payOn(payTab, cardPage, buyer);
      // The waiting tab finds the payment by itself (script or meta refresh), at the order's signed link.
      await page.waitForURL("**/payment-success?order=*", { timeout: 20_000 });
      await page.getByRole("heading", { level: 1, name: "Payment successful — Thank you!" }).waitFor({ timeout: 20_000 });
      const order = row<{ reference: string; key: string; id: number }>(
        "SELECT o.reference, o.id, l.key FROM orders o JOIN licenses l ON l.order_id = o.id WHERE o.customer_email = ?",
        buyer,
      );
      expect(order?.key).toBeString();
      expect(await page.locator(".order-key__value").textContent()).toBe(order?.key ?? "");
      await page.getByText(order?.reference ?? "", { exact: true }).waitFor();
      expect(page.url()).toContain(`order=${order?.reference}`);
      expect(page.url()).not.toContain(`order=${order?.id}&`);
      if (javaScriptEnabled) {
        await page.getByRole("button", { name: "Copy the key" }).click();
        await page.getByRole("status").filter({ hasText: "Key copied." }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(order?.key ?? "");
        // The page's toasts came to life with its first island (the key's): the support menu's
        // e-mail entry copies the address and says so.
        await page.getByRole("button", { name: "Support" }).click();
        await page.getByRole("menuitem", { name: "E-mail Support" }).click();
        await page.getByText("E-mail copied!").waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("support@example.com");
      } else {
        // No button that could not work; the key is text that one click selects whole.
        expect(await page.getByRole("button", { name: "Copy the key" }).count()).toBe(0);
        await page.locator(".order-key__value").click();
        expect(await page.evaluate(() => window.getSelection()?.toString() ?? "")).toBe(order?.key ?? "");
      }
      // The checker is a script: it runs in the journey with JavaScript (the same HTML).
      if (javaScriptEnabled) expect(await axeViolations(page, "success page")).toEqual([]);

      await page.getByRole("link", { name: "7-day money-back guarantee: ask for a refund" }).click();
      await page.getByRole("heading", { level: 1, name: "Ask for a refund" }).waitFor();
      if (javaScriptEnabled) expect(await axeViolations(page, "refund page")).toEqual([]);
      await page.getByRole("button", { name: /^Refund me/ }).click();
      await page.getByRole("heading", { level: 1, name: "Order refunded" }).waitFor();
      expect(row<{ status: string }>("SELECT status FROM orders WHERE customer_email = ?", buyer)?.status).toBe("refunded");
      expect(
        row<{ status: string }>("SELECT l.status FROM licenses l JOIN orders o ON o.id = l.order_id WHERE o.customer_email = ?", buyer)
          ?.status,
      ).toBe("disabled");
      // The success page now says the order was refunded.
      await page.goBack();
      await page.goBack();
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "Order refunded" }).waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);
}

test("a guessed reference opens nothing in the browser: the page is a 404", async () => {
  const context = await shared.newContext({ locale: "en-GB", bypassCSP: true });
  try {
    const page = await context.newPage();
    const answer = await page.goto(`${server.baseUrl}/en/payment-success?order=K7QM-2XHD-9CVT`);
    expect(answer?.status()).toBe(404);
    const refund = await page.goto(`${server.baseUrl}/en/remboursement?order=K7QM-2XHD-9CVT&t=a.b.c`);
    expect(refund?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "Refund link not found" }).waitFor();
    expect(await axeViolations(page, "refund page, invalid link")).toEqual([]);
  } finally {
    await context.close();
  }
}, 60_000);
