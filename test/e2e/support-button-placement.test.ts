import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { payWithTestCard } from "../support/purchase";
import { placement, placementIfThere, settle } from "./floating";
import { artifactPath, useSite } from "./harness";
import { limiter, tabsOf } from "./limit";
import { visit } from "./visit";

// The floating support button must never sit on what a visitor reads or uses when a page first
// shows (new-user trial: on a 360 px phone it covered the hero's price line, the payment page's
// consent text and the success page's resend form). Every page of the route table, with the states a
// visitor meets (the consent error, a paid and an unknown order, the access form answered), on the
// phones people use and a tablet and a laptop. Each text line (Range client rects, so the exact glyph
// boxes, not their paragraph's) and each link, control and label box is compared with the button's
// box: any overlap counts. The same at the end of each page (the footer's room for the button), and
// the button must be there to use once the visitor scrolls.
//
// Every page in French at every screen, and every page in every language at the two screens where
// the layouts part (the narrowest phone, whose lines wrap the most, and the laptop, where the button
// stands beside the column from the start): a language changes the length of the texts, the screen
// changes where they fall, and the screens between those two only stretch one of their layouts.
// Each screen's pages are visited in three tabs side by side (`TABS` below), each going from page to
// page (a new tab per page would cost more than the visit).

const site = useSite();

/** Phones, a tablet, and a laptop; `atOnce`: wide enough for the button to stand beside the page's
 * column, so it shows from the start rather than once scrolled; `everyLanguage`: swept in all four. */
const SCREENS = [
  { width: 320, height: 568, atOnce: false, everyLanguage: true },
  { width: 360, height: 740, atOnce: false, everyLanguage: false },
  { width: 390, height: 844, atOnce: false, everyLanguage: false },
  { width: 412, height: 915, atOnce: false, everyLanguage: false },
  { width: 768, height: 1024, atOnce: false, everyLanguage: false },
  { width: 1280, height: 800, atOnce: true, everyLanguage: true },
] as const;

/** First screens kept for a person to look at (artifacts/). */
const SCREENSHOT_PATHS: ReadonlySet<string> = new Set(["/", "/es", "/it", "/paiement", "/en/payment", "/payment-success"]);

type Visited = { label: string; path: string; locale: Locale };

/** Every page of the route table in every language, and the states of a page a visitor meets
 * (made once for the file: four purchases). */
let pagesOnce: Promise<Visited[]> | null = null;
const pagesToCheck = () => (pagesOnce ??= listPages());

async function listPages(): Promise<Visited[]> {
  const request = (path: string, init?: RequestInit) => fetch(`${site.server.baseUrl}${path}`, { ...init, redirect: "manual" });
  const pages: Visited[] = [];
  for (const locale of LOCALES) {
    const at = (id: (typeof PAGE_IDS)[number]) => pathFor(id, locale);
    for (const id of PAGE_IDS) pages.push({ label: `${id} (${locale})`, path: at(id), locale });
    const { successPath } = await payWithTestCard({ request }, { locale, email: `buyer-${locale}@example.com`, inNotice: true });
    pages.push(
      { label: `payment, consent missing (${locale})`, path: `${at("payment")}?error=consent`, locale },
      { label: `success, paid (${locale})`, path: successPath, locale },
      { label: `success, unknown order (${locale})`, path: `${at("success")}?session_id=cs_test_unknown`, locale },
      { label: `access, sent (${locale})`, path: `${at("access")}?status=sent`, locale },
    );
  }
  return pages;
}

/** The pages swept at a screen: all of them where every language is, the French ones elsewhere. */
async function pagesAt(screen: { everyLanguage: boolean }): Promise<Visited[]> {
  const pages = await pagesToCheck();
  return screen.everyLanguage ? pages : pages.filter((p) => p.locale === DEFAULT_LOCALE);
}

/** Pages being worked on at one time: most of a visit is waiting for the page, but on a 2-core
 * machine more than three at once only makes each slower (and a page that waits too long for its
 * turn on the CPU times out). */
const TABS = 3;
const tabs = limiter(TABS);

type Screen = (typeof SCREENS)[number];
const where = (label: string, width: number, moment: string) => `${label} @${width}px ${moment}`;

/** One page on one screen: its first screen, one screen down (where the page is that long) and its
 * end. Once scrolled the button is there, big enough to tap and labelled; at the end it covers
 * nothing (the footer's room). */
async function problemsOf(page: Page, { label, path }: Visited, screen: Screen): Promise<string[]> {
  const problems: string[] = [];
  await visit(page, path);
  await settle(page);
  const first = await placement(page);
  for (const covered of first.covers) problems.push(`${where(label, screen.width, "first screen")}: covers ${covered}`);
  if (first.catchesTaps) problems.push(`${where(label, screen.width, "first screen")}: hidden button still catches taps`);
  if (screen.atOnce && !first.shown) problems.push(`${where(label, screen.width, "first screen")}: button not shown`);
  if (SCREENSHOT_PATHS.has(path) && screen.width <= 412)
    await page.screenshot({ path: artifactPath(`support-${path.replaceAll("/", "_") || "_"}-${screen.width}-top.png`) });

  const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  const stops = scrollable > 0 ? [Math.min(screen.height, scrollable), scrollable] : [0];
  for (const y of new Set(stops)) {
    if (y === scrollable) await scrollToEnd(page);
    else await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
    await settle(page);
    const scrolled = await placement(page);
    const moment = y === scrollable ? "at the end" : `scrolled ${y}px`;
    // Where the header carries help (payment and order pages), the floating button waits for the
    // end of the page below 1280 px; until then the header's help is the one on screen.
    if (y !== scrollable && !screen.atOnce && (await headerHelpOnScreen(page))) continue;
    if (!scrolled.shown) problems.push(`${where(label, screen.width, moment)}: button not shown`);
    else if (scrolled.box.width < 44 || scrolled.box.height < 44)
      problems.push(`${where(label, screen.width, moment)}: button ${scrolled.box.width}x${scrolled.box.height}px`);
    if (scrolled.name === "") problems.push(`${where(label, screen.width, moment)}: button without a name`);
    if (y === scrollable) for (const covered of scrolled.covers) problems.push(`${where(label, screen.width, moment)}: covers ${covered}`);
  }
  return problems;
}

/**
 * To the end of the page as it is once there: a page still growing under the visitor (an island
 * hydrating late on a loaded machine) moves its end, and the visitor who scrolls on reaches it.
 */
async function scrollToEnd(page: Page): Promise<void> {
  for (let tries = 0; tries < 5; tries++) {
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
    await settle(page);
    const atEnd = await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
    if (atEnd) return;
  }
}

/** Whether the page's header has its own help link and it is on screen (the header stays). */
async function headerHelpOnScreen(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const help = document.querySelector(".site-header__help");
    if (help === null) return false;
    const box = help.getBoundingClientRect();
    return box.width > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

for (const screen of SCREENS) {
  const which = screen.everyLanguage ? "every page in every language" : "every page (in French)";
  test(`at ${screen.width}x${screen.height}, on ${which} the support button covers no text, link or control on the first screen or at the end, and is there once scrolled`, async () => {
    const context = await site.newContext({ viewport: { width: screen.width, height: screen.height } });
    // The exit popup (30 s) is not what is measured here.
    await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
    const tabs = tabsOf(context, TABS);
    const problems = await Promise.all((await pagesAt(screen)).map((visited) => tabs((page) => problemsOf(page, visited, screen))));
    expect(problems.flat().sort()).toEqual([]);
    await context.close();
  }, 600_000);
}

test("on a phone the button waits below the screen until the first screen is scrolled past, and a keyboard reaches it at any time, with its focus ring", async () => {
  const context = await site.newContext({ viewport: { width: 360, height: 740 } });
  await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
  const page = await context.newPage();
  await visit(page, "/");
  await settle(page);
  expect(await placement(page)).toMatchObject({ shown: false, catchesTaps: false });

  // Scrolled by a screen it comes in; back at the top it goes again.
  const scrollTo = async (top: number) => {
    await page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), top);
    await settle(page);
    return (await placement(page)).shown;
  };
  expect(await scrollTo(739)).toBe(false);
  expect(await scrollTo(740)).toBe(true);
  expect(await scrollTo(0)).toBe(false);

  // From the keyboard at the top of the page: it is the page's last stop (Shift+Tab from the
  // start), and shows while it has focus, ring included. The purchase notice (this file's orders),
  // while it shows, comes after it with its close button: one stop more.
  await page.keyboard.press("Shift+Tab");
  if (await page.evaluate(() => document.activeElement?.classList.contains("social-proof__close") === true))
    await page.keyboard.press("Shift+Tab");
  await settle(page);
  const trigger = page.locator(".support__trigger");
  expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await placement(page)).toMatchObject({ shown: true, name: "Support" });
  expect(await trigger.evaluate((el) => getComputedStyle(el).boxShadow)).toContain("rgb(255, 209, 102)");

  // Its menu and chat open from there, and keep it shown while they are open, focus or not.
  await page.keyboard.press("Enter");
  await page.getByRole("menu").waitFor();
  await page.keyboard.press("Enter");
  await page.locator(".chat-window").waitFor({ state: "visible" });
  const blur = () => page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await blur();
  await settle(page);
  expect(await placement(page)).toMatchObject({ shown: true, name: "Fermer le chat" });
  await page.locator(".support__trigger").click();
  await page.locator(".chat-window").waitFor({ state: "detached" });
  await blur();
  await settle(page);
  expect((await placement(page)).shown).toBe(false);
  await context.close();
});

test("the button comes in without movement when the visitor asks for reduced motion", async () => {
  const durations = async (reducedMotion: "reduce" | "no-preference") => {
    const context = await site.newContext({ viewport: { width: 360, height: 740 }, reducedMotion });
    const page = await context.newPage();
    await visit(page, "/");
    const seconds = await page.locator(".support__trigger").evaluate((el) =>
      getComputedStyle(el)
        .transitionDuration.split(",")
        .map((d) => Number.parseFloat(d) * (d.trim().endsWith("ms") ? 0.001 : 1)),
    );
    await context.close();
    return Math.max(...seconds);
  };
  expect(await durations("no-preference")).toBeGreaterThan(0.1);
  expect(await durations("reduce")).toBeLessThanOrEqual(0.00001);
});

// The purchase toast over the same pages (the four purchases made for the list above are real
// orders from Lyon): whenever it shows, on the first screen or at the end of the page, it covers no
// link, control or price (it may pass over text for its five seconds: a notice, closed in one tap).
// It stands bottom-left, moved up where a button is in that corner. It must show somewhere in the
// sweep, or this would prove nothing.
const TOAST_SCREENS = [
  { width: 360, height: 740, showsInSweep: true },
  { width: 1280, height: 800, showsInSweep: true },
] as const;

/** What the toast must leave clear: a link, a control, a label, a price (not lines of text). */
const usedOrPrice = (covered: string) => !covered.startsWith("text: ");

/** A tab for the toast sweep: a context of its own, whose clock (Playwright's clock is the
 * context's) is installed before its first page, and whose every page starts as a new tab would: no
 * order remembered as shown (sessionStorage, social-proof-memory.ts). Reused from page to page, as
 * opening a context and a tab per page costs more than the visit. */
async function toastTab(screen: (typeof TOAST_SCREENS)[number]): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await site.newContext({ viewport: { width: screen.width, height: screen.height } });
  await context.addInitScript(() => {
    window.localStorage.setItem("exit-popup-shown", "1");
    window.sessionStorage.clear();
  });
  const page = await context.newPage();
  await page.clock.install();
  return { page, close: () => context.close() };
}

/**
 * The toast's placement once it is at rest. Its entrance (a short slide, in real time: CSS
 * animations do not follow the test clock) starts when React commits, which on a loaded machine can
 * be a frame after settle(): measured then, the card still stands a few pixels below its place. The
 * card is marked when its animations are awaited; a card without the mark came in after that wait, so
 * it is awaited and measured again.
 */
async function toastAtRest(page: Page) {
  for (;;) {
    await page.evaluate(async () => {
      const card = document.querySelector<HTMLElement>(".social-proof__card");
      if (card === null) return;
      card.dataset.awaited = "yes";
      await Promise.all(card.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined)));
    });
    const placed = await placementIfThere(page, ".social-proof__card");
    const cameLater = await page.evaluate(() => {
      const card = document.querySelector<HTMLElement>(".social-proof__card");
      return card !== null && card.dataset.awaited !== "yes";
    });
    if (!cameLater) return placed;
  }
}

async function toastProblemsOf(page: Page, { label, path }: Visited, screen: (typeof TOAST_SCREENS)[number]) {
  const problems: string[] = [];
  let shownAt = 0;
  await visit(page, path);
  // Its first turn (3 s after load), on the first screen.
  await page.clock.runFor(3_200);
  await settle(page);
  const first = await toastAtRest(page);
  if (first !== null) {
    shownAt += 1;
    for (const covered of first.covers.filter(usedOrPrice))
      problems.push(`${where(label, screen.width, "toast, first screen")}: covers ${covered}`);
  }
  // A later turn, at the end of the page.
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
  await page.clock.runFor(15_000);
  await settle(page);
  const end = await toastAtRest(page);
  if (end !== null) {
    shownAt += 1;
    for (const covered of end.covers.filter(usedOrPrice))
      problems.push(`${where(label, screen.width, "toast, at the end")}: covers ${covered}`);
  }
  return { problems, shownAt };
}

for (const screen of TOAST_SCREENS) {
  test(`at ${screen.width}x${screen.height}, on every page in every language the purchase toast covers no link, control or price when it shows`, async () => {
    // A page whose check failed leaves its tab out of the rest (what it shows is unknown).
    const idle: Awaited<ReturnType<typeof toastTab>>[] = [];
    const results = await Promise.all(
      (await pagesToCheck()).map((visited) =>
        tabs(async () => {
          const tab = idle.pop() ?? (await toastTab(screen));
          const result = await toastProblemsOf(tab.page, visited, screen).catch(async (error: unknown) => {
            await tab.close();
            throw error;
          });
          idle.push(tab);
          return result;
        }),
      ),
    );
    await Promise.all(idle.map((tab) => tab.close()));
    expect(results.flatMap((r) => r.problems).sort()).toEqual([]);
    if (screen.showsInSweep) expect(results.reduce((shown, r) => shown + r.shownAt, 0)).toBeGreaterThan(0);
  }, 600_000);
}
