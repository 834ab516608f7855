import type { Page } from "playwright-core";

// Where a floating part of the page (the support button, the purchase toast) sits, and what of the
// page it covers, measured in the page as a reader sees it.

export type Placement = {
  /** On screen and painted (the button may wait out of view until the visitor scrolls). */
  shown: boolean;
  box: { left: number; top: number; width: number; height: number };
  /** What it covers: "text: …" for a line of text, "<tag>: …" for a link, control or label. */
  covers: string[];
  /** Out of view, yet on top of what is under it (a tap there would reach it, not the page). */
  catchesTaps: boolean;
  name: string;
};

/** The button (or another floating part: the purchase toast) against everything a visitor reads or
 * uses in the viewport, measured in the page. */
export async function placement(page: Page, selector = ".support__trigger"): Promise<Placement> {
  const found = await placementIfThere(page, selector);
  if (found === null) throw new Error(`no ${selector}`);
  return found;
}

/** The same for a part that comes and goes (the toast hides on its own timer): null when it is not
 * in the page, found and measured in one step so that it cannot go in between. */
export function placementIfThere(page: Page, selector: string): Promise<Placement | null> {
  return page.evaluate((floating) => {
    const trigger = document.querySelector<HTMLElement>(floating);
    if (trigger === null) return null;
    const b = trigger.getBoundingClientRect();
    const inView = b.right > 0 && b.bottom > 0 && b.left < document.documentElement.clientWidth && b.top < window.innerHeight;
    const shown = inView && trigger.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const overlaps = (r: DOMRect) =>
      r.width > 0 && r.height > 0 && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
    // Not page content: the widgets that float over it, and text only a screen reader gets.
    const ignored = (e: Element | null) =>
      e === null || e.closest(".support, .social-proof, .toast-region, .sr-only, script, style, template, svg") !== null;
    const painted = (e: Element) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const covers: string[] = [];
    if (shown) {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = (node.textContent ?? "").replace(/\s+/g, " ").trim();
        const parent = node.parentElement;
        if (text === "" || parent === null || ignored(parent) || !painted(parent)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if ([...range.getClientRects()].some(overlaps)) covers.push(`text: ${text.slice(0, 50)}`);
      }
      // Prices too ("<p>" or "<span>" in the list): what a buyer decides on.
      const usable =
        "a[href], button, input:not([type=hidden]), select, textarea, summary, label, video, iframe, [role=button], [role=link], [tabindex]:not([tabindex='-1']), [data-price]";
      for (const element of document.body.querySelectorAll(usable)) {
        if (ignored(element) || !painted(element) || !overlaps(element.getBoundingClientRect())) continue;
        const label =
          element.getAttribute("aria-label") ??
          (element instanceof HTMLInputElement ? element.placeholder || element.type : element.textContent);
        covers.push(`<${element.tagName.toLowerCase()}>: ${(label ?? "").replace(/\s+/g, " ").trim().slice(0, 40)}`);
      }
    }
    const centre = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return {
      shown,
      box: { left: Math.round(b.left), top: Math.round(b.top), width: Math.round(b.width), height: Math.round(b.height) },
      covers,
      catchesTaps: !shown && centre !== null && centre.closest(".support") !== null,
      name: trigger.getAttribute("aria-label") ?? "",
    };
  }, selector);
}

/** Lets a scroll's reaction and the button's transition (if any) run to their end. */
export async function settle(page: Page) {
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // An animation cancelled meanwhile (the toast taken down by its own timer as it came in) moves
    // nothing any more: its rejected `finished` counts as done.
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  });
}
