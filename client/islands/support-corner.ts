/**
 * Says when the floating support button may show without covering the page (client/styles.css,
 * "support widget"). Below 1280 px its corner is over the page's own text: the hero's price line,
 * the payment page's consent, the resend form of the success page. So the stylesheet keeps it out
 * of view until the visitor has scrolled past the first screen (from then on, nothing that was on
 * that screen can be under it), or is at the end of the page, where the footer leaves room for it
 * (a page that does not scroll is at its end at once). A keyboard reaches it at any time: focused,
 * it shows.
 *
 * Where the header carries its own help (the payment page and the order pages), scrolling past the
 * first screen does not count: the browser scrolls there itself to a field it focuses (the consent
 * box, when the page comes back because it was not ticked), and that field would sit in the corner.
 * Help stays one tap away in the header; the floating button waits for the end of the page.
 *
 * Part of the page's first script rather than of the support island: the island loads when the
 * visitor reaches for the button, which they cannot do before it shows.
 */
const SUPPORT_CLEAR = "data-support-clear";

/** How close to the end (px) counts as the end: rounding of fractional scroll positions. */
const END_SLACK = 2;

/** The header's own help link (client/components/layout.tsx, HelpButton). */
const HEADER_HELP = ".site-header__help";

export function watchSupportCorner(root: HTMLElement = document.documentElement): void {
  const helpInHeader = root.querySelector(HEADER_HELP) !== null;
  // Straight from the events (a scroll event comes at most once a frame): three reads and one
  // attribute, and no wait for a frame that a paused page (or a test's clock) would not give.
  const update = () => {
    const scrolled = window.scrollY;
    const pastFirstScreen = scrolled >= window.innerHeight;
    const atEnd = scrolled + window.innerHeight >= root.scrollHeight - END_SLACK;
    root.toggleAttribute(SUPPORT_CLEAR, (pastFirstScreen && !helpInHeader) || atEnd);
  };
  window.addEventListener("scroll", update, { passive: true });
  window.addEventListener("resize", update);
  // The page grows or shrinks under a still visitor (an answer opening in the FAQ, a form's
  // message): the end may come into view, or leave it.
  if (typeof ResizeObserver === "function") new ResizeObserver(update).observe(document.body);
  update();
}
