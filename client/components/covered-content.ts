// What a floating card (the purchase toast) would hide if it appeared over a part of the screen:
// a line of text, a link, a control or a label of the page, or an open support panel. Measured as a
// reader sees it: each line's own glyph boxes (Range client rects), not its paragraph's box, so a
// card may sit in the gap beside a short line or between two sections.

export type Box = { left: number; top: number; right: number; bottom: number };

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Not the page's content: the widgets that float over it, and what only a screen reader gets. */
const FLOATING = ".support, .social-proof, .toast-region, .sr-only, script, style, template, svg";
/** What a visitor uses, whether or not it holds text. */
const USABLE =
  "a[href], button, input:not([type=hidden]), select, textarea, summary, label, video, iframe, [role=button], [role=link], [tabindex]:not([tabindex='-1'])";
/** The support widget's open menu or chat: it floats too, and is in use. */
const OPEN_SUPPORT_PANEL = ".support > :not(.support__trigger)";

const painted = (element: Element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
const shown = (rect: DOMRect) => rect.width > 0 && rect.height > 0;

/** Whether anything a visitor reads or uses is inside `box` (viewport coordinates) right now. */
export function coversContent(box: Box): boolean {
  for (const panel of document.querySelectorAll(OPEN_SUPPORT_PANEL)) {
    const rect = panel.getBoundingClientRect();
    if (shown(rect) && overlaps(box, rect)) return true;
  }
  for (const element of document.body.querySelectorAll(USABLE)) {
    const rect = element.getBoundingClientRect();
    if (shown(rect) && overlaps(box, rect) && element.closest(FLOATING) === null && painted(element)) return true;
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent === null || (node.textContent ?? "").trim() === "") continue;
    // The parent's box holds every line of the text: most nodes are ruled out by it alone.
    if (!overlaps(box, parent.getBoundingClientRect())) continue;
    if (parent.closest(FLOATING) !== null || !painted(parent)) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) if (shown(rect) && overlaps(box, rect)) return true;
  }
  return false;
}
