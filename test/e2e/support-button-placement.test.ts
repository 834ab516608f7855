import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { payWithTestCard } from "../support/purchase";
import { placement, placementIfThere, settle } from "./floating";
import { useSite } from "./harness";
import { limiter } from "./limit";
import { firstScreenSettled, visit } from "./visit";

// The floating parts of the page beyond where they sit on each page (that is the every-page sweep's,
// test/e2e/browser-sweep.test.ts, which measures the support button on every page at every screen):
// the button's way in on a phone, from the keyboard and without motion; and the purchase toast,
// which must cover no link, control or price wherever it shows, on every page in every language at
// the two screens where the layouts part, and show at its first turn on the landing page's first
// screen at every width.

const site = useSite();

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

/** Pages being worked on at one time: most of a visit is waiting for the page, but on a 2-core
 * machine more than three at once only makes each slower (and a page that waits too long for its
 * turn on the CPU times out). */
const TABS = 3;
const tabs = limiter(TABS);

const where = (label: string, width: number, moment: string) => `${label} @${width}px ${moment}`;

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
  // The two visitors side by side: each its own context, nothing shared.
  const [moving, still] = await Promise.all([durations("no-preference"), durations("reduce")]);
  expect(moving).toBeGreaterThan(0.1);
  expect(still).toBeLessThanOrEqual(0.00001);
});

// The purchase toast over the pages above (the four purchases made for the list are real orders from
// Lyon, sales of the last minutes): whenever it shows, on the first screen or at the end of the
// page, it covers no link, control or price (it may pass over text for its five seconds: a notice,
// closed in one tap). It stands bottom-left, moved up where a button is in that corner. It must show
// somewhere in the sweep, or this would prove nothing; and on the landing page it shows at its first
// turn (3 s after load) on the first screen, without the visitor scrolling (a phone's first screen
// has text in that corner: the toast may pass over text). Every page in every language on the phone
// and at 1280 px; the landing page in French at the widths between and beyond.
const TOAST_SCREENS = [
  { width: 360, height: 740, everyPage: true },
  { width: 390, height: 844, everyPage: false },
  { width: 1280, height: 800, everyPage: true },
  { width: 1440, height: 900, everyPage: false },
  { width: 1920, height: 1080, everyPage: false },
] as const;

/** What the toast must leave clear: a link, a control, a label, a price (not lines of text). */
const usedOrPrice = (covered: string) => !covered.startsWith("text: ");

/** A tab for the toast sweep: a context of its own, whose clock (Playwright's clock is the
 * context's) is installed before its first page, and whose every page starts as a new tab would: no
 * order remembered as shown (sessionStorage, social-proof-memory.ts). Reused from page to page, as
 * opening a context and a tab per page costs more than the visit. */
async function toastTab(screen: (typeof TOAST_SCREENS)[number]): Promise<{ page: Page; close: () => Promise<void> }> {
  // Without motion: where the toast stands once at rest is what is read, not its way in (the
  // button's way in is the tests' above), so neither its slide nor a smooth scroll is waited out.
  const context = await site.newContext({ viewport: { width: screen.width, height: screen.height }, reducedMotion: "reduce" });
  await context.addInitScript(() => {
    window.localStorage.setItem("exit-popup-shown", "1");
    window.sessionStorage.clear();
  });
  const page = await context.newPage();
  // Paused: the toast's turns come when the clock is moved, never while a page is still settling.
  // The installed clock runs until paused, and pauseAt cannot go back: on a loaded machine more than
  // a second passed between the two calls, so it pauses a minute ahead (no page is open yet, so no
  // timer of the site's fires on the way).
  const start = Date.now();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 60_000);
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

/**
 * Until the page stands still: a page with an autofocused field (the payment page's consent error)
 * is scrolled to it after the load (at once: the tab asks for reduced motion, so no smooth scroll).
 * Two looks 20 ms apart (Playwright's own timers, not the page's paused clock, which also stops the
 * page's animation frames) that find it at the same place.
 */
async function scrollStill(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const last: unknown = Reflect.get(window, "__lastScrollY");
      Reflect.set(window, "__lastScrollY", window.scrollY);
      return last === window.scrollY;
    },
    undefined,
    { polling: 20 },
  );
}

/** The frames of the paused clock's moment (the scroll's reaction, the toast's render), and every
 * animation then running (in real time: CSS animations do not follow the test clock) at its end. */
async function framesAndAnimations(page: Page): Promise<void> {
  await page.clock.runFor(100);
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}

async function toastProblemsOf(page: Page, { label, path, locale }: Visited, screen: (typeof TOAST_SCREENS)[number]) {
  const problems: string[] = [];
  let shownAt = 0;
  await visit(page, path);
  // The toast's loader has decided (the purchase list is in: hydrated, or skipped), and the islands
  // on screen have rendered (the payment page's button adds its line), before the clock is moved to
  // the toast's first turn: the toast picks its place then, from the page as it is.
  await firstScreenSettled(page);
  await scrollStill(page);
  // Its first turn (3 s after load), on the first screen.
  await page.clock.runFor(3_200);
  await framesAndAnimations(page);
  const first = await toastAtRest(page);
  if (path === pathFor("landing", locale) && first?.shown !== true)
    problems.push(`${where(label, screen.width, "toast, first screen")}: no toast shown at its first turn on the landing page`);
  if (first !== null) {
    shownAt += 1;
    for (const covered of first.covers.filter(usedOrPrice))
      problems.push(`${where(label, screen.width, "toast, first screen")}: covers ${covered}`);
  }
  // A later turn, at the end of the page.
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
  await page.clock.runFor(15_000);
  await framesAndAnimations(page);
  const end = await toastAtRest(page);
  if (end !== null) {
    shownAt += 1;
    for (const covered of end.covers.filter(usedOrPrice))
      problems.push(`${where(label, screen.width, "toast, at the end")}: covers ${covered}`);
  }
  return { problems, shownAt };
}

for (const screen of TOAST_SCREENS) {
  const which = screen.everyPage ? "on every page in every language" : "on the landing page (in French)";
  test(`at ${screen.width}x${screen.height}, ${which} the purchase toast covers no link, control or price when it shows, and shows at its first turn on the landing page's first screen`, async () => {
    const pages = (await pagesToCheck()).filter((p) => screen.everyPage || p.path === pathFor("landing", DEFAULT_LOCALE));
    // A page whose check failed leaves its tab out of the rest (what it shows is unknown).
    const idle: Awaited<ReturnType<typeof toastTab>>[] = [];
    const results = await Promise.all(
      pages.map((visited) =>
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
    expect(results.reduce((shown, r) => shown + r.shownAt, 0)).toBeGreaterThan(0);
  }, 600_000);
}
