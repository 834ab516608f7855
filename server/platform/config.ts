import * as v from "valibot";
import { BACKUP_ENV, BACKUP_UNSET_WARNING, backupTargetOf, type BackupTarget } from "./backup/settings";
import { ANY_PROXY_WARNING, TrustProxySetting, type TrustedProxies } from "./http/trusted-proxies";
import { availableParallelism } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { LegalIdentity } from "../../shared/legal";
import { endOfDayIn, SELLER_TIME_ZONE } from "../../shared/offer";

// The only module that reads process.env (STYLE.md). Every variable is validated at start-up; a bad
// value stops the server with a message that names the variable.

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
export const DEFAULT_RETENTION_DAYS = { leads: 365, chats: 90 } as const;

/** The specification's "more than 2,847 active users": a placeholder until the owner sets CLAIMED_USERS. */
export const PLACEHOLDER_CLAIMED_USERS = 2847;

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(["development", "production", "test"], "must be development, production or test"), "development"),
  PORT: port(3000),
  HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "0.0.0.0"),
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

  // Seller identity and legal pages (issue 12). Optional here; production refuses to start without
  // the required ones (productionProblems below), development shows a marked placeholder.
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
  LEAD_RETENTION_DAYS: positiveInt(DEFAULT_RETENTION_DAYS.leads, 3650),
  CHAT_RETENTION_DAYS: positiveInt(DEFAULT_RETENTION_DAYS.chats, 3650),
});

export type Env = v.InferOutput<typeof EnvSchema>;

export type ComparisonRow = {
  name: string;
  monthly: number | null;
  yearly: number | null;
  fiveYears: number;
  highlight?: boolean;
};

export type Testimonial = { name: string; city: string; rating: 5; initials: string };

export type Config = {
  env: Env["NODE_ENV"];
  port: number;
  host: string;
  dataDir: string;
  dbPath: string;
  publicBaseUrl: string;
  /** Whether forwarded headers are read at all; from whom is `trustedProxies`. */
  trustProxy: boolean;
  /** The reverse proxies whose X-Forwarded-For, X-Forwarded-Proto and X-Request-Id are believed. */
  trustedProxies: TrustedProxies;
  /** Continuous replication of the database (Litestream), or null when BACKUP_URL is unset. */
  backup: BackupTarget | null;
  /** The litestream binary, when LITESTREAM_PATH names one. */
  litestreamPath: string | undefined;
  logLevel: Env["LOG_LEVEL"];
  /** Server processes sharing the port (one per core); 1 serves from one process. */
  workers: number;
  site: {
    name: string;
    supportEmail: string;
    priceMinor: number;
    originalPriceMinor: number;
    currency: string;
    claimedUsers: number;
    testimonials: Testimonial[];
    comparison: ComparisonRow[];
    /**
     * When the early-bird offer ends: OFFER_ENDS_AT, or null until start-up reads the default from
     * the database (server/site/offer.ts). null shows no offer at all.
     */
    offerEndsAt: Date | null;
  };
  /** Seller identity, host and mediator for the legal pages; null where the owner has not set it. */
  legal: LegalIdentity;
  /** Days after which leads and chat transcripts are deleted (server/shop/privacy/retention.ts). */
  retention: { leadDays: number; chatDays: number };
  sqliteSynchronous: Env["SQLITE_SYNCHRONOUS"];
  /**
   * How long a request's write waits for a lock another connection holds (the owner's sqlite3, a
   * second server process) before the request is answered 503 with Retry-After. Other requests go
   * on meanwhile.
   */
  dbBusyWaitMs: number;
  ipHashSecret: string | undefined;
  stripe:
    | {
        secretKey: string;
        webhookSecret: string;
        priceId: string | undefined;
        promotionCodes: boolean;
        automaticTax: boolean;
      }
    | undefined;
  allowTestCheckout: boolean;
  anthropic: { apiKey: string; model: string; maxTokens: number; timeoutMs: number; baseUrl: string | undefined } | undefined;
  /** How many installations of the app one licence key may have at once. */
  licenseActivationLimit: number;
  mail: {
    /** SMTP through nodemailer; without it every message is written as a .eml file into `dir`. */
    smtpUrl: string | undefined;
    dir: string;
    from: string;
    ownerEmail: string | undefined;
    /** Right-hand side of the Message-IDs the site gives its messages. */
    domain: string;
  };
};

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

export type ConfigProblem = { variable: string; detail: string };

/** Production start-up refused: every setting still to fix, in one message, so one round fixes all. */
export class NotReadyForProductionError extends ConfigError {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems[0]?.variable ?? "environment", problems[0]?.detail ?? "");
    this.name = "NotReadyForProductionError";
    this.message = [
      `Not ready for production (NODE_ENV=production): ${problems.length} setting${problems.length === 1 ? "" : "s"} to fix before the site may start.`,
      ...problems.map((p) => `  - ${p.variable} ${p.detail}`),
    ].join("\n");
  }
}

// Owner content with the spec's values as defaults (DECISIONS.md, "Money and claims").
/**
 * The specification's invented reviews. Kept as the reference the production start-up compares
 * with (it warns while any of them is shown): replace TESTIMONIALS below, not this list.
 */
export const PLACEHOLDER_TESTIMONIALS: readonly Testimonial[] = [
  { name: "Sophie M.", city: "Lyon", rating: 5, initials: "SM" },
  { name: "Thomas B.", city: "Bordeaux", rating: 5, initials: "TB" },
  { name: "Julie R.", city: "Bruxelles", rating: 5, initials: "JR" },
  { name: "Marc D.", city: "Montréal", rating: 5, initials: "MD" },
];
/** The reviews the landing page shows: put real customers' here (their texts are testimonial1..4 in the locales). */
const TESTIMONIALS: Testimonial[] = [...PLACEHOLDER_TESTIMONIALS];

function comparisonRows(name: string, priceMinor: number): ComparisonRow[] {
  return [
    { name: "Netflix + Disney+", monthly: 2500, yearly: 30000, fiveYears: 150000 },
    { name: "IPTV", monthly: 1500, yearly: 18000, fiveYears: 90000 },
    { name, monthly: null, yearly: null, fiveYears: priceMinor, highlight: true },
  ];
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as in most .env tooling.
  const input = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = v.safeParse(EnvSchema, input);
  if (!result.success) {
    const issue = result.issues[0];
    const variable = v.getDotPath(issue) ?? "environment";
    throw new ConfigError(variable, issue.message);
  }
  const env = result.output;

  if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
    const missing = env.STRIPE_SECRET_KEY === undefined ? "STRIPE_SECRET_KEY" : "STRIPE_WEBHOOK_SECRET";
    throw new ConfigError(missing, "must be set together with the other Stripe key");
  }
  if (env.ORIGINAL_PRICE <= env.PRICE) {
    throw new ConfigError("ORIGINAL_PRICE", "must be higher than PRICE");
  }
  if (env.NODE_ENV === "production") {
    const problems = productionProblems(env);
    if (problems.length > 0) throw new NotReadyForProductionError(problems);
  }

  const dataDir = isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(process.cwd(), env.DATA_DIR);
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`;
  const domain = new URL(publicBaseUrl).hostname;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    dbPath: join(dataDir, "site.db"),
    publicBaseUrl,
    trustProxy: env.TRUST_PROXY.kind !== "none",
    trustedProxies: env.TRUST_PROXY,
    backup: backupTargetOf(env),
    litestreamPath: env.LITESTREAM_PATH,
    logLevel: env.LOG_LEVEL,
    workers: env.WORKERS ?? defaultWorkers(),
    site: {
      name: env.SITE_NAME,
      supportEmail: env.SUPPORT_EMAIL,
      priceMinor: env.PRICE,
      originalPriceMinor: env.ORIGINAL_PRICE,
      currency: env.CURRENCY,
      claimedUsers: env.CLAIMED_USERS,
      testimonials: TESTIMONIALS,
      comparison: comparisonRows(env.SITE_NAME, env.PRICE),
      offerEndsAt: env.OFFER_ENDS_AT ?? null,
    },
    legal: {
      sellerName: env.SELLER_NAME ?? null,
      sellerAddress: env.SELLER_ADDRESS ?? null,
      sellerRegistration: env.SELLER_REGISTRATION ?? null,
      sellerVatId: env.SELLER_VAT_ID ?? null,
      sellerPhone: env.SELLER_PHONE ?? null,
      publicationDirector: env.PUBLICATION_DIRECTOR ?? env.SELLER_NAME ?? null,
      hostingProvider: env.HOSTING_PROVIDER ?? null,
      mediatorName: env.MEDIATOR_NAME ?? null,
      mediatorUrl: env.MEDIATOR_URL ?? null,
    },
    retention: { leadDays: env.LEAD_RETENTION_DAYS, chatDays: env.CHAT_RETENTION_DAYS },
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    dbBusyWaitMs: env.DB_BUSY_WAIT_MS,
    ipHashSecret: env.IP_HASH_SECRET,
    stripe:
      env.STRIPE_SECRET_KEY !== undefined && env.STRIPE_WEBHOOK_SECRET !== undefined
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            priceId: env.STRIPE_PRICE_ID,
            promotionCodes: env.STRIPE_PROMOTION_CODES,
            automaticTax: env.STRIPE_AUTOMATIC_TAX,
          }
        : undefined,
    allowTestCheckout: env.ALLOW_TEST_CHECKOUT,
    anthropic:
      env.ANTHROPIC_API_KEY !== undefined
        ? {
            apiKey: env.ANTHROPIC_API_KEY,
            model: env.ANTHROPIC_MODEL,
            maxTokens: env.ANTHROPIC_MAX_TOKENS,
            timeoutMs: env.ANTHROPIC_TIMEOUT_MS,
            baseUrl: env.ANTHROPIC_BASE_URL,
          }
        : undefined,
    licenseActivationLimit: env.LICENSE_ACTIVATION_LIMIT,
    mail: {
      smtpUrl: env.SMTP_URL,
      dir: join(dataDir, "mail"),
      from: env.MAIL_FROM ?? `"${env.SITE_NAME.replace(/["\\]/g, "")}" <no-reply@${domain}>`,
      ownerEmail: env.OWNER_EMAIL,
      domain,
    },
  };
}

/**
 * One process per core, at most 8 (each holds the whole site in memory, and a small site does not
 * need more). Only on Linux: elsewhere the kernel does not spread connections between processes
 * that share a port (SO_REUSEPORT), so a second process would mostly sit idle.
 */
function defaultWorkers(): number {
  return process.platform === "linux" ? Math.min(8, availableParallelism()) : 1;
}

/** Domains reserved for examples (RFC 2606): an address there never reaches anyone. */
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;
const LOCAL_HOST = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])$/i;

/**
 * Everything a production site needs and this environment lacks (issue 12). A shop that takes real
 * money must say who sells (legal notice, terms of sale), name the consumer mediator (French
 * consumer code L612-1), be reachable by its buyers and link to its real address.
 */
function productionProblems(env: Env): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const missing = (variable: string, what: string) => problems.push({ variable, detail: `is not set: ${what}` });
  if (env.STRIPE_SECRET_KEY === undefined && !env.ALLOW_TEST_CHECKOUT) {
    problems.push({
      variable: "STRIPE_SECRET_KEY",
      detail: "is required in production; set ALLOW_TEST_CHECKOUT=true to run the built-in test checkout instead",
    });
  }
  if (env.STRIPE_SECRET_KEY !== undefined && /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY)) {
    // A test-mode key takes no money: a production site with it would "sell" for free.
    problems.push({
      variable: "STRIPE_SECRET_KEY",
      detail: "is a test-mode key (sk_test_…) but NODE_ENV is production: use the live key (sk_live_…)",
    });
  }
  if (env.STRIPE_SECRET_KEY !== undefined && env.SMTP_URL === undefined) {
    // Real buyers are promised their licence key by e-mail; .eml files in a folder would never reach them.
    problems.push({ variable: "SMTP_URL", detail: "is required in production with Stripe (buyers receive their access by e-mail)" });
  }
  // Canonical links, e-mails' links and Stripe's return address are built from it.
  if (env.PUBLIC_BASE_URL === undefined)
    missing("PUBLIC_BASE_URL", "the site's public address, such as https://shop.example.fr (links, e-mails, payment return)");
  else if (LOCAL_HOST.test(new URL(env.PUBLIC_BASE_URL).hostname)) {
    problems.push({
      variable: "PUBLIC_BASE_URL",
      detail: `points at this machine (${env.PUBLIC_BASE_URL}): set the site's public address, such as https://shop.example.fr`,
    });
  }
  if (EXAMPLE_DOMAIN.test(env.SUPPORT_EMAIL.split("@")[1] ?? "")) {
    problems.push({
      variable: "SUPPORT_EMAIL",
      detail: `is an example address (${env.SUPPORT_EMAIL}) that no one reads: set the address buyers write to`,
    });
  }
  if (env.SELLER_NAME === undefined) missing("SELLER_NAME", "the seller's legal name (legal notice, terms of sale)");
  if (env.SELLER_ADDRESS === undefined) missing("SELLER_ADDRESS", "the seller's postal address");
  if (env.SELLER_REGISTRATION === undefined) missing("SELLER_REGISTRATION", "the company register number (RCS, SIREN...)");
  if (env.HOSTING_PROVIDER === undefined) missing("HOSTING_PROVIDER", "the host's name, address and phone number (legal notice)");
  if (env.MEDIATOR_NAME === undefined) missing("MEDIATOR_NAME", "the consumer mediator buyers may turn to (terms of sale)");
  if (env.MEDIATOR_URL === undefined) missing("MEDIATOR_URL", "the consumer mediator's website");
  return problems;
}

/**
 * Owner content still at the specification's placeholder values: allowed, but each gets one log
 * line at production start-up (presenting invented reviews or user counts as real is unlawful).
 */
export function startupWarnings(config: Config): string[] {
  const everywhere = config.trustedProxies.kind === "any" ? [ANY_PROXY_WARNING] : [];
  if (config.env !== "production") return everywhere;
  const warnings: string[] = [...everywhere];
  if (config.backup === null) warnings.push(BACKUP_UNSET_WARNING);
  const placeholder = config.site.testimonials.filter((t) => PLACEHOLDER_TESTIMONIALS.some((p) => p.name === t.name && p.city === t.city));
  if (placeholder.length > 0) {
    warnings.push(
      `The landing page shows ${placeholder.length} placeholder testimonial(s) from the specification (${placeholder.map((t) => t.name).join(", ")}): replace them with real customers' reviews (server/platform/config.ts, testimonial1..4 in locales/*.json).`,
    );
  }
  if (config.site.claimedUsers === PLACEHOLDER_CLAIMED_USERS) {
    warnings.push(`CLAIMED_USERS is the specification's placeholder (${PLACEHOLDER_CLAIMED_USERS}): set your real number of active users.`);
  }
  return warnings;
}

/** A config for tests: defaults plus overrides, with a throwaway data directory. */
export function testConfig(overrides: Record<string, string> = {}, dataDir?: string): Config {
  return loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir ?? "/tmp/unused", ...overrides });
}
