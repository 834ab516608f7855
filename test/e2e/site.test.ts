import { expect, test } from "bun:test";
import { Window } from "happy-dom";
import type { Page } from "playwright-core";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { demoCaptions, expectedCaptions } from "./captions";
import { hydrateAllIslands, islandStates, useSharedSite, watchConsole } from "./harness";
import { sideBySide, tabsOfOwnContexts } from "./limit";
import { firstScreenSettled, visit } from "./visit";

const site = useSharedSite();

/** The journeys of one page and one visitor each are independent (each its own context): they run
 * side by side, at most three at a time (a 2-core machine gains nothing from more). The two that go
 * through every page use three tabs of their own, and the two that measure the load itself (layout
 * shift, script before the load event) run alone, so they run as plain tests. */
const journey = sideBySide(3);

journey(
  "/ and /en are in their language; loaded, they run one small script before the load event and React waits until an island needs it",
  async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const consoleLog = watchConsole(page);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto("/");
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.locator("h1").textContent()).toContain("Tous les films");
    await page.waitForLoadState("networkidle");
    // Before the load event, one script; after it, web-vitals' own chunk (real-user speed), nothing else.
    const timing = await page.evaluate(() => {
      const load = performance.getEntriesByType("navigation")[0]?.loadEventStart ?? 0;
      const js = performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.endsWith(".js"));
      return {
        before: js.filter((e) => e.startTime < load).map((e) => new URL(e.name).pathname),
        after: js.filter((e) => e.startTime >= load).length,
      };
    });
    expect(timing.before).toEqual([expect.stringMatching(/^\/assets\/entry-[a-z0-9]+\.js$/)]);
    expect(timing.after).toBeLessThanOrEqual(1);
    expect(scripts.length).toBe(timing.before.length + timing.after);
    // Every island is known to the loader; none needed yet (no purchase to show, nothing reached for).
    expect((await islandStates(page)).sort()).toEqual([
      "access-form:waiting",
      "demo:waiting",
      "exit-popup:waiting",
      "lead-form:waiting",
      "social-proof:skipped",
      "support:waiting",
      "toasts:waiting",
    ]);
    await page.clock.install();
    await page.goto("/en");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe("Every film and series. One payment. For life.");
    await hydrateAllIslands(page, { clock: true });
    expect(consoleLog.errors).toEqual([]);
    await context.close();
  },
);

journey("switching language keeps the page; choosing the active language does nothing", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await page.goto("/paiement");
  await page.getByRole("link", { name: "English" }).click();
  await page.waitForURL("**/en/paiement");
  expect(await page.locator("h1").textContent()).toBe("Complete your order");
  const active = page.locator('.lang-switcher [aria-current="true"]');
  expect(await active.textContent()).toBe("English");
  // Not a link: a click on it starts no navigation (a navigation it started, the click would await).
  expect(await active.evaluate((el) => el.closest("a[href]"))).toBeNull();
  await active.click();
  expect(new URL(page.url()).pathname).toBe("/en/paiement");
  await page.getByRole("link", { name: "Español" }).click();
  await page.waitForURL("**/es/paiement");
  expect(await page.getAttribute("html", "lang")).toBe("es");
  await context.close();
});

journey("the demo dialog opens from the keyboard, loads the video only then, closes on Escape and gives focus back", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  const videoRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("demo-video")) videoRequests.push(request.url());
  });
  await page.goto("/en");
  await page.waitForLoadState("networkidle");
  expect(videoRequests).toEqual([]);
  expect(await page.locator("video").count()).toBe(0);

  const opener = page.getByRole("link", { name: "Watch the demo video" }).first();
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /in \d+ seconds/ });
  await dialog.waitFor({ state: "visible" });
  const video = dialog.locator("video");
  expect(await video.getAttribute("poster")).toMatch(/\/assets\/demo-poster-.*\.webp$/);
  expect(await video.locator("source").getAttribute("src")).toBe("/demo-video.mp4");
  await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.includes("demo-video")));

  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Watch the demo video");

  // The close button, reached and pressed with the keyboard.
  const demo = page.getByRole("link", { name: "See the demo" }).nth(2);
  await demo.focus();
  await page.keyboard.press("Enter");
  await dialog.waitFor({ state: "visible" });
  expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Close the video");
  await page.keyboard.press("Enter");
  await dialog.waitFor({ state: "hidden" });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("See the demo");
  await context.close();
});

journey("when an island's code cannot be loaded, its link still does what it does without script", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await page.route("**/assets/chunk-*.js", (route) => route.abort());
  // Loaded, its islands seen by the loader: the click below is one the site's script handles.
  await visit(page, "/en");
  await page.getByRole("link", { name: "Watch the demo video" }).first().click();
  await page.waitForURL("**/en/demo");
  expect(await page.locator("main video track").count()).toBe(4);
  await context.close();
});

journey("FAQ: opening a second question closes the first", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  await page.goto("/en#faq");
  const items = page.locator("details.faq__item");
  await items.nth(0).locator("summary").click();
  expect(await items.nth(0).getAttribute("open")).not.toBeNull();
  await items.nth(1).locator("summary").click();
  expect(await items.nth(1).getAttribute("open")).not.toBeNull();
  expect(await items.nth(0).getAttribute("open")).toBeNull();
  expect(await page.locator("details.faq__item[open]").count()).toBe(1);
  await items.nth(1).locator("summary").click();
  expect(await page.locator("details.faq__item[open]").count()).toBe(0);
  await context.close();
});

journey("an unknown path shows the 404 page and logs the path in the console", async () => {
  const context = await site.newContext();
  const page = await context.newPage();
  const consoleLog = watchConsole(page);
  const logged = page.waitForEvent("console", { predicate: (m) => m.text().includes("/en/lost-page") });
  const response = await page.goto("/en/lost-page");
  expect(response?.status()).toBe(404);
  expect(await page.locator("h1").textContent()).toBe("Oops! Page not found");
  await logged;
  expect(consoleLog.messages.some((m) => m.includes("/en/lost-page"))).toBe(true);
  await page.getByRole("link", { name: "Back to the home page" }).first().click();
  await page.waitForURL((url) => url.pathname === "/en");
  await context.close();
});

// One journey per language: each makes six page loads.
for (const locale of LOCALES)
  journey(
    `without JavaScript the demo links open the demo page, whose player has the captions of every language, the page's shown (${locale})`,
    async () => {
      const context = await site.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(pathFor("landing", locale));
      // The hero's link, then one of the pairs of buttons that end the sections.
      for (const link of [page.locator(".hero [data-demo-button]"), page.locator(".cta-row [data-demo-button]").last()]) {
        await link.click();
        await page.waitForURL((url) => url.pathname === pathFor("demo", locale));
        await page.goBack();
      }
      await page.goto(pathFor("demo", locale));
      expect(await demoCaptions(page, "main video")).toEqual(expectedCaptions(locale));
      // No video is downloaded until the visitor presses play.
      expect(await page.evaluate(() => performance.getEntriesByType("resource").some((e) => e.name.includes("demo-video")))).toBe(false);
      // On to pay, in the page's language.
      await page.locator("main").getByRole("link", { name: SOURCE_MESSAGES[locale]["cta.getAccess"] }).click();
      await page.waitForURL((url) => url.pathname === pathFor("payment", locale));
      await context.close();
    },
  );

// The landing page's full-length screenshots at 360 and 1280 px (artifacts/landing-*.png), and its
// no-sideways-scroll at those widths, are the browser sweep's (test/e2e/sweep.ts), taken on the visit
// it makes of that page at that width anyway.

// Three tabs side by side, each in a context of its own: the clock each moves is its context's.
test("every island of every page in every language hydrates without a console error or warning", async () => {
  const consoles = new Map<Page, ReturnType<typeof watchConsole>>();
  const tabs = tabsOfOwnContexts(async () => {
    const context = await site.newContext();
    // 60 pages with every island opened is far more page views and events in a minute than a person
    // makes, so the beacon's per-client limit would answer 429; counting is not what this test reads.
    await context.route("**/api/beacon", (route) => route.fulfill({ status: 204 }));
    const page = await context.newPage();
    await page.clock.install();
    consoles.set(page, watchConsole(page));
    return page;
  }, 3);
  const seen = await Promise.all(
    LOCALES.flatMap((locale) =>
      PAGE_IDS.map((id) =>
        tabs(async (page) => {
          const path = pathFor(id, locale);
          await page.goto(path);
          await hydrateAllIslands(page, { clock: true });
          const states = await islandStates(page);
          // A tab's errors so far: one of its earlier pages' would have failed that page already.
          return { path, islands: states.length > 0, errors: [...(consoles.get(page)?.errors ?? [])] };
        }),
      ),
    ),
  );
  await tabs.close();
  for (const one of seen) expect(one).toEqual({ path: one.path, islands: true, errors: [] });
  expect(seen).toHaveLength(LOCALES.length * PAGE_IDS.length);
}, 120_000);

test("without JavaScript every page is complete: main heading, working links", async () => {
  // What a browser without script shows of a page is its HTML as served: each page's is read here
  // (status, the main heading) without a browser, where 60 page loads in Chromium cost several
  // seconds of CPU for the same two facts; the links are then followed in Chromium.
  const seen = await Promise.all(
    LOCALES.flatMap((locale) =>
      PAGE_IDS.map(async (id) => {
        const path = pathFor(id, locale);
        const response = await fetch(`${site.server.baseUrl}${path}`, { redirect: "manual" });
        const window = new Window({
          url: `${site.server.baseUrl}${path}`,
          settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true },
        });
        window.document.write(await response.text());
        const heading = window.document.querySelector("main h1")?.textContent?.trim() ?? "";
        await window.happyDOM.close();
        return { path, status: response.status, heading: heading.length > 5 };
      }),
    ),
  );
  for (const one of seen) expect(one).toEqual({ path: one.path, status: 200, heading: true });
  const context = await site.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  // Links work: from the landing page to the payment page, and the FAQ opens natively. The support
  // button, which needs a script, is not shown.
  await page.goto("/");
  expect(await page.locator(".support__trigger").isVisible()).toBe(false);
  await page.getByRole("link", { name: "Obtenir l'accès" }).first().click();
  await page.waitForURL("**/paiement");
  await page.goto("/");
  await page.locator("details.faq__item summary").first().click();
  expect(await page.locator("details.faq__item[open]").count()).toBe(1);
  await context.close();
});

test("nothing moves while the landing page loads on a phone (cumulative layout shift)", async () => {
  const context = await site.newContext({ viewport: { width: 360, height: 740 } });
  await context.addInitScript(() => {
    const shifts: number[] = [];
    Reflect.set(window, "__shifts", shifts);
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push(Number(Reflect.get(entry, "value")));
    });
    observer.observe({ type: "layout-shift", buffered: true });
    Reflect.set(window, "__shiftObserver", observer);
  });
  const page = await context.newPage();
  // Until everything that could move it has come: the load (pictures), the font, the islands on the
  // first screen rendered (those that start by themselves); then two frames, the first of which
  // paints what came last.
  await visit(page, "/");
  await firstScreenSettled(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const cls = await page.evaluate(() => {
    const shifts: number[] = Reflect.get(window, "__shifts");
    // Shifts reported but not yet handed to the observer's callback (a task of its own) count too.
    const observer: PerformanceObserver = Reflect.get(window, "__shiftObserver");
    for (const entry of observer.takeRecords()) shifts.push(Number(Reflect.get(entry, "value")));
    return shifts.reduce((a, b) => a + b, 0);
  });
  expect(cls).toBeLessThan(0.01);
  await context.close();
});

test("the first visit of / on a phone runs under 8 KB of compressed JavaScript before the load event", async () => {
  const context = await site.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  // Counting is not what this test reads.
  await context.route("**/api/beacon", (route) => route.fulfill({ status: 204 }));
  const page = await context.newPage();
  await page.goto("/", { waitUntil: "load" });
  const before = await page.evaluate(() => {
    const load = performance.getEntriesByType("navigation")[0]?.loadEventStart ?? 0;
    return performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.endsWith(".js") && e.startTime < load)
      .map((e) => ({ path: new URL(e.name).pathname, bytes: (e as PerformanceResourceTiming).encodedBodySize }));
  });
  // Each counted as it came over the wire (compressed), and the budget holds for all together.
  expect(before.length).toBeGreaterThan(0);
  expect(before.every((s) => s.bytes > 0)).toBe(true);
  expect(before.reduce((n, s) => n + s.bytes, 0)).toBeLessThanOrEqual(8 * 1024);
  await context.close();
});
