/**
 * Switching language keeps the visitor where they were on the page. The flags are plain links to
 * the other language's page (the same bytes for every visitor, so they cannot carry a position);
 * at the click, the section being read is added to the link as its anchor: the one whose top is
 * in the upper part of the screen, else the page's own anchor. At the top of the page, none.
 *
 * Part of the page's first script: a flag is used before any island would have loaded.
 */
const SWITCHER_LINK = ".lang-switcher a[href]";
/** How far down the screen a section's top may be and still count as the one being read. */
const READING_LINE = 0.35;

function sectionBeingRead(): string | null {
  const line = window.innerHeight * READING_LINE;
  let found: string | null = null;
  for (const section of document.querySelectorAll<HTMLElement>("main section[id]")) {
    const box = section.getBoundingClientRect();
    if (box.top <= line && box.bottom > 0) found = section.id;
  }
  if (found !== null) return found;
  const hash = decodeURIComponent(window.location.hash.slice(1));
  return hash !== "" && document.getElementById(hash) !== null ? hash : null;
}

export function keepSectionOnLanguageSwitch(): void {
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(SWITCHER_LINK) : null;
    if (link === null) return;
    const id = sectionBeingRead();
    // The link is followed after this handler, with the anchor it has then.
    const url = new URL(link.href);
    url.hash = id ?? "";
    link.href = url.href;
  });
}
