import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { payWithTestCard } from "../support/purchase";
import { placement, settle } from "./floating";
import { artifactPath, useSite } from "./harness";
import { visit } from "./visit";

// The floating support button must never sit on what a visitor reads or uses when a page first
// shows (new-user trial: on a 360 px phone it covered the hero's price line, the payment page's
// consent text and the success page's resend form). Every page of the route table in every
// language, with the states a visitor meets (the consent error, a paid and an unknown order, the
// access form answered), on the phones people use and a tablet and a laptop. Each text line (Range
// client rects, so the exact glyph boxes, not their paragraph's) and each link, control and label
// box is compared with the button's box: any overlap counts. The same at the end of each page
// (the footer's room for the button), and the button must be there to use once the visitor scrolls.

const site = useSite();

/** Phones, a tablet, and a laptop; `atOnce`: wide enough for the button to stand beside the page's
 * column, so it shows from the start rather than once scrolled. */
const SCREENS = [
  { width: 320, height: 568, atOnce: false },
  { width: 360, height: 740, atOnce: false },
  { width: 390, height: 844, atOnce: false },
  { width: 412, height: 915, atOnce: false },
  { width: 768, height: 1024, atOnce: false },
  { width: 1280, height: 800, atOnce: true },
] as const;

/** First screens kept for a person to look at (artifacts/). */
const SCREENSHOT_PATHS: ReadonlySet<string> = new Set(["/", "/es", "/it", "/paiement", "/en/payment", "/payment-success"]);

type Visited = { label: string; path: string };

/** Every page of the route table in every language, and the states of a page a visitor meets
 * (made once for the file: four purchases). */
let pagesOnce: Promise<Visited[]> | null = null;
const pagesToCheck = () => (pagesOnce ??= listPages());

async function listPages(): Promise<Visited[]> {
  const request = (path: string, init?: RequestInit) => fetch(`${site.server.baseUrl}${path}`, { ...init, redirect: "manual" });
  const pages: Visited[] = [];
  for (const locale of LOCALES) {
    const at = (id: (typeof PAGE_IDS)[number]) => pathFor(id, locale);
    for (const id of PAGE_IDS) pages.push({ label: `${id} (${locale})`, path: at(id) });
    const { successPath } = await payWithTestCard({ request }, { locale, email: `buyer-${locale}@example.com` });
    pages.push(
      { label: `payment, consent missing (${locale})`, path: `${at("payment")}?error=consent` },
      { label: `success, paid (${locale})`, path: successPath },
      { label: `success, unknown order (${locale})`, path: `${at("success")}?session_id=cs_test_unknown` },
      { label: `access, sent (${locale})`, path: `${at("access")}?status=sent` },
    );
  }
  return pages;
}

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
    await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
    await settle(page);
    const scrolled = await placement(page);
    const moment = y === scrollable ? "at the end" : `scrolled ${y}px`;
    if (!scrolled.shown) problems.push(`${where(label, screen.width, moment)}: button not shown`);
    else if (scrolled.box.width < 44 || scrolled.box.height < 44)
      problems.push(`${where(label, screen.width, moment)}: button ${scrolled.box.width}x${scrolled.box.height}px`);
    if (scrolled.name === "") problems.push(`${where(label, screen.width, moment)}: button without a name`);
    if (y === scrollable) for (const covered of scrolled.covers) problems.push(`${where(label, screen.width, moment)}: covers ${covered}`);
  }
  return problems;
}

/** Tabs working through the pages side by side (most of a page's time is waiting for it). */
const TABS = 3;

for (const screen of SCREENS) {
  test(`at ${screen.width}x${screen.height}, on every page in every language the support button covers no text, link or control on the first screen or at the end, and is there once scrolled`, async () => {
    const context = await site.newContext({ viewport: { width: screen.width, height: screen.height } });
    // The exit popup (30 s) is not what is measured here.
    await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
    const queue = [...(await pagesToCheck())];
    const problems: string[] = [];
    await Promise.all(
      Array.from({ length: TABS }, async () => {
        const page = await context.newPage();
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) problems.push(...(await problemsOf(page, next, screen)));
      }),
    );
    expect(problems.sort()).toEqual([]);
    await context.close();
  }, 300_000);
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
  // start), and shows while it has focus, ring included.
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
// text, link or control. On a phone it sits bottom-left and waits for a turn where that corner is
// clear; on a laptop it stands in the header's free stretch. Either way it must show somewhere in
// the sweep, or this would prove nothing.
const TOAST_SCREENS = [
  { width: 360, height: 740, showsInSweep: true },
  { width: 1280, height: 800, showsInSweep: true },
] as const;

async function toastProblemsOf({ label, path }: Visited, screen: (typeof TOAST_SCREENS)[number]) {
  const problems: string[] = [];
  // A visit of its own (the orders shown in a tab are not shown again), its clock installed before
  // the page loads.
  const context = await site.newContext({ viewport: { width: screen.width, height: screen.height } });
  await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
  const page = await context.newPage();
  let shownAt = 0;
  const card = page.locator(".social-proof__card");
  await page.clock.install();
  await visit(page, path);
  // Its first turn (3 s after load), on the first screen.
  await page.clock.runFor(3_200);
  await settle(page);
  if ((await card.count()) > 0) {
    shownAt += 1;
    for (const covered of (await placement(page, ".social-proof__card")).covers)
      problems.push(`${where(label, screen.width, "toast, first screen")}: covers ${covered}`);
  }
  // A later turn, at the end of the page.
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
  await page.clock.runFor(15_000);
  await settle(page);
  if ((await card.count()) > 0) {
    shownAt += 1;
    for (const covered of (await placement(page, ".social-proof__card")).covers)
      problems.push(`${where(label, screen.width, "toast, at the end")}: covers ${covered}`);
  }
  await context.close();
  return { problems, shownAt };
}

for (const screen of TOAST_SCREENS) {
  test(`at ${screen.width}x${screen.height}, on every page in every language the purchase toast covers no text, link or control when it shows`, async () => {
    const queue = [...(await pagesToCheck())];
    const problems: string[] = [];
    let shown = 0;
    await Promise.all(
      Array.from({ length: TABS }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const result = await toastProblemsOf(next, screen);
          problems.push(...result.problems);
          shown += result.shownAt;
        }
      }),
    );
    expect(problems.sort()).toEqual([]);
    if (screen.showsInSweep) expect(shown).toBeGreaterThan(0);
  }, 300_000);
}
