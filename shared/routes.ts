import { DEFAULT_LOCALE, isLocale, type Locale } from "./locales";

// One typed route table read by the server renderer and the client (docs/product.md, "Pages and
// routes"): French at the original paths, other languages under a prefix, the same segment in every
// language.
export const PAGE_IDS = [
  "landing",
  "payment",
  "success",
  "canceled",
  "guide",
  "demo",
  "access",
  "legal-notice",
  "terms",
  "privacy",
  "devices",
  "refund",
  "catalogue",
  "reviews",
  "review",
] as const;
export type PageId = (typeof PAGE_IDS)[number];
export const PAGES: Record<PageId, string> = {
  landing: "",
  payment: "paiement",
  success: "payment-success",
  canceled: "payment-canceled",
  guide: "guide",
  // The demo video with its captions as a page of its own: what the demo links open without
  // JavaScript (with it, the landing page's dialog shows the same video in place).
  demo: "demo",
  access: "access",
  // The legal pages keep their French names in every language, like /paiement.
  "legal-notice": "mentions-legales",
  terms: "cgv",
  privacy: "confidentialite",
  // The buyer's devices, reached from the signed link of the access e-mail (never listed in a menu).
  devices: "devices",
  // The 7-day guarantee's refund page of one order, reached from its signed link (access e-mail, success page).
  refund: "remboursement",
  // Every title of the app's catalogue, searchable with a plain form (works without JavaScript).
  catalogue: "catalogue",
  // How reviews work (who may write one, how the purchase is checked, moderation): French name in every language.
  reviews: "avis",
  // An order's review page, reached from its link (review e-mail, receipt page, devices page).
  review: "mon-avis",
};

export function pathFor(page: PageId, locale: Locale): string {
  const segment = PAGES[page];
  const prefix = locale === DEFAULT_LOCALE ? "" : `/${locale}`;
  if (segment === "") return prefix === "" ? "/" : prefix;
  return `${prefix}/${segment}`;
}

export type RouteMatch = { page: PageId; locale: Locale };

/** Resolves a URL path to a page and language; `null` means 404. */
export function matchPath(pathname: string): RouteMatch | null {
  const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  const parts = trimmed.split("/").filter(Boolean);
  let locale: Locale = DEFAULT_LOCALE;
  if (parts.length > 0 && isLocale(parts[0]) && parts[0] !== DEFAULT_LOCALE) {
    locale = parts[0];
    parts.shift();
  }
  if (parts.length > 1) return null;
  const segment = parts[0] ?? "";
  for (const page of PAGE_IDS) {
    if (PAGES[page] === segment) return { page, locale };
  }
  return null;
}

/** The locale a path belongs to, also for unknown paths (used by the 404 page). */
export function localeOfPath(pathname: string): Locale {
  const first = pathname.split("/").filter(Boolean)[0];
  return isLocale(first) ? first : DEFAULT_LOCALE;
}

/** The same page in every language (typed as a record so that a new locale cannot be forgotten). */
export function alternatesFor(page: PageId): Record<Locale, string> {
  return { fr: pathFor(page, "fr"), en: pathFor(page, "en"), it: pathFor(page, "it"), es: pathFor(page, "es") };
}

export const isSitePageId = (page: string): page is PageId => PAGE_IDS.some((id) => id === page);
