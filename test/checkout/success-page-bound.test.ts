import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { licenses, orders } from "../../db/schema";
import { SUCCESS_KEY_SHOWN_MS } from "../../server/shop/checkout/success-order";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { plainSpaces } from "../support/text";

// The address the payment provider sends the buyer back to (`?session_id=`) stays in the browser's
// history and wherever it was copied: it shows the licence key and the order's signed links only for
// a bounded time after payment, then only that the access e-mail was sent.

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const MINUTE = 60 * 1000;

test("the success page shows the key and the order's links for an hour after payment, then only that the e-mail was sent", async () => {
  const clock = testClock();
  site = await createTestSite({ now: clock.now });
  const { successPath } = await payWithTestCard(site, { locale: "en", email: "buyer@example.com" });
  const order = site.db.select().from(orders).get();
  const key = order === undefined ? undefined : site.db.select().from(licenses).where(eq(licenses.orderId, order.id)).get()?.key;
  if (order === undefined || key === undefined) throw new Error("no paid order with a key");

  const fresh = await (await site.request(successPath)).text();
  expect(fresh).toContain(key);
  expect(fresh).toContain("/documents/");
  expect(fresh).toContain("&amp;t=");

  clock.advance(SUCCESS_KEY_SHOWN_MS - MINUTE);
  expect(await (await site.request(successPath)).text()).toContain(key);

  clock.advance(2 * MINUTE);
  const response = await site.request(successPath);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toContain("no-store");
  const late = await response.text();
  expect(late).not.toContain(key);
  expect(late).not.toContain("/documents/");
  expect(late).not.toContain("order=");
  expect(late).not.toContain("buyer@example.com");
  expect(plainSpaces(/<h1[^>]*>(.*?)<\/h1>/.exec(late)?.[1])).toBe("Payment received");
  expect(late).toContain(order.reference);
  expect(late).toContain("sent by e-mail");
  // The buyer who lost the e-mail can have it sent again from there.
  expect(late).toContain('id="lost-access"');

  // The access e-mail's own signed link is not bound to the hour: it is the e-mail's capability.
  const signed = /href="((?:\/[a-z]{2})?\/payment-success\?order=[^"]+)"/.exec(fresh)?.[1]?.replaceAll("&amp;", "&");
  expect(signed).toBeDefined();
  expect(await (await site.request(signed ?? "")).text()).toContain(key);
});
