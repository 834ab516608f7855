import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { invoices, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";

// Invoice numbers: one unbroken sequence, whatever the concurrency; a refund's credit note has
// its own sequence and names the invoice it cancels.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const year = new Date().getFullYear();

test("200 concurrent purchases get 200 distinct, consecutive invoice numbers", async () => {
  site = await createTestSite({ env: { VAT_SCHEME: "oss" } });
  const s = site;
  await Promise.all(Array.from({ length: 200 }, (_, i) => payWithTestCard(s, { locale: "fr", email: `b${i}@example.com`, country: "DE" })));
  const rows = s.db.select().from(invoices).all();
  expect(rows).toHaveLength(200);
  expect(new Set(rows.map((r) => r.orderId)).size).toBe(200);
  const numbers = rows.map((r) => r.number).sort();
  expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => `${year}-${String(i + 1).padStart(6, "0")}`));
  expect(rows.every((r) => r.kind === "invoice" && r.vatRate === 1900)).toBe(true);
});
