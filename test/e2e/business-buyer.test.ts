import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { plainSpaces } from "../support/text";
import { axeViolations } from "./axe";
import { useSharedSite, watchConsole } from "./harness";
import { orderCount as countOrders, payButtonHydrated } from "./payment-page";

// "Buying for a company?" on the payment page, in Chromium: with JavaScript a malformed VAT number is
// refused before anything is sent, the summary takes the focus and links to the field; without it the
// server sends the page back with the same message. A valid German number turns the total and the pay
// button to the price excluding VAT, which the card page then asks. axe finds nothing wrong, section
// open and in error, in French and English.

const site = useSharedSite();

const orderCount = () => countOrders(site.server.dataDir);

const hydrated = payButtonHydrated;

const TEXT = {
  fr: {
    open: "Vous achetez pour une entreprise ?",
    company: "Raison sociale",
    address: "Adresse de l'entreprise",
    country: "Pays de l'entreprise",
    vat: "Numéro de TVA intracommunautaire",
    check: "La clé de contrôle de ce numéro de TVA ne correspond pas : un chiffre est sans doute erroné.",
    path: "/paiement",
    allCountries: "Un autre pays ? Afficher tous les pays",
    totalInclVat: "Total29,99 €",
    totalExclVat: "Total HTPrix TTC : 29,99 € 24,99 €",
    reverseCharge: "Hors TVA : autoliquidation",
    payExclVat: "Payer 24,99 € HT",
  },
  en: {
    open: "Buying for a company?",
    company: "Company name",
    address: "Company address",
    country: "Company's country",
    vat: "VAT number",
    check: "This VAT number's check digits don't match: a digit is probably wrong.",
    path: "/en/paiement",
    allCountries: "Another country? Show every country",
    totalInclVat: "Total€29.99",
    totalExclVat: "Total excl. VATPrice incl. VAT: €29.99 €24.99",
    reverseCharge: "Excluding VAT: reverse charge",
    payExclVat: "Pay €24.99 excl. VAT",
  },
} as const;

async function fillCompany(page: Page, text: (typeof TEXT)[keyof typeof TEXT], vat: string) {
  await page.getByText(text.open).click();
  await page.getByLabel(text.company).fill("Weber Medien GmbH");
  await page.getByLabel(text.address).fill("Friedrichstraße 10, 10117 Berlin");
  await page.getByLabel(text.country).selectOption("DE");
  await page.getByLabel(text.vat, { exact: true }).fill(vat);
  await page.getByTestId("consent-box").check();
}

for (const locale of ["fr", "en"] as const) {
  const text = TEXT[locale];
  test(`${locale}, with JavaScript: a mistyped VAT number is refused before sending, the summary focused; a valid one pays the price excl. VAT`, async () => {
    const before = orderCount();
    // bypassCSP: axe-core is injected as a script of the test's own.
    const context = await site.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const consoleLog = watchConsole(page);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/payment")) posts.push(r.url());
    });
    await page.goto(text.path);
    await hydrated(page);
    await fillCompany(page, text, "DE136695977");
    await page.getByTestId("pay-button").click();
    const summary = page.locator(".error-summary");
    await summary.waitFor({ state: "visible" });
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("error-summary");
    // French punctuation is preceded by a no-break space on the page.
    expect(plainSpaces((await summary.getByRole("link").textContent()) ?? "")).toBe(text.check);
    expect(await summary.getByRole("link").getAttribute("href")).toBe("#business-vat");
    expect(await page.locator("#business-vat").getAttribute("aria-describedby")).toContain("business-vat-error");
    expect(await axeViolations(page, `${locale} company section in error`)).toEqual([]);
    expect(posts).toEqual([]);
    expect(orderCount()).toBe(before);

    // Before paying, the total and the button say what the card page will ask: the price excl. VAT.
    expect(plainSpaces(await page.locator(".order-total").textContent()).replace(/\s+/g, " ")).toBe(text.totalInclVat);
    await page.getByLabel(text.vat, { exact: true }).fill("DE 136 695 976");
    await page.getByTestId("order-vat").getByText(text.reverseCharge).waitFor();
    expect(plainSpaces(await page.locator(".order-total").textContent()).replace(/\s+/g, " ")).toBe(text.totalExclVat);
    expect(plainSpaces(await page.getByTestId("pay-button").textContent())).toBe(text.payExclVat);
    expect(await axeViolations(page, `${locale} company reverse-charged`)).toEqual([]);
    await page.getByTestId("pay-button").click();
    await page.waitForURL("**/checkout/test/**");
    expect(await page.content()).toContain(locale === "fr" ? "24,99" : "24.99");
    expect(orderCount()).toBe(before + 1);
    expect(consoleLog.errors).toEqual([]);
    await context.close();
  });

  test(`${locale}, without JavaScript: the server sends the page back with the field's message; axe finds nothing`, async () => {
    const before = orderCount();
    const context = await site.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(text.path);
    await fillCompany(page, text, "DE136695977");
    // Enter in a field pays, as the pay button does (not the code's Apply, first on screen): in one
    // language by the key, in the other by the button.
    if (locale === "fr") await page.locator("#business-vat").press("Enter");
    else await page.getByTestId("pay-button").click();
    await page.waitForURL(`**${text.path}?error=business-vatCheck&*`);
    // The section is open, the summary and the field say why, and everything typed is still there.
    expect(await page.locator("details.business").getAttribute("open")).not.toBeNull();
    expect(await page.getByLabel(text.company).inputValue()).toBe("Weber Medien GmbH");
    expect(await page.getByLabel(text.address).inputValue()).toBe("Friedrichstraße 10, 10117 Berlin");
    expect(await page.getByLabel(text.country).inputValue()).toBe("DE");
    expect(await page.getByLabel(text.vat, { exact: true }).inputValue()).toBe("DE136695977");
    expect(plainSpaces((await page.locator("#business-vat-error").textContent()) ?? "")).toBe(text.check);
    expect(await page.locator(".error-summary a").getAttribute("href")).toBe("#business-vat");
    expect(orderCount()).toBe(before);
    // A company outside the short list: the link opens the page with every country, at the section.
    expect(await page.locator("#business-country option[value=US]").count()).toBe(0);
    await page.getByRole("link", { name: text.allCountries }).click();
    await page.waitForURL(`**${text.path}?countries=all#business-country`);
    expect(await page.locator("details.business").getAttribute("open")).not.toBeNull();
    await page.locator("#business-country").selectOption("US");
    await context.close();
    // axe needs a script: the same answer read with one, before the island hydrates it differently.
    const checking = await site.newContext({ bypassCSP: true });
    const checked = await checking.newPage();
    await checked.goto(`${text.path}?error=business-vatCheck`);
    expect(await axeViolations(checked, `${locale} company section sent back by the server`)).toEqual([]);
    await checking.close();
  });
}
