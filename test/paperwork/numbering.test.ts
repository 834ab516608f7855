import { afterEach, expect, test } from "bun:test";
import { invoices } from "../../db/schema";
import { TERMS_VERSION } from "../../shared/legal";
import { createTestSite, type TestSite } from "../support/app";

// Invoice numbers: one unbroken sequence, whatever the concurrency (the refund's credit note:
// credit-note-download.test.ts).

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const year = new Date().getFullYear();

test("200 concurrent test purchases get 200 distinct, consecutive invoice numbers in the TEST series", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss" } });
  // Straight to the test checkout (200 visitors from one address would meet the payment page's rate limit).
  const checkout = site.checkout.testCheckout!;
  const consent = { acceptedAt: new Date(), termsVersion: TERMS_VERSION };
  const request = { locale: "fr" as const, amount: 2999, currency: "EUR", successPath: "/payment-success", cancelPath: "/", consent };
  const sessions = await Promise.all(Array.from({ length: 200 }, () => checkout.createCheckout(request)));
  const card = { email: "", name: "Anna Schmidt", city: "Berlin", country: "DE", card: "4242424242424242", expiry: "12/34", cvc: "123" };
  const outcomes = await Promise.all(sessions.map((session, i) => checkout.pay(session.id, { ...card, email: `b${i}@example.com` })));
  expect(outcomes.every((o) => o.kind === "paid")).toBe(true);
  const s = site;
  const rows = s.db.select().from(invoices).all();
  expect(rows).toHaveLength(200);
  expect(new Set(rows.map((r) => r.orderId)).size).toBe(200);
  const numbers = rows.map((r) => r.number).sort();
  expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => `TEST-${year}-${String(i + 1).padStart(6, "0")}`));
  expect(rows.every((r) => r.kind === "invoice" && r.vatRate === 1900)).toBe(true);
});
