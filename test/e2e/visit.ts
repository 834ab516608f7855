import type { Page } from "playwright-core";
import { ISLANDS } from "../../client/islands/index";

/** Loaded, its islands seen by their loader (client/entry.ts: each has a state), and in its font. */
export async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>("[data-island]")].every((c) => c.dataset.islandState !== undefined),
  );
  await page.evaluate(() => document.fonts.ready);
}

const startingOn = (...on: string[]) =>
  Object.entries(ISLANDS)
    .filter(([, loader]) => on.includes(loader.when.on))
    .map(([name]) => name);
/** Islands that start by themselves once the page (or its load event) is there. */
const ON_LOAD = startingOn("load", "loaded");
/** Islands that start once they come in view. */
const ON_VIEW = startingOn("visible");

/**
 * The first screen as it stays: every island that starts by itself and is in view has hydrated (or
 * had nothing to do), and none is loading. A test that moves the page's clock ahead waits for this
 * first: a timer fired before an island on screen has rendered sees a layout that is about to
 * change (on a loaded machine the hydration can come seconds after the load).
 */
export async function firstScreenSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    ({ onLoad, onView }) =>
      [...document.querySelectorAll<HTMLElement>("[data-island]")].every((container) => {
        const state = container.dataset.islandState;
        if (state === "loading") return false;
        if (state !== "waiting") return true;
        const name = container.dataset.island ?? "";
        if (onLoad.includes(name)) return false;
        if (!onView.includes(name)) return true;
        // Not in view yet: it waits for the visitor to scroll to it.
        return ![...container.children].some((child) => {
          const r = child.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
        });
      }),
    { onLoad: ON_LOAD, onView: ON_VIEW },
  );
}
