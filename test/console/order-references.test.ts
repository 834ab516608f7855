import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mailOutbox, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { exportCsv } from "../../server/owner/export-csv";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { ownerCookie } from "./owner";

// The owner finds and acts on orders by the reference buyers quote: the console's search and
// pages, the command line, the exports.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

test("the console finds an order by its reference typed in any case, without dashes, and shows the reference, not the row number", async () => {
  const s = (site = await createTestSite());
  await payWithTestCard(s, { locale: "en", email: "quoted@example.com" });
  await payWithTestCard(s, { locale: "en", email: "other@example.com" });
  const order = s.db.select().from(orders).where(eq(orders.customerEmail, "quoted@example.com")).get();
  const reference = order?.reference ?? "";
  const cookie = await ownerCookie(s);
  const get = (path: string) => s.request(path, { headers: { cookie, "accept-language": "en" } });
  const found = await (await get(`/admin/orders?q=${reference.toLowerCase().replace(/-/g, "")}`)).text();
  expect(found).toContain(`<a href="/admin/orders/${order?.id}">${reference}</a>`);
  expect(found).toContain("quoted@example.com");
  expect(found).not.toContain("other@example.com");
  const list = await (await get("/admin/orders")).text();
  expect(list).not.toMatch(/>#\d+</);
  const page = await (await get(`/admin/orders/${order?.id}`)).text();
  expect(page).toContain(`<title>Order ${reference}`);
});

test("the command line refunds and resends by reference; the exports carry it", async () => {
  const s = (site = await createTestSite());
  await payWithTestCard(s, { locale: "fr", email: "cli@example.com" });
  const order = s.db.select().from(orders).get();
  const reference = order?.reference ?? "";
  const out: string[] = [];
  const err: string[] = [];
  expect(
    await runCommand(
      ["orders", "resend", reference.toLowerCase()],
      s.config,
      (l) => out.push(l),
      (l) => err.push(l),
    ),
  ).toBe(0);
  expect(
    await runCommand(
      ["orders", "refund", "ZZZZ-ZZZZ-ZZZZ"],
      s.config,
      (l) => out.push(l),
      (l) => err.push(l),
    ),
  ).toBe(1);
  expect(err.at(-1)).toContain("No order has the reference ZZZZ-ZZZZ-ZZZZ");
  expect(
    await runCommand(
      ["orders", "refund", reference],
      s.config,
      (l) => out.push(l),
      (l) => err.push(l),
    ),
  ).toBe(0);
  expect(s.db.select().from(orders).get()?.status).toBe("refunded");
  expect(s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "refund")).all()).toHaveLength(1);
  let csv = "";
  exportCsv(s.db, "orders", (chunk) => {
    csv += chunk;
  });
  expect(csv.split("\n")[0]).toStartWith("id,reference,");
  expect(csv).toContain(reference);
});
