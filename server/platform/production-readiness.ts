import { BACKUP_UNSET_WARNING } from "./backup/settings";
import type { Config } from "./config";
import type { ConfigProblem } from "./config-error";
import type { Env } from "./env";
import { ANY_PROXY_WARNING } from "./http/trusted-proxies";

// What a site taking real money must have set before it starts (problems: refused), and the owner
// content not set yet (warnings: its place stays empty, one log line each).

/** Domains reserved for examples (RFC 2606): an address there never reaches anyone. */
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;
const LOCAL_HOST = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])$/i;

/**
 * Who sells, who hosts, who mediates and how VAT is charged: a production site refuses to start
 * without any of them, and the console's checklist names the same list.
 */
export const SELLER_IDENTITY = [
  ["SELLER_NAME", "the seller's legal name (legal notice, terms of sale)"],
  ["SELLER_ADDRESS", "the seller's postal address"],
  ["SELLER_REGISTRATION", "the company register number (RCS, SIREN...)"],
  ["HOSTING_PROVIDER", "the host's name, address and phone number (legal notice)"],
  ["MEDIATOR_NAME", "the consumer mediator buyers may turn to (terms of sale)"],
  ["MEDIATOR_URL", "the consumer mediator's website"],
  // Every invoice states how VAT was charged: the owner's choice, which no default can make.
  ["VAT_SCHEME", "how VAT is charged: franchise (no VAT, art. 293 B du CGI), fr (French VAT, 20 %) or oss (the buyer's EU country's rate)"],
] as const satisfies readonly (readonly [keyof Env, string])[];

/** The seller-identity variables this environment has not set. */
export const missingSellerIdentity = (env: Env): string[] =>
  SELLER_IDENTITY.filter(([variable]) => env[variable] === undefined).map(([variable]) => variable);

/**
 * Everything a production site needs and this environment lacks. A shop that takes real
 * money must say who sells (legal notice, terms of sale), name the consumer mediator (French
 * consumer code L612-1), be reachable by its buyers and link to its real address.
 */
export function productionProblems(env: Env): ConfigProblem[] {
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
  if (env.STRIPE_API_BASE !== undefined) {
    // Payments sent anywhere but Stripe would take no money, and would hand the secret key to that server.
    problems.push({
      variable: "STRIPE_API_BASE",
      detail: "points Stripe's SDK at another server: it is for tests and demonstrations only",
    });
  }
  if (env.STRIPE_SECRET_KEY !== undefined && env.SMTP_URL === undefined) {
    // Real buyers are promised their licence key by e-mail; .eml files in a folder would never reach them.
    problems.push({ variable: "SMTP_URL", detail: "is required in production with Stripe (buyers receive their access by e-mail)" });
  }
  // Canonical links, e-mails' links and Stripe's return address are built from it (or from DOMAIN).
  if (env.PUBLIC_BASE_URL === undefined && env.DOMAIN === undefined)
    missing("PUBLIC_BASE_URL", "the site's public address, such as https://shop.example.fr (links, e-mails, payment return)");
  else if (env.PUBLIC_BASE_URL !== undefined && LOCAL_HOST.test(new URL(env.PUBLIC_BASE_URL).hostname)) {
    problems.push({
      variable: "PUBLIC_BASE_URL",
      // An owner trying production on their own computer is told how (a made-up name pointed at it), not only refused.
      detail: `points at this machine (${env.PUBLIC_BASE_URL}): set the site's public address, such as https://shop.example.fr; to try production on this computer, use a made-up name pointed at it in /etc/hosts, such as http://shop.test:${env.PORT} (docs/owner/deploy.md, "Trying production on your own computer")`,
    });
  }
  if (EXAMPLE_DOMAIN.test(env.SUPPORT_EMAIL.split("@")[1] ?? "")) {
    problems.push({
      variable: "SUPPORT_EMAIL",
      detail: `is an example address (${env.SUPPORT_EMAIL}) that no one reads: set the address buyers write to`,
    });
  }
  for (const [variable, what] of SELLER_IDENTITY) if (env[variable] === undefined) missing(variable, what);
  return problems;
}

/** Said first at every production start that takes orders with the built-in test checkout. */
export const TEST_CHECKOUT_WARNING =
  "TEST CHECKOUT IN PRODUCTION: ALLOW_TEST_CHECKOUT=true and no Stripe keys, so anyone can 'buy' with the test card 4242 4242 4242 4242 and get a licence. Every page that leads to payment shows a TEST banner, every e-mail says TEST, and these orders are left out of revenue, the digest and the purchase notice. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to sell for real.";

const mailToFilesWarning = (dir: string) =>
  `SMTP_URL is not set: no e-mail leaves this machine (access e-mails, receipts, the owner's notices and digest are written as files into ${dir}). Set SMTP_URL (smtps://user:password@mail.example.com:465) to send them.`;

/** Start-up warnings about the environment itself (the test checkout, proxies, backups). */
export function startupWarnings(config: Config): string[] {
  const everywhere = config.trustedProxies.kind === "any" ? [ANY_PROXY_WARNING] : [];
  if (config.env !== "production") return everywhere;
  const warnings: string[] = [...everywhere];
  if (config.site.testCheckout) warnings.push(TEST_CHECKOUT_WARNING);
  // With Stripe, SMTP_URL is required; a test checkout may run without it, but nobody it "sells" to
  // would ever receive an e-mail, which the owner should know rather than discover.
  if (config.mail.smtpUrl === undefined) warnings.push(mailToFilesWarning(config.mail.dir));
  if (config.backup === null) warnings.push(BACKUP_UNSET_WARNING);
  return warnings;
}

/** What production start-up needs to know of the published content (server/site/content/). */
export type PublishedFacts = {
  ownerSet: { originalPrice: boolean };
  /** How many buyers' reviews are published. */
  reviews: number;
  /** Whether the owner wrote their own product description (hero or features), in any language. */
  describesProduct: boolean;
  /** Whether the FAQ has an entry of the owner's, beyond the five built-in ones. */
  ownFaq: boolean;
  catalogue: CatalogueReadiness;
};

/** What the checklist and the warnings read of the published catalogue: its titles, the languages without a rights statement, the claims confirmed. */
export type CatalogueReadiness = { titles: number; rightsMissing: string[]; claimsConfirmed: boolean };

/**
 * Owner content the owner has not set yet, read from the published content: in production its
 * place on the pages stays empty (presenting invented reviews, user counts or reference prices as
 * real is unlawful) or says the built-in words, and start-up logs one line for each, saying where
 * to change it.
 */
export function contentWarnings(config: Config, published: PublishedFacts): string[] {
  if (config.env !== "production") return [];
  const { ownerSet } = published;
  const warnings: string[] = [];
  // Not a thing to set: reviews come from buyers once they have used the app (docs/reviews.md).
  if (published.reviews === 0)
    warnings.push(
      "No review is shown yet: buyers are invited to review their order REVIEW_INVITE_DAYS after it, and you publish their reviews in the console, Reviews.",
    );
  if (!ownerSet.originalPrice)
    warnings.push(
      "No launch offer is shown (no struck-through price, no end date): a reduction is shown only against the lowest price the site charged in the 30 days before it (its price history), so a new shop has none yet.",
    );
  if (!published.describesProduct)
    warnings.push(
      "The product's description is still the built-in one: write what your app is and what its catalogue holds in the console, Content, Texts (hero, features).",
    );
  if (!published.ownFaq)
    warnings.push(
      "The FAQ has only its five built-in entries: add the questions your buyers ask (what the catalogue is, whether it is legal) in the console, Content, FAQ.",
    );
  const { catalogue } = published;
  if (catalogue.titles === 0)
    warnings.push(
      "The catalogue is empty: the landing page names no title. Import yours in the console, Catalogue (a CSV and its posters), or with `site catalogue import titles.csv posters/`.",
    );
  if (catalogue.rightsMissing.length > 0)
    warnings.push(
      `No rights statement (where the content comes from, its licences or partners) in ${catalogue.rightsMissing.join(", ")}: the catalogue, the FAQ and the chat cannot say whether the content is legal. Write it in the console, Catalogue.`,
    );
  if (!catalogue.claimsConfirmed)
    warnings.push(
      'The built-in claims ("every film and series", the comparison\'s "IPTV" row) are not confirmed: check that they are true of your app, or change them (console, Content), then confirm them in the console, Catalogue.',
    );
  return warnings;
}
