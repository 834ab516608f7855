import type { Locale } from "./locales";
import { formatCount, formatMoney } from "./price";

// The owner's content with every amount already formatted for one language. Built on the server
// and sent to the browser as data, so that server and client render the same characters (Intl
// output differs between runtimes) and so that only this public subset of configuration leaves the
// server.

export type SiteContent = {
  name: string;
  supportEmail: string;
  priceMinor: number;
  originalPriceMinor: number;
  currency: string;
  claimedUsers: number;
  testimonials: { name: string; city: string; rating: number; initials: string }[];
  comparison: { name: string; monthly: number | null; yearly: number | null; fiveYears: number; highlight?: boolean }[];
};

export type SiteFacts = {
  siteName: string;
  supportEmail: string;
  price: string;
  oldPrice: string;
  saving: string;
  users: string;
  year: number;
  testimonials: { name: string; city: string; rating: number; initials: string }[];
  comparison: { name: string; monthly: string | null; yearly: string | null; fiveYears: string; highlight: boolean }[];
};

/**
 * The largest five-year saving against the comparison rows (DECISIONS.md: computed, not claimed),
 * rounded down to whole units since the text says "up to".
 */
export function maxSavingMinor(site: SiteContent): number {
  const others = site.comparison.filter((r) => !r.highlight).map((r) => r.fiveYears);
  const best = Math.max(0, ...others.map((total) => total - site.priceMinor));
  return Math.floor(best / 100) * 100;
}

export function buildSiteFacts(site: SiteContent, locale: Locale, now = new Date()): SiteFacts {
  const money = (minor: number) => formatMoney(minor, site.currency, locale);
  return {
    siteName: site.name,
    supportEmail: site.supportEmail,
    price: money(site.priceMinor),
    oldPrice: money(site.originalPriceMinor),
    saving: money(maxSavingMinor(site)),
    users: formatCount(site.claimedUsers, locale),
    year: now.getUTCFullYear(),
    testimonials: site.testimonials,
    comparison: site.comparison.map((r) => ({
      name: r.name,
      monthly: r.monthly === null ? null : money(r.monthly),
      yearly: r.yearly === null ? null : money(r.yearly),
      fiveYears: money(r.fiveYears),
      highlight: r.highlight === true,
    })),
  };
}
