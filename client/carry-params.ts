// A discount code (`?code=`) or a partner's name (`?ref=`) in the address is kept in the site's own
// links, so that it reaches the payment page (where the pay button applies the code and sends the
// partner with the payment). The pages are the same bytes for everyone and the site sets no cookie:
// the address is the only place it lives. Run after the page has loaded (client/after-load.ts).

/**
 * The address parameters the site's links keep from page to page (a discount code, a partner).
 * Defined here rather than beside the partner rules in shared/partner.ts: a chunk shared with the
 * pay button would cost every page another entry in the page script's list of files.
 */
export const CARRIED_PARAMS = ["code", "ref"] as const;

export function carryParams(): void {
  const here = new URLSearchParams(location.search);
  const kept = CARRIED_PARAMS.flatMap((name) => {
    const value = here.get(name)?.trim().slice(0, 64);
    return value ? [[name, value] as const] : [];
  });
  if (kept.length === 0) return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    let url: URL;
    try {
      url = new URL(link.href);
    } catch {
      continue;
    }
    // Only the site's own pages: never another site, the console or a file to download.
    if (url.origin !== location.origin || url.pathname.startsWith("/admin") || /\.[a-z0-9]+$/i.test(url.pathname)) continue;
    for (const [name, value] of kept) if (!url.searchParams.has(name)) url.searchParams.set(name, value);
    link.href = url.pathname + url.search + url.hash;
  }
}
