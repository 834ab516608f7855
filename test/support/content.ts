import type { Config } from "../../server/platform/config";
import { type ContentSource, fixedContent } from "../../server/site/content/live";
import { buildPublished } from "../../server/site/content/published";
import { seededDocument } from "../../server/site/content/start";
import { defaultContent } from "../../shared/content";
import type { SiteContent } from "../../shared/site-facts";

/**
 * The content a fresh site publishes with this configuration's environment (its defaults, seeded
 * from SITE_NAME, PRICE…), without a database: for tests of parts that only read content.
 * `firstStartedAt`: the first start the default offer end counts from.
 */
export function testContent(config: Pick<Config, "site" | "contentSeed">, firstStartedAt = new Date()): ContentSource {
  return fixedContent(
    buildPublished({
      version: 0,
      document: seededDocument(defaultContent(), config.contentSeed),
      settings: config.site,
      reference: null,
      firstStartedAt,
    }),
  );
}

/** The site's facts as that content gives them. */
export const testSite = (config: Pick<Config, "site" | "contentSeed">, firstStartedAt?: Date): SiteContent =>
  testContent(config, firstStartedAt).current().site;

/** What the chat's assistants read: the content and the licence limit. */
export const chatSite = (config: Config, firstStartedAt?: Date) => ({
  licenseActivationLimit: config.licenseActivationLimit,
  content: testContent(config, firstStartedAt),
});
