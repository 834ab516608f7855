import * as v from "valibot";
import { availableParallelism } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

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

const Email = v.pipe(v.string(), v.email());
/** The address part of `Name <address>` (or the whole text when there are no angle brackets). */
function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from;
}

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(["development", "production", "test"], "must be development, production or test"), "development"),
  PORT: port(3000),
  HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "0.0.0.0"),
  DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "./data"),
  PUBLIC_BASE_URL: v.optional(url),
  TRUST_PROXY: bool(false),
  LOG_LEVEL: v.optional(v.picklist(["debug", "info", "warn", "error", "silent"], "must be debug, info, warn, error or silent"), "info"),
  WORKERS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, "must be a whole number from 1 to 64"), v.transform(Number), v.minValue(1, "must be at least 1 (1: one process)"), v.maxValue(64, "must be at most 64"))),

  SITE_NAME: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(60, "must be at most 60 characters")), "Lifetime Stream"),
  SUPPORT_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.email("must be an e-mail address")), "support@example.com"),
  PRICE: money("29.99"),
  ORIGINAL_PRICE: money("99"),
  CURRENCY: v.optional(v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, "must be a three-letter currency code such as EUR")), "EUR"),
  CLAIMED_USERS: positiveInt(2847),

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
  trustProxy: boolean;
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
  };
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
  anthropic:
    | { apiKey: string; model: string; maxTokens: number; timeoutMs: number; baseUrl: string | undefined }
    | undefined;
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
  constructor(readonly variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

// Owner content with the spec's values as defaults (DECISIONS.md, "Money and claims").
const TESTIMONIALS: Testimonial[] = [
  { name: "Sophie M.", city: "Lyon", rating: 5, initials: "SM" },
  { name: "Thomas B.", city: "Bordeaux", rating: 5, initials: "TB" },
  { name: "Julie R.", city: "Bruxelles", rating: 5, initials: "JR" },
  { name: "Marc D.", city: "Montréal", rating: 5, initials: "MD" },
];

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
  if (env.NODE_ENV === "production" && env.STRIPE_SECRET_KEY === undefined && !env.ALLOW_TEST_CHECKOUT) {
    throw new ConfigError(
      "STRIPE_SECRET_KEY",
      "is required in production; set ALLOW_TEST_CHECKOUT=true to run the built-in test checkout instead",
    );
  }
  if (env.NODE_ENV === "production" && env.STRIPE_SECRET_KEY !== undefined && /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY)) {
    // A test-mode key takes no money: a production site with it would "sell" for free.
    throw new ConfigError("STRIPE_SECRET_KEY", "is a test-mode key (sk_test_…) but NODE_ENV is production: use the live key (sk_live_…)");
  }
  if (env.NODE_ENV === "production" && env.STRIPE_SECRET_KEY !== undefined && env.PUBLIC_BASE_URL === undefined) {
    // Stripe sends buyers back to PUBLIC_BASE_URL; localhost would strand them after paying.
    throw new ConfigError("PUBLIC_BASE_URL", "is required in production with Stripe (the payment pages return to it)");
  }
  if (env.NODE_ENV === "production" && env.STRIPE_SECRET_KEY !== undefined && env.SMTP_URL === undefined) {
    // Real buyers are promised their licence key by e-mail; .eml files in a folder would never reach them.
    throw new ConfigError("SMTP_URL", "is required in production with Stripe (buyers receive their access by e-mail)");
  }
  if (env.ORIGINAL_PRICE <= env.PRICE) {
    throw new ConfigError("ORIGINAL_PRICE", "must be higher than PRICE");
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
    trustProxy: env.TRUST_PROXY,
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
    },
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

/** A config for tests: defaults plus overrides, with a throwaway data directory. */
export function testConfig(overrides: Record<string, string> = {}, dataDir?: string): Config {
  return loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir ?? "/tmp/unused", ...overrides });
}
