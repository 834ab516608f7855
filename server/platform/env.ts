import * as v from "valibot";
import { endOfDayIn, SELLER_TIME_ZONE } from "../../shared/offer";
import { PLACEHOLDER_CLAIMED_USERS } from "../../shared/site-facts";
import { VAT_SCHEMES } from "../../shared/vat-scheme";
import { BACKUP_ENV } from "./backup/settings";
import { documented } from "./env-doc";
import { TrustProxySetting } from "./http/trusted-proxies";

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

const nonNegativeInt = (fallback: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "must be a whole number, 0 or more"),
      v.transform(Number),
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
/** A DNS name with at least one dot, as certificate authorities issue for (no wildcard: http-01 cannot prove one). */
const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
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

// Each variable carries what the owner reads about it (env-doc.ts): docs/owner/configuration.md is
// written from it by `npm run docs:config`. A new variable is documented here, with its section.
export const EnvSchema = v.object({
  NODE_ENV: documented(
    v.optional(v.picklist(["development", "production", "test"], "must be development, production or test"), "development"),
    {
      section: "The server",
      description:
        "`production` refuses to start, listing everything missing at once: each variable marked **Required in production** here (see [Legal pages](legal.md)). It also logs one warning each for what the published content still lacks (the product's description, an FAQ entry of yours, the catalogue, no review yet, no launch offer), and for an unset `BACKUP_URL`. Outside production the pages show the development samples, marked as such (reviews, the struck-through 99 €), and `development` (the default) also shows sample purchases in the recent-purchases notice while there is no real one; `test` is what the test suite runs with.",
    },
  ),
  PORT: documented(port(3000), { section: "The server", description: "HTTP port." }),
  // No default here: config.ts chooses it (loopback alone unless the owner says otherwise).
  HOST: documented(v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"))), {
    section: "The server",
    default: "`127.0.0.1`; with `DOMAIN`, every address (`0.0.0.0`)",
    description:
      "Address to listen on. The default answers only this machine (a reverse proxy or CDN on the same host reaches it); `0.0.0.0` (or `::`) listens on every address. The start-up line names the address really listened on.",
  }),
  DOMAIN: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.transform((s) =>
          s
            .split(",")
            .map((name) => name.trim())
            .filter((name) => name !== ""),
        ),
        v.minLength(1, "must name at least one domain: shop.example.com"),
        v.maxLength(20, "must name at most 20 domains"),
        v.check(
          (names) => names.every((name) => DOMAIN_NAME.test(name)),
          "must be domain names separated by commas, such as shop.example.com,www.shop.example.com",
        ),
      ),
    ),
    {
      section: "The server",
      default: "unset: plain HTTP on `PORT`, for a reverse proxy or a CDN",
      description:
        "Serve HTTPS by itself for these names (`shop.example.com`, or several separated by commas; each must point at this machine in DNS): listen on `HTTPS_PORT` and `HTTP_PORT` (443 and 80) instead of `PORT`, get a certificate from Let's Encrypt (`ACME_DIRECTORY`) and renew it 30 days before it expires, keep it in `DATA_DIR/tls/`, redirect HTTP to HTTPS and send HSTS. `HOST` then defaults to every address and `PUBLIC_BASE_URL` to `https://` and the first name. See [HTTPS by itself](deploy.md#https-by-itself).",
    },
  ),
  HTTPS_PORT: documented(port(443), {
    section: "The server",
    description: "With `DOMAIN`: the HTTPS port (another one where 443 is taken; visitors then give it in the address).",
  }),
  HTTP_PORT: documented(port(80), {
    section: "The server",
    description:
      "With `DOMAIN`: the plain-HTTP port, which answers the certificate authority's `http-01` challenge and redirects everything else to HTTPS. Let's Encrypt checks on port 80 only: another port needs port 80 forwarded to it.",
  }),
  ACME_DIRECTORY: documented(v.optional(url, "https://acme-v02.api.letsencrypt.org/directory"), {
    section: "The server",
    description:
      "With `DOMAIN`: the ACME directory of the certificate authority (Let's Encrypt by default; its staging directory `https://acme-staging-v02.api.letsencrypt.org/directory` for a trial, or another CA speaking ACME). The account's contact is `OWNER_EMAIL`.",
  }),
  ACME_CA_FILE: documented(v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty"))), {
    section: "The server",
    default: "the system's trusted authorities",
    description:
      "With `DOMAIN`: a PEM file of the certificate authority to trust for the ACME directory's own HTTPS (a private CA, a test server such as Pebble). Used for the calls to the ACME directory only.",
  }),
  DATA_DIR: documented(v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "./data"), {
    section: "Data, privacy and audience",
    description:
      "Folder of the SQLite file (`site.db`), the rate limits' counters (`rate-limits.db`), the generated IP-hash secret, the licence signing keys (`license-keys/`), the e-mails written as files (`mail/`) and the pages the executable rendered (`pages-cache.bin`, made again when missing). A relative path is taken from where the server starts. See [Your data](data.md).",
  }),
  PUBLIC_BASE_URL: documented(v.optional(url), {
    section: "The server",
    default: "`http://localhost:PORT`",
    requiredInProduction: "yes, and not this machine (`localhost`, `127.0.0.1`)",
    description:
      "The site's public address (`https://shop.example.fr`), for canonical links, Open Graph, e-mails' links and payment return URLs. To try production on your own computer, see [Trying production on your own computer](deploy.md#trying-production-on-your-own-computer).",
  }),
  TRUST_PROXY: documented(TrustProxySetting, {
    section: "The server",
    description:
      "The reverse proxy's addresses or ranges (`127.0.0.1`, `10.0.0.0/8`, a comma list, IPv4 or IPv6): from them only, trust `X-Forwarded-For` (client IP for rate limits), `X-Forwarded-Proto` (HSTS) and `X-Request-Id` (the log's request id). `true` trusts every peer (warned at start-up). See [Behind a reverse proxy](deploy.md#behind-a-reverse-proxy).",
  }),
  ...BACKUP_ENV,
  LOG_LEVEL: documented(
    v.optional(v.picklist(["debug", "info", "warn", "error", "silent"], "must be debug, info, warn, error or silent"), "info"),
    {
      section: "The server",
      description:
        "`debug`, `info`, `warn`, `error` or `silent`. The log goes to standard output, one JSON object per line (`level`, `time`, `msg`, then fields), with one `request` line per request (`method`, `path`, `status`, `ms`, `requestId`, the id also sent back as `X-Request-Id`). E-mail addresses show masked (`j***@example.com`); keys, passwords and licence keys never show, nor any capability: the console invite in `/admin/invite/…` and the test card page's checkout id show as `[redacted]`, and so does any other path segment that looks like a token (24 or more letters and digits); the query string is never logged, and a checkout id anywhere in a line keeps only its first four characters (`cs_live_a1B2…`).",
    },
  ),
  WORKERS: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, "must be a whole number from 1 to 64"),
        v.transform(Number),
        v.minValue(1, "must be at least 1 (1: one process)"),
        v.maxValue(64, "must be at most 64"),
      ),
    ),
    {
      section: "The server",
      default: "the number of cores, at most 8 (1 outside Linux)",
      description:
        "Server processes sharing the port, one per core; `1` runs one process. The first one also sends the e-mail; the others only answer requests ([decision 010](../decisions/010-static-pages-and-processes.md)).",
    },
  ),
  PAGES_AT_START: documented(bool(true), {
    section: "The server",
    description:
      "`false`: the pages the same for every visitor are rendered at their first request instead of before the server takes over from the one it replaces. The test suite's servers use it (most of them never ask for a page); a real site leaves it on, so that no visitor waits for a page to be made.",
  }),

  SITE_NAME: documented(
    v.optional(
      v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(60, "must be at most 60 characters")),
      "Lifetime Stream",
    ),
    {
      section: "The shop and its offer",
      description:
        "Read once, at the first start, to seed the product's name in the published content; afterwards change it in the console (Content → Offer and price) or with `site content import`.",
    },
  ),
  SUPPORT_EMAIL: documented(v.optional(v.pipe(v.string(), v.trim(), v.email("must be an e-mail address")), "support@example.com"), {
    section: "The shop and its offer",
    requiredInProduction: "a real address: production refuses an example one (`example.com`, `.example`, `.test`…)",
    description: "Support address (money-back box, chat hand-over, Email Support, legal pages). Replies to every e-mail go to it.",
  }),
  PRICE: documented(money("29.99"), {
    section: "The shop and its offer",
    description:
      "Read once, at the first start, to seed the price in the published content (in euros or `CURRENCY`, VAT included; `29.99` or `29,99`); afterwards the price is changed in the console (Content → Offer and price) or with `site content import`, and this variable is ignored.",
  }),
  ORIGINAL_PRICE: documented(money("99"), {
    section: "The shop and its offer",
    description:
      "Not read any more. A struck-through price is shown only after a reduction, against the lowest price the site charged over the whole 30 days before it (its price history), never a typed one; a new shop shows none (see [docs/content.md](../content.md)).",
  }),
  CURRENCY: documented(
    v.optional(
      v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, "must be a three-letter currency code such as EUR")),
      "EUR",
    ),
    { section: "The shop and its offer", description: "ISO currency code." },
  ),
  CLAIMED_USERS: documented(positiveInt(PLACEHOLDER_CLAIMED_USERS), {
    section: "The shop and its offer",
    description:
      "Read once, at the first start, into the published content; no page shows it any more: the landing page states the buyers or devices the site counts itself (console, Reviews; see [docs/reviews.md](../reviews.md)).",
  }),

  SQLITE_SYNCHRONOUS: documented(v.optional(v.picklist(["NORMAL", "FULL"], "must be NORMAL or FULL"), "FULL"), {
    section: "Data, privacy and audience",
    description: "`FULL` or `NORMAL`: what a power loss may cost; see [Durability](data.md#durability).",
  }),
  DB_BUSY_WAIT_MS: documented(positiveInt(5000, 60000), {
    section: "Data, privacy and audience",
    description:
      "How long a request's write waits for a database lock another program holds (see [Your data](data.md)) before it answers 503 with `Retry-After`, changing nothing. Other requests are served meanwhile. At most 60000.",
  }),
  IP_HASH_SECRET: documented(v.optional(v.pipe(v.string(), v.minLength(16, "must be at least 16 characters"))), {
    section: "Data, privacy and audience",
    default: "generated once into `DATA_DIR` (`ip-hash.secret`)",
    description: "Key of the hash stored instead of visitors' IP addresses; at least 16 characters.",
  }),

  STRIPE_SECRET_KEY: documented(secret(["sk_", "rk_"]), {
    section: "Payments",
    requiredInProduction: "unless `ALLOW_TEST_CHECKOUT=true`; a live key (`sk_live_…`), never a test-mode one",
    description:
      "With `STRIPE_WEBHOOK_SECRET`: pay through Stripe Checkout instead of the built-in test checkout. See [docs/checkout.md](../checkout.md).",
  }),
  STRIPE_WEBHOOK_SECRET: documented(secret(["whsec_"]), {
    section: "Payments",
    requiredInProduction: "with `STRIPE_SECRET_KEY` (the two go together)",
    description: "Signing secret of the webhook endpoint `https://your-site/api/stripe/webhook`.",
  }),
  STRIPE_PRICE_ID: documented(v.optional(v.pipe(v.string(), v.trim(), v.startsWith("price_", "must start with price_"))), {
    section: "Payments",
    description: "Use a Stripe Price instead of the inline `PRICE`.",
  }),
  STRIPE_PROMOTION_CODES: documented(bool(false), {
    section: "Payments",
    description: "Let buyers enter promotion codes on Stripe's page.",
  }),
  STRIPE_AUTOMATIC_TAX: documented(bool(false), { section: "Payments", description: "Stripe Tax on the checkout." }),
  ALLOW_TEST_CHECKOUT: documented(bool(false), {
    section: "Payments",
    description: "Allow the built-in test checkout when `NODE_ENV=production`.",
  }),

  ANTHROPIC_API_KEY: documented(v.optional(v.pipe(v.string(), v.trim(), v.minLength(10, "must be an API key"))), {
    section: "The support chat",
    description: "Answer the support chat with Claude instead of the offline assistant. See [docs/support.md](../support.md).",
  }),
  ANTHROPIC_MODEL: documented(v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("must not be empty")), "claude-haiku-4-5"), {
    section: "The support chat",
    description: "Claude model.",
  }),
  ANTHROPIC_MAX_TOKENS: documented(positiveInt(600, 4096), {
    section: "The support chat",
    description: "Longest reply, in tokens (at most 4096).",
  }),
  ANTHROPIC_TIMEOUT_MS: documented(positiveInt(20000, 120000), {
    section: "The support chat",
    description: "Give up on Claude after this long (the visitor is told to write to support); at most 120000.",
  }),
  ANTHROPIC_BASE_URL: documented(v.optional(url), {
    section: "The support chat",
    default: "Anthropic's own API",
    description: "Another address for the Anthropic API (a gateway of your own; the tests point it at a fake server on loopback).",
  }),

  SMTP_URL: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.url("must be a URL such as smtp://user:pass@mail.example.com:587"),
        v.check((s) => /^smtps?:\/\//.test(s), "must start with smtp:// or smtps://"),
        v.check((s) => URL.canParse(s) && new URL(s).hostname !== "", "must name the mail server: smtp://mail.example.com:587"),
      ),
    ),
    {
      section: "E-mail and the owner's digest",
      requiredInProduction: "with Stripe (buyers receive their access by e-mail)",
      description:
        "Send e-mail through this server: `smtp://user:pass@mail.example.com:587` or `smtps://user:pass@mail.example.com:465`. Without it, each message is written to `DATA_DIR/mail/<id>.eml`. See [docs/fulfilment.md](../fulfilment.md).",
    },
  ),
  MAIL_FROM: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check((s) => v.is(Email, addressOf(s)), "must be an e-mail address, optionally with a name: Shop <shop@example.com>"),
      ),
    ),
    {
      section: "E-mail and the owner's digest",
      default: '`"SITE_NAME" <no-reply@host>`, the host of `PUBLIC_BASE_URL`',
      description: "Sender of every e-mail (`Shop <shop@example.com>`). Replies go to `SUPPORT_EMAIL`.",
    },
  ),
  OWNER_EMAIL: documented(v.optional(v.pipe(v.string(), v.trim(), v.email("must be an e-mail address"))), {
    section: "E-mail and the owner's digest",
    description: "Where the owner is told of each paid order, each refund and each refund request, and gets the digest e-mail (`DIGEST`).",
  }),
  LICENSE_ACTIVATION_LIMIT: documented(positiveInt(5, 1000), {
    section: "The shop and its offer",
    description:
      "How many devices one licence key may be active on at once (the app's `/api/licenses/activate`; the support chat quotes it, the terms of sale state it).",
  }),
  REVIEW_INVITE_DAYS: documented(nonNegativeInt(7, 365), {
    section: "The shop and its offer",
    description:
      "How many days after a paid order its buyer is invited by e-mail to review it (once, if the order is not refunded and its licence was activated); the default 7 falls after the guarantee's window. `0` invites at the next check after the first activation, to try it. See [docs/reviews.md](../reviews.md).",
  }),
  LICENSE_TOKEN_DAYS: documented(positiveInt(14, 365), {
    section: "The shop and its offer",
    description:
      "How long a licence token stays valid offline in the app (it renews it when online); see [docs/licenses.md](../licenses.md).",
  }),
  REFUND_MODE: documented(v.optional(v.picklist(["auto", "request"], "must be auto or request"), "auto"), {
    section: "The shop and its offer",
    description:
      "The 7-day guarantee's refund page (access e-mail, success page): `auto` refunds on the buyer's confirmation within 7 days of payment; `request` queues it, e-mails `OWNER_EMAIL`, and you approve it in one click in the console (Orders). See [docs/checkout.md](../checkout.md).",
  }),

  // Seller identity and legal pages. Optional here; production refuses to start without the
  // required ones (server/platform/production-readiness.ts), development shows a marked placeholder.
  SELLER_NAME: documented(ownerText(120), {
    section: "The seller and the legal pages",
    requiredInProduction: true,
    description: "The seller's legal name (`Stream Shop SAS`, or a sole trader's name): legal notice, terms of sale, privacy policy.",
  }),
  SELLER_ADDRESS: documented(ownerText(300), {
    section: "The seller and the legal pages",
    requiredInProduction: true,
    description: "Postal address of the seller (head office).",
  }),
  SELLER_REGISTRATION: documented(ownerText(200), {
    section: "The seller and the legal pages",
    requiredInProduction: true,
    description: "Company register number (`RCS Paris 912 345 678`, a SIREN…).",
  }),
  SELLER_VAT_ID: documented(ownerText(40), {
    section: "The seller and the legal pages",
    description: "Intra-community VAT number, shown when set.",
  }),
  SELLER_PHONE: documented(ownerText(40), {
    section: "The seller and the legal pages",
    description: "Phone number on the legal notice (French law asks for one).",
  }),
  PUBLICATION_DIRECTOR: documented(ownerText(120), {
    section: "The seller and the legal pages",
    default: "`SELLER_NAME`",
    description: "Director of publication on the legal notice; a company names its legal representative.",
  }),
  HOSTING_PROVIDER: documented(ownerText(300), {
    section: "The seller and the legal pages",
    requiredInProduction: true,
    description: "The host's name, address and phone number (`OVH SAS, 2 rue Kellermann, 59100 Roubaix, France, +33 9 72 10 10 07`).",
  }),
  MEDIATOR_NAME: documented(ownerText(200), {
    section: "The seller and the legal pages",
    requiredInProduction: true,
    description: "The consumer mediator buyers may turn to (every seller to consumers in France must offer one).",
  }),
  MEDIATOR_URL: documented(v.optional(url), {
    section: "The seller and the legal pages",
    requiredInProduction: true,
    description: "The mediator's website.",
  }),
  OFFER_ENDS_AT: documented(offerEnd, {
    section: "The shop and its offer",
    default: "14 days after the first start",
    description:
      'When the early-bird offer ends: `2026-12-31` (through that whole day, Paris time) or `2026-12-31T18:00:00+01:00`. Until then the badge, the struck-through price and "ends on" with the date; after it, none of them anywhere (pages, chat, e-mails). Unset, the end is the 14th day after the site first started on this data folder (recorded in the database once).',
  }),
  // How VAT is charged and shown on invoices (server/shop/paperwork/vat.ts). Production requires the
  // owner to choose (production-readiness.ts); development defaults to French VAT.
  VAT_SCHEME: documented(v.optional(v.picklist(VAT_SCHEMES, `must be one of ${VAT_SCHEMES.join(", ")}`)), {
    section: "The seller and the legal pages",
    default: "`fr` (outside production)",
    requiredInProduction: true,
    description:
      "How VAT is charged: `franchise` (no VAT, invoices say \"TVA non applicable, art. 293 B du CGI\"), `fr` (French VAT at 20 % on every sale in France and the EU) or `oss` (the VAT of the buyer's EU country, from the rate table in `server/shop/paperwork/vat-rates.ts`; French VAT when no country is known). Under both, a consumer outside the EU pays no VAT, or that country's with `VAT_REGISTRATIONS`, and a company of another member state with a VAT number is reverse-charged. A consumer pays `PRICE`, VAT included; a reverse-charged company, that price less the French VAT it includes. See [docs/invoices.md](../invoices.md).",
  }),
  VAT_REGISTRATIONS: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check(
          (s) => s.split(",").every((item) => /^(GB|CH|NO):[A-Za-z0-9 .-]{4,30}$/.test(item.trim())),
          "must be a comma-separated list of COUNTRY:NUMBER for GB, CH or NO, such as GB:GB123456789",
        ),
      ),
    ),
    {
      section: "The seller and the legal pages",
      default: "none",
      description:
        "The seller's VAT registrations outside the EU, where a foreign seller of digital services registers from the first sale: `GB:GB123456789,CH:CHE-123.456.789,NO:NO123456789MVA`. A consumer of a listed country pays that country's VAT, inside the same price, and the invoice names it and this number; a consumer of an unlisted country outside the EU is invoiced no VAT. See [docs/invoices.md](../invoices.md).",
    },
  ),
  STRIPE_API_BASE: documented(v.optional(url), {
    section: "Payments",
    default: "Stripe's own API",
    description:
      "Another address for Stripe's API, such as `http://127.0.0.1:12111`: tests and demonstrations run Stripe mode against a server that speaks Stripe's wire format. Refused in production.",
  }),
  LEAD_RETENTION_DAYS: documented(positiveInt(DEFAULT_RETENTION_DAYS.leads, 3650), {
    section: "Data, privacy and audience",
    description:
      "Leads (and their demo e-mails, their `.eml` files included) are deleted this many days after they were stored; the privacy page says so. See [Personal data](data.md#personal-data).",
  }),
  CHAT_RETENTION_DAYS: documented(positiveInt(DEFAULT_RETENTION_DAYS.chats, 3650), {
    section: "Data, privacy and audience",
    description: "Chat messages are deleted this many days after they were written; the privacy page says so.",
  }),
  ANALYTICS_RETENTION_DAYS: documented(positiveInt(DEFAULT_RETENTION_DAYS.analytics, 3650), {
    section: "Data, privacy and audience",
    description:
      "Days the audience counting keeps its page views and events ([docs/audience.md](../audience.md)); daily totals are kept. The privacy page says this figure.",
  }),
  // Rows of page views, events and speed measures one UTC day may store (server/shop/analytics/ingest.ts).
  ANALYTICS_MAX_EVENTS_PER_DAY: documented(positiveInt(DEFAULT_ANALYTICS_MAX_EVENTS_PER_DAY, 100_000_000), {
    section: "Data, privacy and audience",
    description:
      "Rows (page views, actions, speed measures) one UTC day may store; past it that day's beacons are not counted, and the Audience page says so. Bounds what a flood of beacons from many addresses can put on the disk (about 90 MB a day at most).",
  }),
  // The owner's digest e-mail (server/owner/digest/): sent to OWNER_EMAIL, so nothing without it.
  DIGEST: documented(
    v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(DIGEST_FREQUENCIES, "must be daily, weekly or off")), "daily"),
    {
      section: "E-mail and the owner's digest",
      description:
        "The owner's digest e-mail to `OWNER_EMAIL` (none without it): `daily`, each morning for the day before; `weekly`, for the week before (Monday to Sunday); `off`. Sales, visitors and funnel, unanswered chat questions, failing e-mails, a link to the console; in your console's language. Once per period; missed at the hour (server down), sent when it is back that day. See [docs/console.md](../console.md).",
    },
  ),
  DIGEST_HOUR: documented(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^\d{1,2}$/, "must be an hour from 0 to 23 (Paris time)"),
        v.transform(Number),
        v.maxValue(23, "must be an hour from 0 to 23 (Paris time)"),
      ),
      "7",
    ),
    {
      section: "E-mail and the owner's digest",
      description:
        "The hour (0 to 23, Paris time) from which the digest goes out. Before 2, its visitors (counted per UTC day) miss the last hour or two.",
    },
  ),
  DIGEST_WEEKDAY: documented(
    v.optional(
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
    {
      section: "E-mail and the owner's digest",
      description: "With `DIGEST=weekly`, the day it goes out (`monday` … `sunday`).",
    },
  ),
});

export type Env = v.InferOutput<typeof EnvSchema>;
