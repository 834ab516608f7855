import { expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { payWithTestCard } from "../support/purchase";
import { axeViolations, checkerInEveryPage, WIDTH_RULES } from "./axe";
import { demoCaptions, expectedCaptions } from "./captions";
import { placement, settle } from "./floating";
import { artifactPath, useSite } from "./harness";
import { keptProblems } from "./kept";
import { sideBySide, tabsOf } from "./limit";
import { firstScreenSettled, visit } from "./visit";

// Every page, in the states a visitor meets, at the screens people use, each visited once for all
// that is read of it there:
// - the layout: nothing scrolls sideways, every cell of the price comparison is on screen, the
//   header keeps to two rows;
// - no cookie, and nothing in the browser's storage but the "already shown" flags (kept.ts), at the
//   first screen where every language is swept;
// - axe-core finds no violation of any impact (at the two screens where every language is swept:
//   every default rule at 320 px, and at 1280 px the rules whose answer the width can change,
//   WIDTH_RULES in axe.ts; the markup the other rules read is the same bytes at both);
// - the floating support button never sits on what a visitor reads or uses when the page first
//   shows (new-user trial: on a 360 px phone it covered the hero's price line, the payment page's
//   consent text and the success page's resend form): each text line (Range client rects, so the
//   exact glyph boxes, not their paragraph's) and each link, control and label box is compared with
//   the button's box, any overlap counts; the same at the end of each page (the footer's room for
//   the button); and the button is there to use once the visitor scrolls.
// Then, at the two screens of every language, the same with the support chat, the exit popup and
// the demo video open.
//
// Pages come from the route table (PAGE_IDS), so a page added there is swept without a change here;
// the test checkout's card page and the 404 page (neither carries the site's widgets), the consent
// error, a paid and an unknown order and the access form answered are added by hand. Every page in
// French at every screen, and every page in every language at the two screens where the layouts
// part: the narrowest phone (stacked comparison, compact header, the lines that wrap the most) and
// the laptop (hero picture, one-row header, the button beside the column from the start). A
// language changes the length of the texts, the screen changes where they fall, and the screens
// between those two only stretch one of their layouts. Each screen's pages are visited in three tabs
// side by side (`TABS`), each going from page to page (a new tab per page would cost more than the
// visit).

/** The sweep's tests, at the screens of `widths` and the chat journeys at `journeyWidths`: the sweep
 * is split between two files (browser-sweep*.test.ts) so that both workers of a run share it. Call
 * once, at the top of a test file: the file gets a server of its own. */
export function sweep(options: { widths: readonly number[]; journeyWidths: readonly number[] }): void {
  const site = useSite();

  /** Pages being worked on at one time: most of a visit is waiting, but on a 2-core machine more than
   * three at once only makes each slower (and a page that waits too long for the CPU times out). */
  const TABS = 3;

  /** Phones, a tablet, a laptop and a wide screen; `atOnce`: wide enough for the support button to
   * stand beside the page's column, so it shows from the start rather than once scrolled;
   * `everyLanguage`: swept in all four, with axe; `axeRules`: every default rule (the first of those
   * two screens) or only the width's (the second: each page state was checked whole at the first). */
  const SCREENS = [
    { width: 320, height: 568, atOnce: false, everyLanguage: true, axeRules: "every" },
    { width: 360, height: 740, atOnce: false, everyLanguage: false, axeRules: "none" },
    { width: 390, height: 844, atOnce: false, everyLanguage: false, axeRules: "none" },
    { width: 412, height: 915, atOnce: false, everyLanguage: false, axeRules: "none" },
    { width: 768, height: 1024, atOnce: false, everyLanguage: false, axeRules: "none" },
    { width: 1280, height: 800, atOnce: true, everyLanguage: true, axeRules: "width" },
    { width: 1920, height: 1080, atOnce: true, everyLanguage: false, axeRules: "none" },
  ] as const;
  type Screen = (typeof SCREENS)[number];
  /** The rules axe runs at a screen: every default one, or the width's (WIDTH_RULES). */
  const rulesAt = (axeRules: "every" | "width"): readonly string[] | undefined => (axeRules === "every" ? undefined : WIDTH_RULES);
  /** The chat, exit popup and demo journeys: whole at the first of the two screens, the width's rules
   * at the other. */
  const journeyRules = (width: number) => rulesAt(width === SCREENS[0].width ? "every" : "width");

  /** Screenshots for a person to look at (artifacts/): the landing page's first screen at these
   * widths in these languages, the whole French landing page at `wholeLanding`'s, and the support
   * button over these pages' first screen on phones. */
  const SCREENSHOTS: { widths: ReadonlySet<number>; locales: ReadonlySet<Locale>; wholeLanding: ReadonlySet<number> } = {
    widths: new Set([320, 360, 1280, 1920]),
    locales: new Set(["fr", "es", "it"]),
    wholeLanding: new Set([360, 1280]),
  };
  const BUTTON_SCREENSHOT_PATHS: ReadonlySet<string> = new Set(["/", "/es", "/it", "/paiement", "/en/payment", "/payment-success"]);

  /** `button`: the page carries the site's widgets, so the support button (false on the card page
   * and the 404 page, which are not the site's pages). */
  type SweptPage = { label: string; path: string; locale: Locale; button: boolean };

  /** Every page in every language, made once for the file (four purchases, four test checkouts). */
  let pagesOnce: Promise<SweptPage[]> | null = null;
  const sweptPages = () => (pagesOnce ??= listPages());

  async function listPages(): Promise<SweptPage[]> {
    const request = (path: string, init?: RequestInit) => fetch(`${site.server.baseUrl}${path}`, { ...init, redirect: "manual" });
    const pages: SweptPage[] = [];
    for (const locale of LOCALES) {
      const at = (id: (typeof PAGE_IDS)[number]) => pathFor(id, locale);
      for (const id of PAGE_IDS) pages.push({ label: `${id} (${locale})`, path: at(id), locale, button: true });
      // Kept out of the purchase notice: no toast comes and goes while the pages are measured (the
      // toast's own sweep is test/e2e/support-button-placement.test.ts's).
      const { successPath } = await payWithTestCard({ request }, { locale, email: `buyer-${locale}@example.com`, inNotice: false });
      pages.push(
        { label: `payment, consent missing (${locale})`, path: `${at("payment")}?error=consent`, locale, button: true },
        { label: `success, paid (${locale})`, path: successPath, locale, button: true },
        { label: `success, unknown order (${locale})`, path: `${at("success")}?session_id=cs_test_unknown`, locale, button: true },
        { label: `access, sent (${locale})`, path: `${at("access")}?status=sent`, locale, button: true },
        { label: `test checkout (${locale})`, path: await newTestCheckout(locale), locale, button: false },
        { label: `404 (${locale})`, path: `${at("landing").replace(/\/$/, "")}/no-such-page`, locale, button: false },
      );
    }
    return pages;
  }

  /** The pages swept at a screen: all of them where every language is, the French ones elsewhere. */
  async function pagesAt(screen: Screen): Promise<SweptPage[]> {
    const pages = await sweptPages();
    return screen.everyLanguage ? pages : pages.filter((p) => p.locale === DEFAULT_LOCALE);
  }

  /** The card page of a new test checkout, opened as the pay button's form post would. */
  async function newTestCheckout(locale: Locale): Promise<string> {
    const response = await fetch(`${site.server.baseUrl}/api/payment`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: site.server.baseUrl },
      // The payment page's consent box, ticked (without it the answer is the payment page again).
      body: new URLSearchParams({ locale, acceptTerms: "yes" }),
    });
    const location = response.headers.get("location");
    if (response.status !== 303 || location === null) throw new Error(`no test checkout: ${response.status}`);
    return new URL(location, site.server.baseUrl).pathname;
  }

  /** A context at `screen`, its pages without motion and open to the injected checker (axe.ts). The
   * exit popup (30 s into a visit, counted across the pages of a tab) is not what is measured here:
   * it is marked as already shown. */
  async function openContext(screen: Screen): Promise<BrowserContext> {
    const context = await site.newContext({
      viewport: { width: screen.width, height: screen.height },
      bypassCSP: true,
      reducedMotion: "reduce",
    });
    await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
    // Where every page is checked by axe, each carries the checker from its start.
    if (screen.axeRules !== "none") await checkerInEveryPage(context);
    return context;
  }

  type Geometry = {
    sidewaysScroll: number;
    cellsOffScreen: string[];
    header: { rows: number; height: number; rowHeight: number; offScreen: string[] } | null;
  };

  /** What a person would see wrong in the layout, measured in the page. */
  function measure(page: Page): Promise<Geometry> {
    return page.evaluate(() => {
      const viewport = document.documentElement.clientWidth;
      const outside = (r: DOMRect, left = 0, right = viewport) => r.left < left - 0.5 || r.right > right + 0.5;
      const describe = (e: Element) =>
        `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${(e.textContent ?? "").trim().slice(0, 30)}"`;

      // A comparison cell must be on screen and inside the table's box (not scrolled away in it).
      const cellsOffScreen: string[] = [];
      for (const wrap of document.querySelectorAll(".table-wrap")) {
        const box = wrap.getBoundingClientRect();
        for (const cell of wrap.querySelectorAll("tbody th, tbody td")) {
          const r = cell.getBoundingClientRect();
          if (outside(r) || outside(r, box.left, box.right)) cellsOffScreen.push(describe(cell));
        }
      }

      // The header's items (logo, section links, languages, call to action), grouped into rows by
      // their vertical extent; the row height is that of its tallest item.
      let header: Geometry["header"] = null;
      const bar = document.querySelector(".site-header");
      if (bar !== null) {
        const items = [...bar.querySelectorAll(".brand, .site-nav, .lang-switcher, .site-header__cta")].map((e) => ({
          e,
          r: e.getBoundingClientRect(),
        }));
        const rows: { top: number; bottom: number }[] = [];
        for (const { r } of items.sort((a, b) => a.r.top - b.r.top)) {
          const row = rows.find((x) => r.top < x.bottom && r.bottom > x.top);
          if (row === undefined) rows.push({ top: r.top, bottom: r.bottom });
          else row.bottom = Math.max(row.bottom, r.bottom);
        }
        header = {
          rows: rows.length,
          height: bar.getBoundingClientRect().height,
          rowHeight: Math.max(...items.map(({ r }) => r.height)),
          offScreen: items.filter(({ r }) => outside(r)).map(({ e }) => describe(e)),
        };
      }
      return { sidewaysScroll: document.documentElement.scrollWidth - viewport, cellsOffScreen, header };
    });
  }

  /** Every layout problem of one page at one width, as readable lines ([] when none). */
  function layoutProblems(where: string, g: Geometry): string[] {
    const problems: string[] = [];
    if (g.sidewaysScroll > 0) problems.push(`${where}: scrolls sideways by ${g.sidewaysScroll}px`);
    for (const cell of g.cellsOffScreen) problems.push(`${where}: comparison cell off screen: ${cell}`);
    if (g.header !== null) {
      // Two rows at most; and the header no taller than two rows with their padding and gap, which a
      // third row (even one the grouping above missed) would exceed.
      if (g.header.rows > 2) problems.push(`${where}: header in ${g.header.rows} rows`);
      if (g.header.height >= 3 * g.header.rowHeight)
        problems.push(`${where}: header ${Math.round(g.header.height)}px high for ${Math.round(g.header.rowHeight)}px rows`);
      for (const item of g.header.offScreen) problems.push(`${where}: header item off screen: ${item}`);
    }
    return problems;
  }

  const where = (label: string, width: number, moment: string) => `${label} @${width}px ${moment}`;

  /**
   * The support button on one page at one screen: its first screen, one screen down (where the page
   * is that long) and its end. Once scrolled the button is there, big enough to tap and labelled; at
   * the end it covers nothing (the footer's room). Leaves the page scrolled.
   */
  async function buttonProblems(page: Page, { label, path }: SweptPage, screen: Screen): Promise<string[]> {
    const problems: string[] = [];
    // Back to the top if anything scrolled the page since it settled (axe's contrast checks scroll
    // what they read into view); a page not moved since is read as it is, without waiting out
    // another two frames for nothing.
    const moved = await page.evaluate(() => {
      const scrolled = window.scrollY !== 0;
      if (scrolled) window.scrollTo({ top: 0, behavior: "instant" });
      return scrolled;
    });
    if (moved) await settle(page);
    const first = await placement(page);
    for (const covered of first.covers) problems.push(`${where(label, screen.width, "first screen")}: covers ${covered}`);
    if (first.catchesTaps) problems.push(`${where(label, screen.width, "first screen")}: hidden button still catches taps`);
    if (screen.atOnce && !first.shown) problems.push(`${where(label, screen.width, "first screen")}: button not shown`);
    if (BUTTON_SCREENSHOT_PATHS.has(path) && screen.width <= 412)
      await page.screenshot({ path: artifactPath(`support-${path.replaceAll("/", "_") || "_"}-${screen.width}-top.png`) });

    const scrollable = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    const stops = scrollable > 0 ? [Math.min(screen.height, scrollable), scrollable] : [0];
    for (const y of new Set(stops)) {
      // (scrollToEnd leaves the page settled at its end.)
      if (y === scrollable) await scrollToEnd(page);
      else {
        await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
        await settle(page);
      }
      const scrolled = await placement(page);
      const moment = y === scrollable ? "at the end" : `scrolled ${y}px`;
      // Where the header carries help (payment and order pages), the floating button waits for the
      // end of the page below 1280 px; until then the header's help is the one on screen.
      if (y !== scrollable && !screen.atOnce && (await headerHelpOnScreen(page))) continue;
      if (!scrolled.shown) problems.push(`${where(label, screen.width, moment)}: button not shown`);
      else if (scrolled.box.width < 44 || scrolled.box.height < 44)
        problems.push(`${where(label, screen.width, moment)}: button ${scrolled.box.width}x${scrolled.box.height}px`);
      if (scrolled.name === "") problems.push(`${where(label, screen.width, moment)}: button without a name`);
      if (y === scrollable)
        for (const covered of scrolled.covers) problems.push(`${where(label, screen.width, moment)}: covers ${covered}`);
    }
    return problems;
  }

  /**
   * To the end of the page as it is once there: a page still growing under the visitor (an island
   * hydrating late on a loaded machine) moves its end, and the visitor who scrolls on reaches it.
   * Leaves the page settled there.
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

  /** Everything read of one page at one screen, in one visit, as readable lines ([] when none). */
  async function problemsOf(page: Page, swept: SweptPage, screen: Screen): Promise<{ problems: string[]; comparisonCells: number | null }> {
    const at = `${swept.label} @${screen.width}px`;
    await visit(page, swept.path);
    // What is read is the page as it stays: the islands on its first screen rendered.
    await firstScreenSettled(page);
    await settle(page);
    const problems = layoutProblems(at, await measure(page));
    let comparisonCells: number | null = null;
    if (swept.path === pathFor("landing", swept.locale)) {
      comparisonCells = await page.locator(".comparison tbody td").count();
      if (SCREENSHOTS.widths.has(screen.width) && SCREENSHOTS.locales.has(swept.locale))
        await page.screenshot({ path: artifactPath(`sweep-${swept.locale}-${screen.width}.png`) });
      // The whole landing page in French, top to bottom, on a phone and a laptop.
      if (swept.locale === DEFAULT_LOCALE && SCREENSHOTS.wholeLanding.has(screen.width))
        await page.screenshot({ path: artifactPath(`landing-${screen.width}.png`), fullPage: true });
    }
    // The checker reads the page at rest, as it first shows; the button's checks scroll it after.
    if (screen.axeRules !== "none") problems.push(...(await axeViolations(page, at, rulesAt(screen.axeRules))));
    // No cookie, no identifier: read once for every page and language, at the first screen.
    if (screen.width === SCREENS[0].width) problems.push(...(await keptProblems(page, at)));
    if (swept.button) problems.push(...(await buttonProblems(page, swept, screen)));
    return { problems, comparisonCells };
  }

  for (const screen of SCREENS.filter((s) => options.widths.includes(s.width))) {
    const which = screen.everyLanguage ? "every page in every language" : "every page (in French)";
    test(`at ${screen.width}x${screen.height}, ${which}: no sideways scroll, comparison on screen, header in two rows at most${screen.axeRules === "every" ? ", no axe violation" : screen.axeRules === "width" ? ", no violation of axe's width rules" : ""}; the support button covers no text, link or control on the first screen or at the end, and is there once scrolled`, async () => {
      const context = await openContext(screen);
      const tabs = tabsOf(context, TABS);
      const pages = await pagesAt(screen);
      const results = await Promise.all(pages.map((swept) => tabs((page) => problemsOf(page, swept, screen))));
      // The landing page of each language swept, its comparison whole (nine cells).
      const landings = results.flatMap((r) => (r.comparisonCells === null ? [] : [r.comparisonCells]));
      expect(landings).toEqual(pages.filter((p) => p.path === pathFor("landing", p.locale)).map(() => 9));
      expect(landings).toHaveLength(screen.everyLanguage ? LOCALES.length : 1);
      expect(results.flatMap((r) => r.problems).sort()).toEqual([]);
      await context.close();
    }, 600_000);
  }

  // The two screens of every language, with the support chat, the exit popup and the demo video open.
  // Each language and screen is a journey of its own (its own context), run side by side with the
  // others, at most `TABS` at a time. One question a journey, four a file (its own
  // server): within the chat's allowance of eight a minute for one address
  // (test/e2e/support-chat.test.ts), so they are all answered however fast they come.
  const journey = sideBySide(TABS);
  for (const width of options.journeyWidths)
    for (const locale of LOCALES) {
      journey(
        `at ${width} px, in ${locale}: no ${journeyRules(width) === undefined ? "axe violation" : "violation of axe's width rules"} with the support chat (after a question), the exit popup or the demo video open; the demo's captions load, in the dialog and on the demo page, each track in its language, the page's shown`,
        async () => {
          // No init script here: the exit popup is one of the states checked.
          const context = await site.newContext({
            viewport: { width, height: width < 768 ? 740 : 900 },
            bypassCSP: true,
            reducedMotion: "reduce",
          });
          // Three of its four page loads are checked by axe.
          await checkerInEveryPage(context);
          const page = await context.newPage();
          const found: string[] = [];
          const home = pathFor("landing", locale);

          await visit(page, home);
          // Below 1280 px the support button comes in once the first screen is scrolled past.
          await page.evaluate(() => window.scrollTo({ top: window.innerHeight, behavior: "instant" }));
          await page.locator(".support__trigger").click();
          await page.getByRole("menuitem").first().click();
          const chat = page.locator(".chat-window");
          await chat.waitFor({ state: "visible" });
          await chat.getByRole("textbox").fill("?");
          await chat.getByRole("textbox").press("Enter");
          await chat.locator(".chat-msg--assistant").nth(1).waitFor({ state: "visible" });
          await chat.locator("[aria-busy=true]").waitFor({ state: "detached" });
          found.push(...(await axeViolations(page, `chat open (${locale}) @${width}px`, journeyRules(width))));
          expect(layoutProblems(`chat open (${locale}) @${width}px`, await measure(page))).toEqual([]);

          // The exit popup, opened by its own timer (30 s after load) on a clock moved by hand, in a
          // tab of its own so that the other checks keep the real clock.
          const popupPage = await context.newPage();
          await popupPage.clock.install();
          await visit(popupPage, home);
          await popupPage.clock.runFor(31_000);
          await popupPage.locator("dialog#exit-popup[open]").waitFor({ state: "visible" });
          found.push(...(await axeViolations(popupPage, `exit popup open (${locale}) @${width}px`, journeyRules(width))));
          await popupPage.close();

          await visit(page, home);
          await page.locator("[data-demo-button]").first().click();
          await page.locator("dialog.demo-dialog[open]").waitFor({ state: "visible" });
          found.push(...(await axeViolations(page, `demo video open (${locale}) @${width}px`, journeyRules(width))));
          expect(await demoCaptions(page, "dialog.demo-dialog video")).toEqual(expectedCaptions(locale));
          await page.keyboard.press("Escape");

          // The demo page, where the demo links lead without script: the same tracks, in the page.
          // (Its axe check is the every-page sweep's.)
          await visit(page, pathFor("demo", locale));
          expect(await demoCaptions(page, "main video")).toEqual(expectedCaptions(locale));
          expect(found).toEqual([]);
          await context.close();
        },
        240_000,
      );
    }
}
