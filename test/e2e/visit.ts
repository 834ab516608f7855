import type { Page } from "playwright-core";

/** Loaded, its islands seen by their loader (client/entry.ts: each has a state), and in its font. */
export async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>("[data-island]")].every((c) => c.dataset.islandState !== undefined),
  );
  await page.evaluate(() => document.fonts.ready);
}
