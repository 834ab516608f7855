import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { plainSpaces } from "../support/text";
import { useSite, watchConsole } from "./harness";
import { sideBySide } from "./limit";

// Browser journeys through the built-in test checkout, in French and English, with and
// without JavaScript. The orders table is read after each, as the owner would with sqlite3.

const site = useSite();

/** The journeys are independent (each its own context, each reading only the order it made): side
 * by side, three at a time. */
const journey = sideBySide(3);

type OrderRow = {
  status: string;
  locale: string;
  first_name: string | null;
  city: string | null;
  customer_email: string | null;
  paid_at: number | null;
};
function ordersInDb(): OrderRow[] {
  const db = new Database(join(site.server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<OrderRow, []>("SELECT status, locale, first_name, city, customer_email, paid_at FROM orders ORDER BY id").all();
  } finally {
    db.close();
  }
}
/** The orders a journey made: each journey pays with an address of its own, as they run side by
 * side. */
const ordersOf = (email: string) => ordersInDb().filter((o) => o.customer_email === email);

/** Hydrated: React has attached its props to the pay button. */
async function waitForPayButton(page: Page) {
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid="pay-button"]');
    return button !== null && Object.keys(button).some((k) => k.startsWith("__reactProps"));
  });
}

/** From the payment page in `path`, through the pay button, to the test checkout's card page. */
async function openCardPage(page: Page, path: "/paiement" | "/en/paiement") {
  await page.goto(path);
  await waitForPayButton(page);
  await page.getByTestId("consent-box").check();
  await page.getByTestId("pay-button").click();
  await page.waitForURL("**/checkout/test/**");
}

/** Hydrated: React handles the card form's submit and the card number's grouping. */
async function waitForCardForm(page: Page) {
  await page.waitForFunction(() => {
    const form = document.querySelector("form.test-checkout__form");
    return form !== null && Object.keys(form).some((k) => k.startsWith("__reactProps"));
  });
}

async function fillCard(
  page: Page,
  labels: { email: string; name: string; city: string; card: string; expiry: string; cvc: string },
  values: { card: string; name?: string; city?: string; email?: string },
) {
  await page.getByLabel(labels.email).fill(values.email ?? "buyer@example.com");
  await page.getByLabel(labels.name).fill(values.name ?? "Camille Durand");
  await page.getByLabel(labels.city).fill(values.city ?? "Lyon");
  await page.getByLabel(labels.card).fill(values.card);
  await page.getByLabel(labels.expiry).fill("12/34");
  await page.getByLabel(labels.cvc).fill("123");
}

const FR = { email: "Email", name: "Nom complet", city: "Ville", card: "Numéro de carte", expiry: "Expiration (MM/AA)", cvc: "CVC" };
const EN = { email: "E-mail", name: "Full name", city: "City", card: "Card number", expiry: "Expiry (MM/YY)", cvc: "CVC" };

journey("fr: landing -> « Obtenir l'accès » -> pay -> test card -> « Paiement réussi — Merci ! » with a paid order", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  const consoleLog = watchConsole(page);
  // Every request the journey makes is answered; the card page (the provider's own, in production) sends no beacon.
  const refused: string[] = [];
  const beaconsFrom: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  page.on("request", (r) => {
    if (r.url().endsWith("/api/beacon")) beaconsFrom.push(new URL(page.url()).pathname.split("/")[1] ?? "");
  });
  await page.goto("/");
  await page.getByRole("link", { name: "Obtenir l'accès", exact: true }).first().click();
  await page.waitForURL("**/paiement");
  await waitForPayButton(page);

  const request = page.waitForRequest((r) => r.url().endsWith("/api/payment"));
  await page.getByRole("checkbox", { name: /J'accepte les conditions générales de vente/ }).check();
  await page.getByRole("button", { name: /Payer 29,99/ }).click();
  // The purchase-notice box left unticked: this order never shows in the notice.
  expect(JSON.parse((await request).postData() ?? "")).toEqual({ locale: "fr", acceptTerms: true, showInNotice: false });
  await page.waitForURL("**/checkout/test/**");
  expect(await page.getAttribute("html", "lang")).toBe("fr");
  expect(await page.getByTestId("test-mode").textContent()).toBe("MODE TEST");

  await fillCard(page, FR, { card: "4242 4242 4242 4242", name: "Camille Durand", city: "Lyon", email: "camille@example.com" });
  await page.getByRole("button", { name: /Payer 29,99/ }).click();
  await page.waitForURL("**/payment-success?session_id=*");
  expect(plainSpaces(await page.locator("h1").textContent())).toBe("Paiement réussi — Merci !");
  // One order, paid.
  expect(ordersOf("camille@example.com")).toEqual([
    expect.objectContaining({ status: "paid", locale: "fr", first_name: "Camille", city: "Lyon", customer_email: "camille@example.com" }),
  ]);
  expect(consoleLog.errors).toEqual([]);
  expect(refused).toEqual([]);
  expect(beaconsFrom).not.toContain("checkout");
  await context.close();
});

journey("en: the same journey in English ends on 'Payment successful'", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await page.goto("/en");
  await page.getByRole("link", { name: "Get access", exact: true }).first().click();
  await page.waitForURL("**/en/paiement");
  await waitForPayButton(page);
  await page.getByTestId("consent-box").check();
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.waitForURL("**/checkout/test/**");
  expect(await page.getAttribute("html", "lang")).toBe("en");
  await fillCard(page, EN, { card: "4242424242424242", name: "Sam Taylor", city: "Leeds", email: "sam@example.com" });
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.waitForURL("**/en/payment-success?session_id=*");
  expect(await page.locator("h1").textContent()).toBe("Payment successful — Thank you!");
  expect(ordersOf("sam@example.com")).toEqual([
    expect.objectContaining({ status: "paid", locale: "en", first_name: "Sam", city: "Leeds" }),
  ]);
  await context.close();
});

journey("a declined card stays on the card page with a clear message and no paid order", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await openCardPage(page, "/en/paiement");
  const url = page.url();
  await fillCard(page, EN, { card: "4000 0000 0000 0002", email: "declined@example.com" });
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.getByTestId("checkout-error").waitFor({ state: "visible" });
  expect(await page.getByTestId("checkout-error").textContent()).toBe("Your card was declined. Please use another card.");
  expect(page.url()).toBe(url);
  expect(await page.getByTestId("test-mode").textContent()).toBe("TEST MODE");
  expect(ordersOf("declined@example.com").filter((o) => o.status === "paid")).toEqual([]);
  await context.close();
});

journey("declined, then paid, then Back: the card page says the order is paid, with no decline and no card number", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await openCardPage(page, "/en/paiement");
  await fillCard(page, EN, { card: "4000 0000 0000 0002" });
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.getByTestId("checkout-error").waitFor({ state: "visible" });
  await waitForCardForm(page);
  await fillCard(page, EN, { card: "4242 4242 4242 4242" });
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.waitForURL("**/en/payment-success?session_id=*");
  await page.goBack();
  await page.getByText("This order is already paid.").waitFor({ state: "visible" });
  expect(await page.getByTestId("checkout-error").count()).toBe(0);
  expect(await page.getByLabel("Card number").count()).toBe(0);
  expect(await page.getByRole("link", { name: "View my order" }).getAttribute("href")).toMatch(
    /^\/en\/payment-success\?session_id=cs_test_/,
  );
  await context.close();
});

journey(
  "the card number is grouped by four as it is typed, also when a digit is put in the middle; the expiry gets its slash",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    await openCardPage(page, "/en/paiement");
    await waitForCardForm(page);
    const card = page.getByLabel("Card number");
    await card.pressSequentially("424242424242");
    expect(await card.inputValue()).toBe("4242 4242 4242");
    await page.keyboard.press("Home");
    await page.keyboard.type("9");
    expect(await card.inputValue()).toBe("9424 2424 2424 2");
    // The caret stayed after the 9: the next digit goes right after it.
    await page.keyboard.type("8");
    expect(await card.inputValue()).toBe("9842 4242 4242 42");
    expect(await card.getAttribute("autocomplete")).toBe("off");
    // The expiry gets its slash the same way.
    const expiry = page.getByLabel("Expiry (MM/YY)");
    await expiry.pressSequentially("1234");
    expect(await expiry.inputValue()).toBe("12/34");
    await context.close();
  },
);

journey("expiry and CVC fields are level on phones in every language, also when the expiry label wraps", async () => {
  for (const path of ["/paiement", "/en/paiement", "/it/paiement", "/es/paiement"] as const) {
    const context = await site.newContext({ viewport: { width: 320, height: 740 } });
    const page = await context.newPage();
    await page.goto(path);
    await waitForPayButton(page);
    await page.getByTestId("consent-box").check();
    await page.getByTestId("pay-button").click();
    await page.waitForURL("**/checkout/test/**");
    const tops = await page.evaluate(() =>
      ["expiry", "cvc"].map((name) => document.querySelector(`input[name=${name}]`)!.getBoundingClientRect().top),
    );
    expect({ path, level: tops[0] === tops[1] }).toEqual({ path, level: true });
    await context.close();
  }
});

journey("a card number failing the Luhn check is caught in the page before sending", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await openCardPage(page, "/paiement");
  await waitForCardForm(page);
  await fillCard(page, FR, { card: "4242 4242 4242 4241" });
  let posted = false;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/checkout/test/")) posted = true;
  });
  await page.getByRole("button", { name: /Payer 29,99/ }).click();
  await page.getByText("Ce numéro de carte n'est pas valide.").waitFor({ state: "visible" });
  expect(posted).toBe(false);
  expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("card");
  await context.close();
});

journey("cancel -> cancelled page -> retry -> back on a fresh card page", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await openCardPage(page, "/paiement");
  const first = page.url();
  await page.getByRole("link", { name: "Annuler et revenir" }).click();
  await page.waitForURL("**/payment-canceled");
  expect(await page.locator("h1").textContent()).toBe("Paiement annulé");
  await page.getByRole("link", { name: "Réessayer" }).click();
  await page.waitForURL("**/paiement");
  await waitForPayButton(page);
  await page.getByTestId("consent-box").check();
  await page.getByRole("button", { name: /Payer/ }).click();
  await page.waitForURL("**/checkout/test/**");
  expect(page.url()).not.toBe(first);
  expect(await page.getByTestId("test-mode").textContent()).toBe("MODE TEST");
  await context.close();
});

journey("with JavaScript disabled the whole purchase still works through plain form posts", async () => {
  const context = await site.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/en/paiement");
  await page.getByTestId("consent-box").check();
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.waitForURL("**/checkout/test/**");
  // A mistake is answered by the server, next to the field.
  await fillCard(page, EN, { card: "1234 5678 9012 3456", email: "no-script@example.com" });
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.getByText("This card number is not valid.").waitFor({ state: "visible" });
  expect(await page.getByLabel("Full name").inputValue()).toBe("Camille Durand");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  // Without the script nothing formats the expiry: the server takes it without the slash.
  await page.getByLabel("Expiry (MM/YY)").fill("1234");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /Pay €29.99/ }).click();
  await page.waitForURL("**/en/payment-success?session_id=*");
  expect(await page.locator("h1").textContent()).toBe("Payment successful — Thank you!");
  expect(ordersOf("no-script@example.com").map((o) => o.status)).toEqual(["paid"]);
  await context.close();
});

journey("a provider failure: the button comes back with the error toast, and the keyboard focus is on it again", async () => {
  const context = await site.newContext();
  await context.addInitScript(() => localStorage.setItem("exit-popup-shown", "1"));
  const page = await context.newPage();
  await page.route("**/api/payment", (route) =>
    route.fulfill({
      status: 502,
      contentType: "application/json",
      body: JSON.stringify({ error: "The payment provider could not be reached" }),
    }),
  );
  await page.goto("/paiement");
  await waitForPayButton(page);
  await page.getByTestId("consent-box").check();
  const button = page.getByTestId("pay-button");
  await button.focus();
  await page.keyboard.press("Enter");
  const toast = page.locator(".toast--error");
  await toast.waitFor({ state: "visible" });
  expect(await toast.locator(".toast__title").textContent()).toBe("Une erreur est survenue");
  expect(await toast.locator(".toast__desc").textContent()).toBe("Réessayez dans un instant.");
  expect(await button.isEnabled()).toBe(true);
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "pay-button");
  expect(page.url()).toEndWith("/paiement");
  await context.close();
});
