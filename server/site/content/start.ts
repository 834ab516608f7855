import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { siteSettings } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import type { ContentDocument } from "../../../shared/content";
import { dateIn, SELLER_TIME_ZONE } from "../../../shared/offer";
import type { Config, ContentSeed } from "../../platform/config";
import type { Logger } from "../../platform/log";
import { firstStartedAt } from "../offer";
import { publishIn, readPublished, recordFirstPrice } from "./store";

// The first start of the version that moved the product's facts from the environment to the
// console: what the owner still sets there (PRICE, SITE_NAME…) becomes the published content, once,
// so nothing they set is lost. From then on the content is the one source, and each start says
// which variables it ignores and where to change them instead.

const SEEDED = "content_seeded_from_env";

const SEED_VARIABLES: readonly [keyof ContentSeed, string][] = [
  ["productName", "SITE_NAME"],
  ["priceMinor", "PRICE"],
  ["originalPriceMinor", "ORIGINAL_PRICE"],
  ["currency", "CURRENCY"],
  ["claimedUsers", "CLAIMED_USERS"],
  ["offerEndsAt", "OFFER_ENDS_AT"],
];

/**
 * The environment's content variables applied to a document. ORIGINAL_PRICE never: a reference
 * comes from the price history; CLAIMED_USERS never: the home page's figure is the site's count.
 */
export function seededDocument(document: ContentDocument, seed: ContentSeed): ContentDocument {
  return {
    ...document,
    offer: {
      ...document.offer,
      productName: seed.productName ?? document.offer.productName,
      priceMinor: seed.priceMinor ?? document.offer.priceMinor,
      currency: seed.currency ?? document.offer.currency,
      endsOn: seed.offerEndsAt === undefined ? document.offer.endsOn : dateIn(SELLER_TIME_ZONE, seed.offerEndsAt),
    },
  };
}

/** Variables never seeded: what they set is no longer something typed. */
const NEVER_READ = ["ORIGINAL_PRICE", "CLAIMED_USERS"];

const setVariables = (seed: ContentSeed) => SEED_VARIABLES.filter(([key]) => seed[key] !== undefined).map(([, name]) => name);

/**
 * At the first process's start: records the first start, seeds the content from the environment
 * once, records the price charged from now on when none is recorded, and warns about the content
 * variables it now ignores. Returns the first start (the default offer's starting point).
 */
export async function prepareContent(deps: { db: Db; write: Write; config: Config; log: Logger; now: Date }): Promise<Date> {
  const { db, write, config, log, now } = deps;
  const started = await firstStartedAt(write, now, db);
  const seed = config.contentSeed;
  const seeded = db.select({ key: siteSettings.key }).from(siteSettings).where(eq(siteSettings.key, SEEDED)).get() !== undefined;
  if (!seeded) {
    const version = await write((tx) => {
      // Another process seeded meanwhile (the transaction holds the write lock from its start).
      if (tx.select({ key: siteSettings.key }).from(siteSettings).where(eq(siteSettings.key, SEEDED)).get() !== undefined) return null;
      tx.insert(siteSettings)
        .values({ key: SEEDED, value: String(now.getTime()), createdAt: now })
        .run();
      const published = readPublished(tx);
      const document = seededDocument(published.document, seed);
      if (JSON.stringify(document) === JSON.stringify(published.document)) return null;
      return publishIn(tx, { document, openedVersion: published.version, by: "environment", now }).version;
    });
    if (version !== null)
      log.info("content seeded from the environment", { version, variables: setVariables(seed).filter((v) => !NEVER_READ.includes(v)) });
  }
  await recordFirstPrice(write, now);
  const ignored = setVariables(seed).filter((name) => seeded || NEVER_READ.includes(name));
  if (ignored.length > 0)
    log.warn(
      `${ignored.join(", ")} ${ignored.length === 1 ? "is" : "are"} set in the environment but no longer read: the product's name, price, currency and offer end are the published content. Change them in the console (Content) or with \`site content export\` / \`site content import\`, and remove ${ignored.length === 1 ? "it" : "them"} from the environment.${ignored.includes("ORIGINAL_PRICE") ? " ORIGINAL_PRICE is never used: the struck-through price is the lowest price the site charged in the 30 days before a reduction." : ""}${ignored.includes("CLAIMED_USERS") ? " CLAIMED_USERS is never used: the home page's figure is counted by the site from its sales (console, Reviews)." : ""}`,
    );
  return started;
}
