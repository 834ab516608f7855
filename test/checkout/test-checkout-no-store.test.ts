import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";

// The test card page shows what the buyer typed (name, e-mail): no cache keeps it, not even for
// revalidation.

let site: TestSite;
afterEach(() => site?.close());

test("the test checkout page, and its answer to a refused card, are never stored (Cache-Control: no-store)", async () => {
  site = await createTestSite();
  const created = await site.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ locale: "fr", acceptTerms: true }),
  });
  const { url }: { url: string } = await created.json();
  const page = await site.request(url);
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toBe("no-store");
  const declined = await site.request(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      email: "jean@example.com",
      name: "Jean",
      city: "Lyon",
      card: "4000 0000 0000 0002",
      expiry: "12/34",
      cvc: "123",
    }).toString(),
  });
  expect(declined.status).toBe(402);
  expect(declined.headers.get("cache-control")).toBe("no-store");
});
