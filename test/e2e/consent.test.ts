import { expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { plainSpaces } from "../support/text";
import { useSharedSite, watchConsole } from "./harness";
import { orderCount as countOrders, payButtonHydrated } from "./payment-page";
import { visit } from "./visit";

// Issue 12 in a real browser: paying without the consent box is refused with JavaScript (inline,
// nothing sent) and without (the server sends the page back with the message); the legal pages
// and their footer links fit a 320-px phone in every language.

const site = useSharedSite();

const orderCount = () => countOrders(site.server.dataDir);

const hydrated = payButtonHydrated;

test("with JavaScript: paying without ticking the box sends nothing, says why next to the box and puts the focus on it", async () => {
  const before = orderCount();
  const context = await site.newContext();
  const page = await context.newPage();
  const consoleLog = watchConsole(page);
  const posts: string[] = [];
  page.on("request", (r) => {
    // The audience beacon (a page view, a click) is not a payment: only the checkout's posts count.
    if (r.method() === "POST" && !r.url().endsWith("/api/beacon")) posts.push(r.url());
  });
  await page.goto("/en/paiement");
  await hydrated(page);
  await page.getByRole("button", { name: /Pay €29.99/ }).click({ force: true }); // aria-disabled until ticked, yet a visitor can still press it: it then says why
  const message = page.getByTestId("consent-error");
  await message.waitFor({ state: "visible" });
  expect(await message.textContent()).toBe("To pay, tick the box: you accept the terms of sale and ask for immediate access.");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("accept-terms");
  expect(posts).toEqual([]);
  expect(orderCount()).toBe(before);

  // The link in the box's label opens the terms in the page's language.
  expect(await page.getByRole("link", { name: "terms of sale", exact: true }).getAttribute("href")).toBe("/en/cgv");
  await page.keyboard.press("Space");
  expect(await message.count()).toBe(0);
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.waitForURL("**/checkout/test/**");
  expect(orderCount()).toBe(before + 1);
  expect(consoleLog.errors).toEqual([]);
  await context.close();
});

test("without JavaScript: the server sends the page back with the message; ticked, the card page says what was accepted and does not ask again", async () => {
  const before = orderCount();
  const context = await site.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/paiement");
  await page.getByRole("button", { name: /Payer 29,99/ }).click();
  await page.waitForURL("**/paiement?error=consent");
  expect(plainSpaces(await page.getByTestId("consent-error").textContent())).toBe(
    "Pour payer, cochez la case : vous acceptez les conditions générales de vente et demandez l'accès immédiat.",
  );
  expect(await page.getByTestId("consent-box").getAttribute("aria-invalid")).toBe("true");
  expect(orderCount()).toBe(before);

  await page.getByTestId("consent-box").check();
  await page.getByRole("button", { name: /Payer 29,99/ }).click();
  await page.waitForURL("**/checkout/test/**");
  expect(orderCount()).toBe(before + 1);
  await page.getByLabel("Email").fill("buyer@example.com");
  await page.getByLabel("Nom complet").fill("Camille Durand");
  await page.getByLabel("Ville").fill("Lyon");
  await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration (MM/AA)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  // The consent was given on the previous page: said, with the terms one click away, not asked again.
  expect(await page.getByTestId("consent-box").count()).toBe(0);
  expect(await page.getByTestId("consent-given").textContent()).toContain(
    "À l'étape précédente, vous avez accepté les conditions générales de vente",
  );
  expect(await page.getByTestId("consent-given").getByRole("link", { name: "conditions générales de vente" }).getAttribute("href")).toBe(
    "/cgv",
  );
  await page.getByRole("button", { name: /Payer 29,99/ }).click();
  await page.waitForURL("**/payment-success?session_id=*");
  expect(plainSpaces(await page.locator("h1").textContent())).toBe("Paiement réussi — Merci !");
  await context.close();
});

// Whether the whole page scrolls sideways (the header's own width) is the browser sweep's check;
// this one is about what the legal pages add: their text, facts and the footer's links.
test("the legal pages' content and the footer's links fit a 320-px phone in every language", async () => {
  const context = await site.newContext({ viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  // The pages (server HTML, with the support and toast islands) load without a console warning.
  const consoleLog = watchConsole(page);
  const problems: string[] = [];
  for (const locale of LOCALES) {
    for (const legal of ["legal-notice", "terms", "privacy"] as const) {
      const path = pathFor(legal, locale);
      // Measured in its font (a fallback font's widths are not what the visitor sees).
      await visit(page, path);
      const fit = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const outside = [...document.querySelectorAll(".site-footer a, .legal a, .legal dd, .legal h1, .legal h2")]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0 && (r.left < -0.5 || r.right > width + 0.5)).length;
        const main = document.querySelector(".legal")?.scrollWidth ?? 0;
        return { overflow: Math.max(0, main - width), outside };
      });
      if (fit.overflow > 0 || fit.outside > 0) problems.push(`${path}: ${JSON.stringify(fit)}`);
    }
  }
  expect(problems).toEqual([]);
  expect(consoleLog.errors).toEqual([]);
  await context.close();
});
