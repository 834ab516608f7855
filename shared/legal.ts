import { LOCALE_TAGS, type Locale } from "./locales";
import type { VatScheme } from "./vat-scheme";

// The legal pages' facts: who sells, who hosts, who mediates, and what the running
// system really does with personal data. Built on the server from configuration and sent to the
// three legal pages as data; the texts themselves are templates in locales/*.json.

/** The owner's identity settings; null where not set (development shows a marked placeholder). */
export type LegalIdentity = {
  sellerName: string | null;
  sellerAddress: string | null;
  sellerRegistration: string | null;
  sellerVatId: string | null;
  sellerPhone: string | null;
  publicationDirector: string | null;
  hostingProvider: string | null;
  mediatorName: string | null;
  mediatorUrl: string | null;
};

/**
 * The version of the terms of sale a buyer accepts, stored on their order with the time of consent.
 * Change it whenever the terms' texts change (test/shared/terms-version.test.ts fails until then),
 * so that an order always names the text its buyer saw; git history keeps each version.
 */
export const TERMS_VERSION = "2026-11-28";

/** The terms of sale's sections after the seller's, in their order (the page and the PDF of the accepted terms). */
export const TERMS_SECTIONS = [
  "product",
  "price",
  "payment",
  "delivery",
  "licence",
  "withdrawal",
  "guarantee",
  "conformity",
  "complaints",
  "law",
] as const;

export type LegalFacts = {
  identity: LegalIdentity;
  termsVersion: string;
  /** The version's date as the page's language writes it ("22 novembre 2026"). */
  termsVersionDate: string;
  /** Devices one licence key may be active on (LICENSE_ACTIVATION_LIMIT). */
  activationLimit: number;
  retention: { leadDays: number; chatDays: number; analyticsDays: number };
  /** Who takes the card payment: Stripe, or the built-in test checkout (no real payment). */
  payment: "stripe" | "test";
  /** Who answers the chat: Claude (Anthropic) or the assistant running on the site's own server. */
  chat: "claude" | "offline";
  /** Whether the questions the assistant could not answer are e-mailed to the owner (the digest e-mail). */
  chatDigest: boolean;
  /** Whether e-mail leaves through an SMTP provider (otherwise files on the site's own server). */
  smtp: boolean;
  /**
   * Where the continuous backup copy of the database goes (BACKUP_URL): an online storage service,
   * named by its address, or a second disk (`storage` null); null without backups.
   */
  backup: { storage: string | null } | null;
  /** How VAT is charged (VAT_SCHEME): the terms' price section says it. */
  vatScheme: VatScheme;
};

/** "2026-11-22" as a date in the language ("22 novembre 2026"); the text itself if it is no date. */
export function formatTermsVersion(version: string, locale: Locale): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(version) ? new Date(`${version}T12:00:00Z`) : null;
  if (day === null || Number.isNaN(day.getTime())) return version;
  let format = termsDateFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
    termsDateFormats.set(locale, format);
  }
  return format.format(day);
}

// One per language: making a DateTimeFormat costs far more than formatting with it.
const termsDateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** Which identity fields production requires; the pages mark them "to be completed" while unset. */
export const REQUIRED_IDENTITY = [
  "sellerName",
  "sellerAddress",
  "sellerRegistration",
  "hostingProvider",
  "mediatorName",
  "mediatorUrl",
] as const;

export function identityIncomplete(identity: LegalIdentity): boolean {
  return REQUIRED_IDENTITY.some((field) => identity[field] === null);
}
