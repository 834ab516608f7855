import { CARRIED_PARAMS } from "../shared/partner";

// A discount code (`?code=`) or a partner's name (`?ref=`) in the address is kept in the site's own
// links, so that it reaches the payment page (where the pay button applies the code and sends the
// partner with the payment). The pages are the same bytes for everyone and the site sets no cookie:
// the address is the only place it lives. Loaded after the page, only when the address has one.

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
