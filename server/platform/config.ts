import { availableParallelism } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import * as v from "valibot";
import type { LegalIdentity } from "../../shared/legal";
import type { SiteSettings } from "../../shared/site-facts";
import type { VatScheme } from "../../shared/vat-scheme";
import { type BackupTarget, backupTargetOf } from "./backup/settings";
import { ConfigError, NotReadyForProductionError } from "./config-error";
import { type Env, EnvSchema } from "./env";
import type { TrustedProxies } from "./http/trusted-proxies";
import { missingSellerIdentity, productionProblems } from "./production-readiness";
import { httpsBaseUrl, type TlsSettings, tlsSettingsOf } from "./tls/settings";

// The only module that reads process.env: the environment (server/platform/env.ts) turned into the
// configuration every part of the site is given.

export type Config = {
  env: Env["NODE_ENV"];
  port: number;
  host: string;
  dataDir: string;
  dbPath: string;
  publicBaseUrl: string;
  /** HTTPS served by this program with certificates over ACME (DOMAIN), or null: plain HTTP on `port`. */
  tls: TlsSettings | null;
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
  /** Whether the first process renders every static page as it starts (false: each at its first request). */
  pagesAtStart: boolean;
  /**
   * What the environment says of the site besides the owner's content (support address, refund
   * mode, VAT, development samples). The product's name, price, offer, texts and FAQ are the
   * published content (server/site/content/), read from the database.
   */
  site: SiteSettings;
  /**
   * The content variables still set in the environment (SITE_NAME, PRICE, CURRENCY, CLAIMED_USERS,
   * OFFER_ENDS_AT, ORIGINAL_PRICE): they seed the content once, at the first start of the version
   * that moved them to the console, and are ignored (with a warning) afterwards.
   */
  contentSeed: ContentSeed;
  /** Seller identity, host and mediator for the legal pages; null where the owner has not set it. */
  legal: LegalIdentity;
  /** The seller-identity variables (production-readiness.ts) not set here: production refuses to start without them. */
  sellerIdentityMissing: string[];
  /** How VAT is charged on each sale and shown on invoices (VAT_SCHEME; development: fr). */
  vatScheme: VatScheme;
  /** The seller's VAT numbers outside the EU by country (VAT_REGISTRATIONS): `{ GB: "GB123456789" }`. */
  vatRegistrations: Readonly<Record<string, string>>;
  /** Days after which leads and chat transcripts are deleted (server/shop/privacy/retention.ts). */
  retention: { leadDays: number; chatDays: number; analyticsDays: number };
  /** Rows of audience counting one UTC day may store; past it the day's beacons are refused (ANALYTICS_MAX_EVENTS_PER_DAY). */
  analyticsMaxEventsPerDay: number;
  /**
   * The owner's digest e-mail (server/owner/digest/): the day before, each morning at `hour` (Paris
   * time), or the week before on `weekday` (1 Monday to 7 Sunday); sent only with an OWNER_EMAIL.
   */
  digest: { frequency: Env["DIGEST"]; hour: number; weekday: number };
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
        /** STRIPE_API_BASE: another server speaking Stripe's API (tests, demonstrations; refused in production). */
        apiBase: string | undefined;
      }
    | undefined;
  allowTestCheckout: boolean;
  anthropic: { apiKey: string; model: string; maxTokens: number; timeoutMs: number; baseUrl: string | undefined } | undefined;
  /** How many installations of the app one licence key may have at once. */
  licenseActivationLimit: number;
  /** Days after a paid order before its review invitation (0: at the first check after the first activation). */
  reviewInviteDays: number;
  /** How long a signed licence token stays valid offline (the app renews it when online). */
  licenseTokenDays: number;
  mail: {
    /** SMTP through nodemailer; without it every message is written as a .eml file into `dir`. */
    smtpUrl: string | undefined;
    dir: string;
    /** MAIL_FROM; unset: `"<product name>" <no-reply@domain>`. */
    from: string | undefined;
    ownerEmail: string | undefined;
    /** Right-hand side of the Message-IDs the site gives its messages. */
    domain: string;
  };
};

/** The content variables set in the environment, each undefined when not set (Config.contentSeed). */
export type ContentSeed = {
  productName: string | undefined;
  priceMinor: number | undefined;
  originalPriceMinor: number | undefined;
  currency: string | undefined;
  claimedUsers: number | undefined;
  offerEndsAt: Date | undefined;
};

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
  if (env.NODE_ENV === "production") {
    const problems = productionProblems(env);
    if (problems.length > 0) throw new NotReadyForProductionError(problems);
  }

  const dataDir = isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(process.cwd(), env.DATA_DIR);
  const tls = tlsSettingsOf(env, dataDir);
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? (tls !== null ? httpsBaseUrl(tls) : `http://localhost:${env.PORT}`);
  const domain = new URL(publicBaseUrl).hostname;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    // Serving HTTPS itself, the server faces the internet: every address unless HOST says otherwise.
    host: env.HOST ?? (tls !== null ? "0.0.0.0" : defaultHost()),
    dataDir,
    dbPath: join(dataDir, "site.db"),
    publicBaseUrl,
    tls,
    trustProxy: env.TRUST_PROXY.kind !== "none",
    trustedProxies: env.TRUST_PROXY,
    backup: backupTargetOf(env),
    litestreamPath: env.LITESTREAM_PATH,
    logLevel: env.LOG_LEVEL,
    workers: env.WORKERS ?? defaultWorkers(),
    pagesAtStart: env.PAGES_AT_START,
    site: {
      supportEmail: env.SUPPORT_EMAIL,
      showPlaceholders: env.NODE_ENV !== "production",
      refundMode: env.REFUND_MODE,
      vat: (env.VAT_SCHEME ?? "fr") === "franchise" ? "none" : "included",
      // Production without Stripe runs the test checkout only when allowed (productionProblems).
      testCheckout: env.NODE_ENV === "production" && env.STRIPE_SECRET_KEY === undefined,
      deviceLimit: env.LICENSE_ACTIVATION_LIMIT,
    },
    contentSeed: {
      productName: input.SITE_NAME !== undefined ? env.SITE_NAME : undefined,
      priceMinor: input.PRICE !== undefined ? env.PRICE : undefined,
      originalPriceMinor: input.ORIGINAL_PRICE !== undefined ? env.ORIGINAL_PRICE : undefined,
      currency: input.CURRENCY !== undefined ? env.CURRENCY : undefined,
      claimedUsers: input.CLAIMED_USERS !== undefined ? env.CLAIMED_USERS : undefined,
      offerEndsAt: env.OFFER_ENDS_AT,
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
    sellerIdentityMissing: missingSellerIdentity(env),
    vatScheme: env.VAT_SCHEME ?? "fr",
    vatRegistrations: vatRegistrationsOf(env.VAT_REGISTRATIONS),
    retention: { leadDays: env.LEAD_RETENTION_DAYS, chatDays: env.CHAT_RETENTION_DAYS, analyticsDays: env.ANALYTICS_RETENTION_DAYS },
    analyticsMaxEventsPerDay: env.ANALYTICS_MAX_EVENTS_PER_DAY,
    digest: { frequency: env.DIGEST, hour: env.DIGEST_HOUR, weekday: env.DIGEST_WEEKDAY },
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
            apiBase: env.STRIPE_API_BASE,
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
    reviewInviteDays: env.REVIEW_INVITE_DAYS,
    licenseTokenDays: env.LICENSE_TOKEN_DAYS,
    mail: {
      smtpUrl: env.SMTP_URL,
      dir: join(dataDir, "mail"),
      // Without MAIL_FROM, the mail goes from no-reply@ the site's domain, named after the product
      // (published content: server/shop/mail/compose.tsx).
      from: env.MAIL_FROM,
      ownerEmail: env.OWNER_EMAIL,
      domain,
    },
  };
}

/**
 * Loopback alone: the plain-HTTP port sits behind a reverse proxy or a CDN on the same machine, and
 * the console with it must not be reachable from the world by its address and port. An owner who
 * serves straight from this port (a proxy on another machine, a container) sets HOST=0.0.0.0.
 */
export const DEFAULT_HOST = "127.0.0.1";

function defaultHost(): string {
  return DEFAULT_HOST;
}

/**
 * One process per core, at most 8 (each holds the whole site in memory, and a small site does not
 * need more). Only on Linux: elsewhere the kernel does not spread connections between processes
 * that share a port (SO_REUSEPORT), so a second process would mostly sit idle.
 */
function defaultWorkers(): number {
  return process.platform === "linux" ? Math.min(8, availableParallelism()) : 1;
}

/** `GB:GB123456789,CH:CHE-123.456.789` as a map (the format is checked by the schema). */
function vatRegistrationsOf(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of value?.split(",") ?? []) {
    const [country, ...number] = item.trim().split(":");
    if (country !== undefined && number.length > 0) out[country] = number.join(":").trim();
  }
  return out;
}
