import { afterAll, beforeAll, expect, test } from "bun:test";
import { SOURCE_MESSAGES as MESSAGES } from "../../server/site/locales";
import { LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { plainSpaces } from "../support/text";

// /payment-success claims success only for a paid order this site knows. Without an
// order id, with an unknown or malformed one, neither the <title> nor the heading says so.

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

const page = async (path: string) => {
  const html = await (await site.request(path)).text();
  const text = (tag: string) =>
    (new RegExp(`<${tag}[^>]*>(.*?)</${tag}>`).exec(html)?.[1] ?? "").replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
  return { html, title: text("title"), h1: text("h1") };
};

/** The words of the success title in a language, without the site name: "Paiement réussi", "Payment successful"... */
const successWords = (locale: (typeof LOCALES)[number]) => (MESSAGES[locale].successTitle ?? "").split(" — ")[0] ?? "";

test("without an order id, with an unknown or a malformed one, no page title or heading claims success, in any language", async () => {
  for (const locale of LOCALES) {
    const words = successWords(locale);
    expect(words.length).toBeGreaterThan(5);
    const base = pathFor("success", locale);
    for (const path of [base, `${base}?session_id=cs_test_unknown123`, `${base}?session_id=<script>`]) {
      const { title, h1 } = await page(path);
      expect({ path, title: title.includes(words), h1: h1.includes(words) }).toEqual({ path, title: false, h1: false });
      expect(h1.length).toBeGreaterThan(0);
    }
  }
  expect(plainSpaces((await page("/payment-success")).h1)).toBe("Vous cherchez votre commande ?");
  expect((await page("/payment-success")).title).toBe("Votre commande — Lifetime Stream");
  expect((await page("/en/payment-success?session_id=cs_test_unknown123")).title).toBe("Order not found — Lifetime Stream");
  // What the page offers instead: the access e-mail again.
  expect((await page("/en/payment-success")).html).toContain('id="lost-access"');
});

test("a paid order's page says so in the title and the heading", async () => {
  const { successPath } = await payWithTestCard(site, { locale: "en", email: "paid@example.com" });
  expect(successPath).toStartWith("/en/payment-success?session_id=");
  const { title, h1 } = await page(successPath);
  expect(title).toBe("Payment successful — Lifetime Stream");
  expect(h1).toBe("Payment successful — Thank you!");
});
