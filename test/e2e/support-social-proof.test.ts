import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { openDb } from "../../db/client";
import { pathFor } from "../../shared/routes";
import { seedOrder } from "../social-proof/seed-orders";
import { type RunningServer, startServer, useSharedSite, watchConsole } from "./harness";

// Social proof only from real purchases, with the timings of docs/product.md ("Behaviour the pages keep"):
// first 3 s after load, visible 5 s. The browser's clock is paused and moved by hand. Where the toast
// stands on each page (what it may cover), the landing page's first screen on a phone included, is
// support-button-placement.test.ts's.

// A shop without a paid order: the server the files that only read the shop share (they make no
// paid order, harness.ts's useSharedSite).
const shared = useSharedSite();
let withOrders: RunningServer;
const dirs: string[] = [];

beforeAll(async () => {
  const seeded = mkdtempSync(join(tmpdir(), "site-e2e-social-"));
  dirs.push(seeded);
  // Orders are written straight into the SQLite file before the server starts, as fulfilment would.
  const db = openDb(join(seeded, "site.db"));
  const now = Date.now();
  seedOrder(db, { firstName: "Sophie", city: "Lyon", paidAt: new Date(now - 12 * 60_000) });
  seedOrder(db, { firstName: "Marc", city: "Bordeaux", paidAt: new Date(now - 40 * 60_000) });
  seedOrder(db, { firstName: "Old", city: "Paris", paidAt: new Date(now - 40 * 24 * 3_600_000) });
  db.$client.close();
  withOrders = await startServer({ dataDir: seeded });
}, 90_000);

afterAll(async () => {
  await withOrders?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** Opens a page with the clock paused at load, once the purchase list has arrived. (The toast shows
 * only where its corner covers nothing: by default a short page on a tall screen, whose corner is clear.) */
async function openWithPausedClock(baseUrl: string, viewport = { width: 1280, height: 1400 }, path = "/payment-canceled"): Promise<Page> {
  const context = await shared.newContext({ baseURL: baseUrl, viewport });
  await context.addInitScript(() => window.localStorage.setItem("exit-popup-shown", "1"));
  const page = await context.newPage();
  const start = Date.now();
  await page.clock.install({ time: start });
  // pauseAt cannot go back and the installed clock runs until paused: a minute ahead, not a second a
  // loaded machine may pass between the two calls (no page is open yet, so no site timer fires).
  await page.clock.pauseAt(start + 60_000);
  const list = page.waitForResponse((r) => r.url().endsWith("/api/social-proof"));
  await page.goto(path);
  await list;
  // The loader has decided: the toast's island is hydrated when there is a purchase to show.
  await page.waitForFunction(() =>
    ["hydrated", "skipped"].includes(document.querySelector('[data-island="social-proof"]')?.getAttribute("data-island-state") ?? ""),
  );
  return page;
}

test("with two paid orders, the toast shows one of their cities at 3 s and hides at 8 s", async () => {
  const page = await openWithPausedClock(withOrders.baseUrl);
  const consoleLog = watchConsole(page);
  const toast = page.locator(".social-proof");
  expect(await toast.getAttribute("aria-live")).toBe("polite");

  // The first toast is due 3 s after the document started (performance.now). The page's clock is
  // paused, but how far it had run when the page hydrated depends on the machine's load: read it,
  // and check "nothing before 3 s" whenever the page hydrated before then (on a quiet machine, always).
  const hydratedAt = await page.evaluate(() => performance.now());
  let at = hydratedAt;
  if (at < 2_800) {
    await page.clock.runFor(2_800 - at);
    at = 2_800;
    expect(await toast.textContent()).toBe("");
  }
  const shownAt = Math.max(3_000, hydratedAt);
  await page.clock.runFor(shownAt + 200 - at);
  const card = page.locator(".social-proof__card");
  await card.waitFor({ state: "visible" });
  const text = (await card.textContent()) ?? "";
  expect(text).toMatch(/^(S\., à Lyon, a acheté l'accès à vie.*il y a 12 min|M\., à Bordeaux, a acheté l'accès à vie.*il y a 40 min)/);
  expect(text).not.toContain("Paris"); // older than 30 days

  // Visible 5 s.
  await page.clock.runFor(4_600);
  expect(await card.isVisible()).toBe(true);
  await page.clock.runFor(400);
  await card.waitFor({ state: "detached" });

  // Then again every 15 s.
  await page.clock.runFor(15_000 - 5_000 + 200);
  await card.waitFor({ state: "visible" });
  expect(consoleLog.errors).toEqual([]);
  await page.context().close();
}, 90_000);

test("once dismissed, the toast stays hidden for the rest of the visit", async () => {
  const page = await openWithPausedClock(withOrders.baseUrl);
  await page.clock.runFor(3_200);
  await page.getByRole("button", { name: "Masquer les notifications d'achat" }).click();
  expect(await page.locator(".social-proof__card").count()).toBe(0);
  await page.clock.runFor(20_000);
  expect(await page.locator(".social-proof__card").count()).toBe(0);

  // Another page of the same visit: no request, no toast.
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto("/paiement");
  await page.locator('[data-island="social-proof"][data-island-state="skipped"]').waitFor({ state: "attached" });
  await page.clock.runFor(20_000);
  expect(await page.locator(".social-proof__card").count()).toBe(0);
  expect(requests.filter((u) => u.endsWith("/api/social-proof"))).toEqual([]);
  await page.context().close();
}, 90_000);

test("with no paid order, no toast ever appears", async () => {
  const page = await openWithPausedClock(shared.server.baseUrl);
  for (let i = 0; i < 4; i++) {
    await page.clock.runFor(10_000);
    expect(await page.locator(".social-proof__card").count()).toBe(0);
  }
  expect(await page.locator(".social-proof").textContent()).toBe("");
  // Nothing to show: the toast's code was never loaded.
  expect(await page.locator('[data-island="social-proof"]').getAttribute("data-island-state")).toBe("skipped");
  await page.context().close();
}, 90_000);

test("in development, with no purchase yet, the notice shows sample purchases marked as examples in each language; a real one is not marked", async () => {
  const development = await startServer({ env: { NODE_ENV: "development" } });
  try {
    for (const [locale, mark] of [
      ["fr", "Exemple"],
      ["en", "Example"],
      ["it", "Esempio"],
      ["es", "Ejemplo"],
    ] as const) {
      const page = await openWithPausedClock(development.baseUrl, undefined, pathFor("canceled", locale));
      await page.clock.runFor(3_200);
      const card = page.locator(".social-proof__card");
      await card.waitFor({ state: "visible" });
      expect({ locale, mark: await card.locator(".social-proof__sample").textContent() }).toEqual({ locale, mark });
      expect(await card.textContent()).toMatch(/Nantes|Torino|J\./);
      await page.context().close();
    }
  } finally {
    await development.stop();
  }
  // A real purchase (the test suite's server): no mark.
  const page = await openWithPausedClock(withOrders.baseUrl);
  await page.clock.runFor(3_200);
  await page.locator(".social-proof__card").waitFor({ state: "visible" });
  expect(await page.locator(".social-proof__sample").count()).toBe(0);
  await page.context().close();
}, 90_000);

test("each paid order is shown once per visit: two orders, two toasts, then none, also on the next page", async () => {
  const page = await openWithPausedClock(withOrders.baseUrl);
  const card = page.locator(".social-proof__card");
  const cities: string[] = [];
  for (let turn = 0; turn < 2; turn++) {
    await page.clock.runFor(turn === 0 ? 3_200 : 15_000 - 5_000);
    await card.waitFor({ state: "visible" });
    cities.push(/Lyon|Bordeaux/.exec((await card.textContent()) ?? "")?.[0] ?? "?");
    await page.clock.runFor(5_000);
    await card.waitFor({ state: "detached" });
  }
  expect(cities.sort()).toEqual(["Bordeaux", "Lyon"]);
  for (let i = 0; i < 4; i++) {
    await page.clock.runFor(10_000);
    expect(await card.count()).toBe(0);
  }
  // The next page of the same visit shows neither again.
  await page.goto("/en");
  await page.getByRole("button", { name: "Support" }).waitFor({ state: "visible" });
  for (let i = 0; i < 4; i++) {
    await page.clock.runFor(10_000);
    expect(await card.count()).toBe(0);
  }
  await page.context().close();
}, 90_000);
