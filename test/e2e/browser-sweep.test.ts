import { expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db/client";
import { seedOrder } from "../social-proof/seed-orders";
import { axeViolations } from "./axe";
import { demoCaptions, expectedCaptions } from "./captions";
import { placement } from "./floating";
import { artifactPath, startServer, useSite } from "./harness";
import { tabsOf } from "./limit";
import { visit } from "./visit";

// Every page in every language at the widths people use: nothing scrolls sideways, every
// cell of the price comparison is on screen, the header keeps to two rows, and axe-core finds no
// violation of any impact, also with the support chat, the exit popup and the demo video open.
//
// Pages come from the route table (PAGE_IDS), so a page added there is swept without a change here;
// the test checkout's card page and the 404 page are added by hand. The geometry is checked in French
// at all five widths, and in every language at 320 px (phone layout: stacked comparison, compact
// header) and 1280 px (desktop layout: hero picture, one-row header), where the layouts differ and
// where axe runs too; 360, 768 and 1920 px only stretch one of those two layouts, and a language only
// changes the length of the texts. At each width three tabs visit the pages side by side (`TABS`),
// each going from page to page (a new tab per page would cost more than the visit).

const site = useSite();

/** Pages being worked on at one time: most of a visit is waiting, but on a 2-core machine more than
 * three at once only makes each slower (and a page that waits too long for the CPU times out). */
const TABS = 3;

const WIDTHS = [320, 360, 768, 1280, 1920] as const;
const AXE_WIDTHS: ReadonlySet<number> = new Set([320, 1280]);
/** Screenshots of the landing page's first screen for a person to look at (artifacts/). */
const SCREENSHOTS: { widths: ReadonlySet<number>; locales: ReadonlySet<Locale> } = {
  widths: new Set([320, 360, 1280, 1920]),
  locales: new Set(["fr", "es", "it"]),
};

type SweptPage = { label: string; path: string; locale: Locale };

/** The site's pages, the card page of a new test checkout and the 404 page, in each language given. */
async function sweptPages(locales: readonly Locale[]): Promise<SweptPage[]> {
  const pages: SweptPage[] = [];
  for (const locale of locales) {
    for (const page of PAGE_IDS) pages.push({ label: `${page} (${locale})`, path: pathFor(page, locale), locale });
    pages.push({ label: `test checkout (${locale})`, path: await newTestCheckout(locale), locale });
    pages.push({ label: `404 (${locale})`, path: `${pathFor("landing", locale).replace(/\/$/, "")}/no-such-page`, locale });
  }
  return pages;
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

/** A tab of `width` px. (No page stays open the 30 s after which the exit popup would cover it.) */
function openContext(width: number): Promise<BrowserContext> {
  return site.newContext({ viewport: { width, height: width < 768 ? 740 : 900 }, bypassCSP: true, reducedMotion: "reduce" });
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

for (const width of WIDTHS) {
  // At the axe widths every language, elsewhere French (see the top of the file).
  const withAxe = AXE_WIDTHS.has(width);
  const locales = withAxe ? LOCALES : [DEFAULT_LOCALE];
  test(`at ${width} px, every page in ${withAxe ? "every language" : "French"}: no sideways scroll, comparison on screen, header in two rows at most${withAxe ? ", no axe violation" : ""}`, async () => {
    const context = await openContext(width);
    const tabs = tabsOf(context, TABS);
    const problems: string[] = [];
    let comparisonsSeen = 0;
    await Promise.all(
      (await sweptPages(locales)).map((swept) =>
        tabs(async (page) => {
          await visit(page, swept.path);
          const where = `${swept.label} @${width}px`;
          const geometry = await measure(page);
          const isLanding = swept.path === pathFor("landing", swept.locale);
          if (isLanding) {
            comparisonsSeen += 1;
            expect({ where, cells: await page.locator(".comparison tbody td").count() }).toEqual({ where, cells: 9 });
            if (SCREENSHOTS.widths.has(width) && SCREENSHOTS.locales.has(swept.locale))
              await page.screenshot({ path: artifactPath(`sweep-${swept.locale}-${width}.png`) });
          }
          problems.push(...layoutProblems(where, geometry));
          if (withAxe) problems.push(...(await axeViolations(page, where)));
        }),
      ),
    );
    expect(comparisonsSeen).toBe(locales.length);
    expect(problems.sort()).toEqual([]);
    await context.close();
  }, 480_000);
}

for (const width of [...AXE_WIDTHS])
  for (const locale of LOCALES) {
    test(`at ${width} px, in ${locale}: no axe violation with the support chat (after a question), the exit popup or the demo video open; the demo's captions load, in the dialog and on the demo page, each track in its language, the page's shown`, async () => {
      const context = await openContext(width);
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
      found.push(...(await axeViolations(page, `chat open (${locale}) @${width}px`)));
      expect(layoutProblems(`chat open (${locale}) @${width}px`, await measure(page))).toEqual([]);

      // The exit popup, opened by its own timer (30 s after load) on a clock moved by hand, in a
      // tab of its own so that the other checks keep the real clock.
      const popupPage = await context.newPage();
      await popupPage.clock.install();
      await visit(popupPage, home);
      await popupPage.clock.runFor(31_000);
      await popupPage.locator("dialog#exit-popup[open]").waitFor({ state: "visible" });
      found.push(...(await axeViolations(popupPage, `exit popup open (${locale}) @${width}px`)));
      await popupPage.close();

      await visit(page, home);
      await page.locator("[data-demo-button]").first().click();
      await page.locator("dialog.demo-dialog[open]").waitFor({ state: "visible" });
      found.push(...(await axeViolations(page, `demo video open (${locale}) @${width}px`)));
      expect(await demoCaptions(page, "dialog.demo-dialog video")).toEqual(expectedCaptions(locale));
      await page.keyboard.press("Escape");

      // The demo page, where the demo links lead without script: the same tracks, in the page.
      // (Its axe check is the every-page sweep's.)
      await visit(page, pathFor("demo", locale));
      expect(await demoCaptions(page, "main video")).toEqual(expectedCaptions(locale));
      expect(found).toEqual([]);
      await context.close();
    }, 240_000);
  }

// The purchase toast where a sale of the last minutes is there to show: at every width it shows at
// its first turn (3 s after load) on the first screen, bottom-left, without the visitor scrolling
// (a phone's first screen has text in that corner: the toast may pass over text for its five
// seconds), and whenever it shows it covers no link, control or price. In French at every width,
// in every language on the phone and at 1280 px (as the sweep above).
const TOAST_SCREENS = [
  { width: 360, height: 740, everyLanguage: true },
  { width: 390, height: 844, everyLanguage: false },
  { width: 1280, height: 800, everyLanguage: true },
  { width: 1440, height: 900, everyLanguage: false },
  { width: 1920, height: 1080, everyLanguage: false },
] as const;

/** What the toast must leave clear: a link, a control, a label, a price (not lines of text). */
const usedOrPrice = (covered: string) => !covered.startsWith("text: ");

test("with a recent sale, the landing page shows the purchase toast at its first turn on the first screen at every width, and at no width does it cover a link, a control or a price", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-e2e-sweep-toast-"));
  const db = openDb(join(dataDir, "site.db"));
  seedOrder(db, { firstName: "Sophie", city: "Lyon", paidAt: new Date(Date.now() - 12 * 60_000) });
  seedOrder(db, { firstName: "Marc", city: "Bordeaux", paidAt: new Date(Date.now() - 40 * 60_000) });
  db.$client.close();
  const withSales = await startServer({ dataDir });
  const problems: string[] = [];
  try {
    for (const screen of TOAST_SCREENS) {
      for (const locale of screen.everyLanguage ? LOCALES : [DEFAULT_LOCALE]) {
        const where = `landing (${locale}) @${screen.width}px`;
        // A visit of its own (each order shows once per visit), its clock installed before the load.
        const context = await site.browser.newContext({
          baseURL: withSales.baseUrl,
          viewport: { width: screen.width, height: screen.height },
          reducedMotion: "reduce",
        });
        await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
        const page = await context.newPage();
        // The clock paused from the load on, moved by hand: the toast stays while it is measured.
        const start = Date.now();
        await page.clock.install({ time: start });
        await page.clock.pauseAt(start + 1_000);
        await page.goto(pathFor("landing", locale));
        await page.waitForFunction(() =>
          ["hydrated", "skipped"].includes(document.querySelector('[data-island="social-proof"]')?.getAttribute("data-island-state") ?? ""),
        );
        await page.evaluate(() => document.fonts.ready);
        const card = page.locator(".social-proof__card");
        // The first turn (3 s after load) on the first screen; a later one at the end of the page
        // (where the footer's links may be in the corner: then it moves up, or waits its turn).
        for (const moment of ["first screen", "at the end"] as const) {
          if (moment === "at the end") {
            await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
            await page.clock.runFor(15_000);
          } else await page.clock.runFor(3_200);
          // The scroll's reaction and the toast's render, on the paused clock's frames.
          await page.clock.runFor(200);
          if ((await card.count()) === 0) {
            if (moment === "first screen") problems.push(`${where}: no toast on the first screen`);
            continue;
          }
          let seen = await placement(page, ".social-proof__card");
          // A loaded machine may paint it a few frames later: one more step of the paused clock.
          if (!seen.shown) {
            await page.clock.runFor(300);
            seen = await placement(page, ".social-proof__card");
          }
          if (!seen.shown) {
            // At the end of the page its corner may hold the footer's links: it then waits its next
            // turn out of view (the rule), which covers nothing. The first screen must show it.
            if (moment === "first screen") problems.push(`${where}, ${moment}: toast out of view`);
            continue;
          }
          for (const covered of seen.covers.filter(usedOrPrice)) problems.push(`${where}, ${moment}: toast covers ${covered}`);
        }
        await context.close();
      }
    }
  } finally {
    await withSales.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  expect(problems).toEqual([]);
}, 480_000);
