import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { useSite, watchConsole } from "./harness";
import { sideBySide } from "./limit";
import { firstScreenSettled, visit } from "./visit";

// Issue 3, browser journeys: the exit popup with a controlled clock, and the no-JavaScript form.

const site = useSite();

/** The journeys are independent (each its own context and clock, each reading only the leads it
 * sent): side by side, three at a time. */
const journey = sideBySide(3);

function leadRows() {
  const db = new Database(join(site.server.dataDir, "site.db"), { readonly: true });
  try {
    return db
      .query<{ email: string; source: string; locale: string; ip_hash: string | null }, []>(
        "SELECT email, source, locale, ip_hash FROM email_leads",
      )
      .all();
  } finally {
    db.close();
  }
}

const popupIsland = (state: string) => `[data-island="exit-popup"][data-island-state="${state}"]`;

/**
 * Loads a page under a fake clock, stops time, and moves it on to when the popup's island has been
 * loaded (25 s: five seconds before it is due) and is hydrated; returns ms since load.
 */
async function openWithFrozenClock(page: Page, path: string): Promise<number> {
  // Paused before the page opens, a minute ahead: pauseAt cannot go back and the installed clock
  // runs until paused, and a loaded machine may pass more than a second between the two calls (no
  // page is open yet, so no timer of the site's fires on the way). The page then loads on a clock
  // that stands still until the test moves it.
  const start = Date.now();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 60_000);
  await page.goto(path);
  await page.locator(popupIsland("waiting")).waitFor({ state: "attached" });
  await page.clock.runFor(Math.max(0, 26_000 - (await page.evaluate(() => performance.now()))));
  await page.locator(popupIsland("hydrated")).waitFor({ state: "attached" });
  return page.evaluate(() => performance.now());
}

const popup = (page: Page) => page.getByRole("dialog", { name: "Vous hésitez encore ? Une démo offerte" });
const isOpen = (page: Page) => page.evaluate(() => document.querySelector<HTMLDialogElement>("#exit-popup")?.open === true);

journey(
  "the popup opens at 30 s and not before, takes focus, stores the address, confirms, and never comes back",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const consoleLog = watchConsole(page);
    const elapsed = await openWithFrozenClock(page, "/");
    expect(elapsed).toBeLessThan(28_000);

    await page.clock.runFor(29_000 - elapsed);
    expect(await isOpen(page)).toBe(false);
    await page.clock.runFor(1_500);
    await popup(page).waitFor({ state: "visible" });
    // Focus is in the dialog, on the address field, for keyboard and screen-reader users.
    expect(
      await page.evaluate(
        () =>
          document.activeElement instanceof HTMLInputElement &&
          document.activeElement.type === "email" &&
          document.activeElement.closest("#exit-popup") !== null,
      ),
    ).toBe(true);
    expect(await popup(page).getAttribute("aria-describedby")).toBe("exit-popup-text");

    await popup(page).getByLabel("Adresse email").fill("  Visiteur.Popup@Example.COM ");
    await popup(page).getByRole("button", { name: "Envoyez-moi la démo" }).click();
    await page.getByText("Demande reçue ! Vérifiez vos emails.").waitFor({ state: "visible" });
    await popup(page).waitFor({ state: "hidden" });
    // Stored once (the other journeys store their own addresses, side by side with this one).
    const stored = leadRows().filter((r) => r.email === "visiteur.popup@example.com");
    expect(stored).toEqual([expect.objectContaining({ email: "visiteur.popup@example.com", source: "exit_popup", locale: "fr" })]);
    expect(stored[0]?.ip_hash).toMatch(/^[0-9a-f]{64}$/);

    // Seen once: the popup's code is not even loaded again.
    await page.reload();
    await page.clock.runFor(60_000);
    await page.locator(popupIsland("skipped")).waitFor({ state: "attached" });
    expect(await isOpen(page)).toBe(false);
    expect(consoleLog.errors).toEqual([]);
    await context.close();
  },
  90_000,
);

journey(
  "an invalid address shows the translated error in the popup and sends nothing",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/leads")) posts.push(request.method());
    });
    const elapsed = await openWithFrozenClock(page, "/en");
    await page.clock.runFor(30_500 - elapsed);
    const dialog = page.getByRole("dialog", { name: "Still deciding? Get a free demo" });
    await dialog.waitFor({ state: "visible" });

    const field = dialog.getByLabel("E-mail address");
    await field.fill("not-an-address");
    await field.press("Enter");
    await dialog.getByRole("alert").getByText("This e-mail address is not valid.").waitFor({ state: "visible" });
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.isVisible()).toBe(true);

    // Short, and first of all not an address: it says the address is not valid (one voice).
    await field.fill("ab@c");
    await dialog.getByRole("button", { name: "Send me the demo" }).click();
    await dialog.getByRole("alert").getByText("This e-mail address is not valid.").waitFor({ state: "visible" });
    expect(posts).toEqual([]);
    expect(leadRows().some((r) => r.email.startsWith("not-an") || r.email === "ab@c")).toBe(false);

    // Escape closes it; the error is gone when it is closed.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await context.close();
  },
  90_000,
);

journey(
  "the popup closes with its buttons and on the backdrop",
  async () => {
    for (const how of ["No thanks", "Dismiss", "backdrop"] as const) {
      // A fresh context each time: the clock and local storage belong to the context.
      const context = await site.newContext();
      const page = await context.newPage();
      const elapsed = await openWithFrozenClock(page, "/en");
      await page.locator(".site-nav a").first().focus();
      await page.clock.runFor(31_000 - elapsed);
      const dialog = page.getByRole("dialog", { name: "Still deciding? Get a free demo" });
      await dialog.waitFor({ state: "visible" });
      if (how === "backdrop") await page.mouse.click(5, 5);
      else await dialog.getByRole("button", { name: how, exact: true }).click();
      await dialog.waitFor({ state: "hidden" });
      // Focus is back where the visitor was.
      expect(await page.evaluate(() => document.activeElement?.closest(".site-nav") !== null)).toBe(true);
      await context.close();
    }
  },
  90_000,
);

journey(
  "the popup never appears on the payment page",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    await page.clock.install();
    // Loaded, and every island that starts by itself has started: what could open a popup is there
    // before the clock moves two minutes on.
    await visit(page, "/paiement");
    await firstScreenSettled(page);
    await page.clock.runFor(120_000);
    expect(await page.locator("#exit-popup").count()).toBe(0);
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await page.evaluate(() => window.localStorage.getItem("exit-popup-shown"))).toBeNull();
    await context.close();
  },
  90_000,
);

journey(
  "without JavaScript the free-demo form posts, stores the lead and shows the confirmation",
  async () => {
    const context = await site.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/it");
    const section = page.locator("#free-demo");
    await section.getByLabel("Indirizzo email").fill("senza.js@example.it");
    await section.getByRole("button", { name: "Inviami la demo" }).click();
    await page.waitForURL("**/it?lead=sent#free-demo");
    await page.locator("#free-demo").getByText("Richiesta ricevuta! Controlla la posta in arrivo.").waitFor({ state: "visible" });
    expect(leadRows()).toContainEqual(expect.objectContaining({ email: "senza.js@example.it", locale: "it" }));
    await context.close();
  },
  90_000,
);

journey(
  "a refusal from the server is shown inside the open popup, where the visitor can read it",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    await page.route("**/api/leads", (route) =>
      route.fulfill({
        status: 429,
        headers: { "retry-after": "60" },
        contentType: "application/json",
        body: JSON.stringify({ error: "Rate limit exceeded: try again later" }),
      }),
    );
    const elapsed = await openWithFrozenClock(page, "/en");
    await page.clock.runFor(30_500 - elapsed);
    const dialog = page.getByRole("dialog", { name: "Still deciding? Get a free demo" });
    await dialog.waitFor({ state: "visible" });
    await dialog.getByLabel("E-mail address").fill("someone@example.com");
    await dialog.getByRole("button", { name: "Send me the demo" }).click();
    const alert = dialog.getByRole("alert");
    await alert.waitFor({ state: "visible" });
    expect(await alert.textContent()).toBe("Too many submissions. Please try again later.");
    expect(await isOpen(page)).toBe(true);
    await context.close();
  },
  90_000,
);

journey(
  "the popup waits while the visitor is typing or chatting, and opens once they are done",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const elapsed = await openWithFrozenClock(page, "/en");
    const dialog = page.getByRole("dialog", { name: "Still deciding? Get a free demo" });

    // Typing in the free-demo form at 30 s: no modal takes the field away mid-word.
    const field = page.locator("#free-demo").getByLabel("E-mail address");
    await field.focus();
    await field.pressSequentially("half-typ");
    await page.clock.runFor(31_000 - elapsed);
    expect(await isOpen(page)).toBe(false);
    await page.clock.runFor(10_000);
    expect(await isOpen(page)).toBe(false);
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);

    // Chatting with support (a non-modal dialog): still waiting.
    await page.getByRole("button", { name: "Support" }).click();
    await page.getByRole("menuitem", { name: "Chat Support" }).click();
    await page.locator(".chat-window").waitFor({ state: "visible" });
    await page.locator(".site-nav a").first().focus();
    await page.clock.runFor(10_000);
    expect(await isOpen(page)).toBe(false);

    // Done: the chat closed and nothing being typed; the popup opens a few seconds later.
    await page.locator(".chat-window").getByRole("button", { name: "Close the chat" }).click();
    await page.locator(".chat-window").waitFor({ state: "detached" });
    await page.locator(".site-nav a").first().focus();
    await page.clock.runFor(3_500);
    await dialog.waitFor({ state: "visible" });
    await context.close();
  },
  90_000,
);

journey(
  "selecting the typed address with the mouse and letting go outside the popup does not close it",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const elapsed = await openWithFrozenClock(page, "/en");
    await page.clock.runFor(30_500 - elapsed);
    const dialog = page.getByRole("dialog", { name: "Still deciding? Get a free demo" });
    await dialog.waitFor({ state: "visible" });
    const field = dialog.getByLabel("E-mail address");
    await field.fill("someone@example.com");
    const box = await field.boundingBox();
    if (box === null) throw new Error("field not laid out");
    // A drag from the end of the field out to the page's corner, as when selecting text generously.
    await page.mouse.move(box.x + box.width - 10, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(5, 5, { steps: 5 });
    await page.mouse.up();
    expect(await isOpen(page)).toBe(true);
    expect(await field.inputValue()).toBe("someone@example.com");
    // A real click on the backdrop still closes it.
    await page.mouse.click(5, 5);
    await dialog.waitFor({ state: "hidden" });
    await context.close();
  },
  90_000,
);
