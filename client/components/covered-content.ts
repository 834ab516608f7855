// What a floating card would hide if it appeared over a part of the screen. The purchase toast may
// pass over text for its five seconds (it is a notice, closed in one tap), never over what the
// visitor uses or decides on: a link, a control, a label, an open support panel, or a price
// (coversControls), each measured by its box on screen.

export type Box = { left: number; top: number; right: number; bottom: number };

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Not the page's content: the widgets that float over it, and what only a screen reader gets. */
const FLOATING = ".support, .social-proof, .toast-region, .sr-only, script, style, template, svg";
/** What a visitor uses, whether or not it holds text. */
const USABLE =
  "a[href], button, input:not([type=hidden]), select, textarea, summary, label, video, iframe, [role=button], [role=link], [tabindex]:not([tabindex='-1'])";
/** The support widget's open menu or chat: it floats too, and is in use. */
const OPEN_SUPPORT_PANEL = ".support > :not(.support__trigger)";

/** The prices a buyer decides on (the hero's price note, the pricing card's price, the order's total). */
export const PRICE = "[data-price]";

const painted = (element: Element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
const shown = (rect: DOMRect) => rect.width > 0 && rect.height > 0;

/** Whether anything a visitor uses, or a price, is inside `box` (viewport coordinates) right now. */
export function coversControls(box: Box): boolean {
  for (const panel of document.querySelectorAll(OPEN_SUPPORT_PANEL)) {
    const rect = panel.getBoundingClientRect();
    if (shown(rect) && overlaps(box, rect)) return true;
  }
  for (const element of document.body.querySelectorAll(`${USABLE}, ${PRICE}`)) {
    const rect = element.getBoundingClientRect();
    if (shown(rect) && overlaps(box, rect) && element.closest(FLOATING) === null && painted(element)) return true;
  }
  return false;
}
