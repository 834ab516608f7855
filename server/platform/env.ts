import { BACKUP_ENV } from "./backup/settings";
import { TrustProxySetting } from "./http/trusted-proxies";
import * as v from "valibot";
import { endOfDayIn, SELLER_TIME_ZONE } from "../../shared/offer";
import { PLACEHOLDER_CLAIMED_USERS } from "../site/owner-content";
import { VAT_SCHEMES } from "../../shared/vat-scheme";

// The environment the site reads, as one valibot schema: every variable is checked at start-up and
// a bad value stops the server with a message that names the variable (server/platform/config.ts).

const port = (fallback: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, "must be a whole number between 0 and 65535"),
      v.transform(Number),
      v.maxValue(65535, "must be a whole number between 0 and 65535"),
    ),
    String(fallback),
  );

const positiveInt = (fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "must be a positive whole number"),
      v.transform(Number),
      v.minValue(1, "must be at least 1"),
      v.maxValue(max, `must be at most ${max}`),
    ),
    String(fallback),
  );

/** A price like "29.99" or "29,99" in major units, stored as minor units (cents). */
const money = (fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,6}([.,]\d{1,2})?$/, "must be an amount such as 29.99"),
      v.transform((s) => Math.round(Number(s.replace(",", ".")) * 100)),
      v.minValue(50, "must be at least 0.50"),
    ),
    fallback,
  );

const bool = (fallback: boolean) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(["1", "0", "true", "false", "yes", "no", "on", "off"], "must be true or false"),
      v.transform((s) => ["1", "true", "yes", "on"].includes(s)),
    ),
    String(fallback),
  );

const secret = (prefixes: string[]) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((s) => prefixes.some((p) => s.startsWith(p)), `must start with ${prefixes.join(" or ")}`),
    ),
  );

const url = v.pipe(
  v.string(),
  v.trim(),
  v.url("must be an absolute URL such as https://example.com"),
  v.check((s) => /^https?:\/\//.test(s), "must start with http:// or https://"),
  v.transform((s) => s.replace(/\/+$/, "")),
);

/** Owner text shown on the legal pages (a name, an address...): one line or a few, never empty. */
const ownerText = (max: number) =>
  v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"), v.maxLength(max, `must be at most ${max} characters`)));

/**
 * OFFER_ENDS_AT: a day (`2026-12-31`: the offer runs through that whole day, seller's time zone)
 * or an instant with its zone (`2026-12-31T18:00:00+01:00`).
 */
const offerEnd = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/,
      "must be a date such as 2026-12-31 or 2026-12-31T18:00:00+01:00",
    ),
    v.check((s) => {
      const day = s.slice(0, 10);
      // Date.parse accepts 2026-02-30 (as 2 March): the day must survive the round trip.
      return !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
    }, "must be a real calendar date such as 2026-12-31"),
    v.transform((s) => (s.length === 10 ? endOfDayIn(SELLER_TIME_ZONE, s) : new Date(s))),
  ),
);

const Email = v.pipe(v.string(), v.email());
/** The address part of `Name <address>` (or the whole text when there are no angle brackets). */
function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from;
}

/**
 * How long leads and chat transcripts are kept (the privacy page states it). A lead asked for one
 * demo e-mail: a year lets the owner see who was interested and answer a late question. A chat is
 * a support exchange: three months covers a follow-up and the 7-day guarantee many times over.
 */
/** How often the owner's digest e-mail goes out. */
export const DIGEST_FREQUENCIES = ["daily", "weekly", "off"] as const;
/** The days of the week DIGEST_WEEKDAY accepts, Monday first (ISO 8601). */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

export const DEFAULT_RETENTION_DAYS = { leads: 365, chats: 90, analytics: 30 } as const;
/**
 * About 40,000 page views a day (a page view is a row, its speed measures three more): far above
 * what the shop sees, and at most 90 MB a day of rows even when every field is as long as allowed
 * (450 bytes a row), so 31 days of it at the default retention stay under 3 GB.
 */
export const DEFAULT_ANALYTICS_MAX_EVENTS_PER_DAY = 200_000;

export const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(["development", "production", "test"], "must be development, production or test"), "development"),
  PORT: port(3000),
  // No default here: config.ts chooses it (loopback alone unless the owner says otherwise).
  HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"))),
  DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "./data"),
  PUBLIC_BASE_URL: v.optional(url),
  TRUST_PROXY: TrustProxySetting,
  ...BACKUP_ENV,
  LOG_LEVEL: v.optional(v.picklist(["debug", "info", "warn", "error", "silent"], "must be debug, info, warn, error or silent"), "info"),
  WORKERS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "must be a whole number from 1 to 64"),
      v.transform(Number),
      v.minValue(1, "must be at least 1 (1: one process)"),
      v.maxValue(64, "must be at most 64"),
    ),
  ),

  SITE_NAME: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(60, "must be at most 60 characters")),
    "Lifetime Stream",
  ),
  SUPPORT_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.email("must be an e-mail address")), "support@example.com"),
  PRICE: money("29.99"),
  ORIGINAL_PRICE: money("99"),
  CURRENCY: v.optional(
    v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, "must be a three-letter currency code such as EUR")),
    "EUR",
  ),
  CLAIMED_USERS: positiveInt(PLACEHOLDER_CLAIMED_USERS),

  SQLITE_SYNCHRONOUS: v.optional(v.picklist(["NORMAL", "FULL"], "must be NORMAL or FULL"), "FULL"),
  DB_BUSY_WAIT_MS: positiveInt(5000, 60000),
  IP_HASH_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, "must be at least 16 characters"))),

  STRIPE_SECRET_KEY: secret(["sk_", "rk_"]),
  STRIPE_WEBHOOK_SECRET: secret(["whsec_"]),
  STRIPE_PRICE_ID: v.optional(v.pipe(v.string(), v.trim(), v.startsWith("price_", "must start with price_"))),
  STRIPE_PROMOTION_CODES: bool(false),
  STRIPE_AUTOMATIC_TAX: bool(false),
  ALLOW_TEST_CHECKOUT: bool(false),

  ANTHROPIC_API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.minLength(10, "must be an API key"))),
  ANTHROPIC_MODEL: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "claude-haiku-4-5"),
  ANTHROPIC_MAX_TOKENS: positiveInt(600, 4096),
  ANTHROPIC_TIMEOUT_MS: positiveInt(20000, 120000),
  ANTHROPIC_BASE_URL: v.optional(url),

  SMTP_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.url("must be a URL such as smtp://user:pass@mail.example.com:587"),
      v.check((s) => /^smtps?:\/\//.test(s), "must start with smtp:// or smtps://"),
      v.check((s) => URL.canParse(s) && new URL(s).hostname !== "", "must name the mail server: smtp://mail.example.com:587"),
    ),
  ),
  MAIL_FROM: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((s) => v.is(Email, addressOf(s)), "must be an e-mail address, optionally with a name: Shop <shop@example.com>"),
    ),
  ),
  OWNER_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.email("must be an e-mail address"))),
  LICENSE_ACTIVATION_LIMIT: positiveInt(5, 1000),
  LICENSE_TOKEN_DAYS: positiveInt(14, 365),
  REFUND_MODE: v.optional(v.picklist(["auto", "request"], "must be auto or request"), "auto"),

  // Seller identity and legal pages. Optional here; production refuses to start without the
  // required ones (server/platform/production-readiness.ts), development shows a marked placeholder.
  SELLER_NAME: ownerText(120),
  SELLER_ADDRESS: ownerText(300),
  SELLER_REGISTRATION: ownerText(200),
  SELLER_VAT_ID: ownerText(40),
  SELLER_PHONE: ownerText(40),
  PUBLICATION_DIRECTOR: ownerText(120),
  HOSTING_PROVIDER: ownerText(300),
  MEDIATOR_NAME: ownerText(200),
  MEDIATOR_URL: v.optional(url),
  OFFER_ENDS_AT: offerEnd,
  // How VAT is charged and shown on invoices (server/shop/paperwork/vat.ts). Production requires the
  // owner to choose (production-readiness.ts); development defaults to French VAT.
  VAT_SCHEME: v.optional(v.picklist(VAT_SCHEMES, `must be one of ${VAT_SCHEMES.join(", ")}`)),
  LEAD_RETENTION_DAYS: positiveInt(DEFAULT_RETENTION_DAYS.leads, 3650),
  CHAT_RETENTION_DAYS: positiveInt(DEFAULT_RETENTION_DAYS.chats, 3650),
  ANALYTICS_RETENTION_DAYS: positiveInt(DEFAULT_RETENTION_DAYS.analytics, 3650),
  // Rows of page views, events and speed measures one UTC day may store (server/shop/analytics/ingest.ts).
  ANALYTICS_MAX_EVENTS_PER_DAY: positiveInt(DEFAULT_ANALYTICS_MAX_EVENTS_PER_DAY, 100_000_000),
  // The owner's digest e-mail (server/owner/digest/): sent to OWNER_EMAIL, so nothing without it.
  DIGEST: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(DIGEST_FREQUENCIES, "must be daily, weekly or off")),
    "daily",
  ),
  DIGEST_HOUR: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,2}$/, "must be an hour from 0 to 23 (Paris time)"),
      v.transform(Number),
      v.maxValue(23, "must be an hour from 0 to 23 (Paris time)"),
    ),
    "7",
  ),
  DIGEST_WEEKDAY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(WEEKDAYS, `must be a day of the week in English: ${WEEKDAYS.join(", ")}`),
      // 1 for Monday to 7 for Sunday, as ISO 8601 numbers them.
      v.transform((day) => WEEKDAYS.indexOf(day) + 1),
    ),
    "monday",
  ),
});

export type Env = v.InferOutput<typeof EnvSchema>;
