import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { siteSettings } from "../../../db/schema";
import { CATALOGUE_LIMITS } from "../../../shared/catalogue";
import { defaultContent } from "../../../shared/content";
import { errorText } from "../../../shared/error-text";
import { LOCALES } from "../../../shared/locales";
import type { SiteSettings } from "../../../shared/site-facts";
import type { Logger } from "../../platform/log";
import type { CatalogueReadiness, PublishedFacts } from "../../platform/production-readiness";
import { proofStamp, readProof } from "../../shop/reviews/store";
import { loadMediaSlots } from "../catalogue/slots";
import { loadCatalogue } from "../catalogue/store";
import { referencePrice } from "./price-reference";
import { buildPublished, type PublishedContent } from "./published";
import { latestVersion, readPriceHistory, readPublished } from "./store";

// How a process follows the owner's publishes (docs/decisions/018-owner-content.md): it looks at
// the newest version's number a few times a second (one read of the table's primary key) and,
// when it changed, builds the new content and tells its listeners (the static pages render again).
// A publish may come from any process, or from the command line (`site content import`): the
// database is the one place they all see.

/** How often a process looks for a new publish: well inside the 2 s a publish may take to show. */
export const CONTENT_POLL_MS = 250;

export type ContentSource = {
  /** The published content this process serves now. */
  current(): PublishedContent;
  /** Reads the newest version now (after this process published); true when it changed. */
  refresh(): boolean;
  /** Called after the content changed, with the new one. */
  onChange(listener: (content: PublishedContent) => void): void;
  /** Starts looking for publishes by others every `CONTENT_POLL_MS`. */
  watch(): void;
  stop(): void;
};

export function loadPublished(db: Db, settings: SiteSettings, firstStartedAt: Date, now: Date): PublishedContent {
  const published = readPublished(db);
  return buildPublished({
    version: published.version,
    document: published.document,
    settings,
    reference: referencePrice(readPriceHistory(db), now),
    firstStartedAt,
    catalogue: loadCatalogue(db, published.document.catalogue.set, CATALOGUE_LIMITS.wall),
    media: loadMediaSlots(db, published.document.media, published.document.captions),
    // Outside production (the only place placeholders show) the test checkout is how reviews are tried.
    proof: readProof(db, settings.showPlaceholders),
  });
}

export function openContent(deps: { db: Db; settings: SiteSettings; firstStartedAt: Date; log: Logger; now: () => Date }): ContentSource {
  const { db, settings, firstStartedAt, log, now } = deps;
  let content = loadPublished(db, settings, firstStartedAt, now());
  const listeners: ((content: PublishedContent) => void)[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;

  const refresh = (): boolean => {
    const version = latestVersion(db);
    // A review published, removed or answered, or the figure changed: the same path as a publish.
    const stamp = proofStamp(db);
    if (version === content.version && stamp === content.site.proof.stamp) return false;
    const before = content.version;
    content = loadPublished(db, settings, firstStartedAt, now());
    if (content.version !== before) log.info("content published", { version: content.version });
    else log.info("reviews or figures changed", { stamp: content.site.proof.stamp });
    for (const listener of listeners) {
      try {
        listener(content);
      } catch (error) {
        log.error("content listener failed", { error: errorText(error) });
      }
    }
    return true;
  };

  return {
    current: () => content,
    refresh,
    onChange(listener) {
      listeners.push(listener);
    },
    watch() {
      if (timer !== null) return;
      timer = setInterval(() => {
        try {
          refresh();
        } catch (error) {
          // A locked or unreadable database now: the next look tries again, the site keeps serving.
          log.warn("content: could not look for a publish", { error: errorText(error) });
        }
      }, CONTENT_POLL_MS);
      // Never what keeps a process alive.
      timer.unref();
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}

/** A content fixed at one version (a command, the page renderer): it never changes while it runs. */
export function fixedContent(content: PublishedContent): ContentSource {
  return { current: () => content, refresh: () => false, onChange() {}, watch() {}, stop() {} };
}

/** What production's start-up warnings read of the published content (server/platform/production-readiness.ts). */
export function publishedFacts(content: PublishedContent): PublishedFacts {
  const described = ["heroTitle", "heroSubtitle", "featuresSubtitle"].some(
    (key) => Object.keys(content.document.texts[key] ?? {}).length > 0,
  );
  return {
    ownerSet: content.site.ownerSet,
    reviews: content.site.proof.count,
    describesProduct: described,
    ownFaq: content.document.faq.some((entry) => entry.builtIn === null && entry.shown),
    catalogue: catalogueReadiness(content),
  };
}

/** How far the owner is with the catalogue: its titles, the languages without a rights statement, the claims confirmed. */
export function catalogueReadiness(content: PublishedContent): CatalogueReadiness {
  return {
    titles: content.catalogue.titles.length,
    rightsMissing: LOCALES.filter((locale) => content.document.catalogue.rights[locale] === undefined),
    claimsConfirmed: content.document.catalogue.claimsConfirmed,
  };
}

/**
 * After a publish, this process renders its pages again at once (one after the other, between
 * requests) rather than at each page's first request; `then` runs after (the executable keeps them
 * for its next start). Publishes that come while it renders are rendered once after it.
 */
export function renderAfterPublish(content: ContentSource, warm: () => Promise<unknown>, log: Logger, then?: () => void): void {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    do {
      again = false;
      const started = performance.now();
      await warm();
      log.info("pages rendered after publish", { version: content.current().version, ms: Math.round(performance.now() - started) });
    } while (again);
    then?.();
    running = null;
  };
  content.onChange(() => {
    if (running !== null) {
      again = true;
      return;
    }
    running = run().catch((error: unknown) => {
      running = null;
      log.error("pages not rendered after publish", { error: errorText(error) });
    });
  });
}

/**
 * The published content for a command or a script (a content fixed at this moment): the first
 * start's date is read when recorded, else taken as now (a folder the server never started on).
 */
export function contentNow(db: Db, settings: SiteSettings, now = new Date()): ContentSource {
  const recorded = db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, "first_started_at")).get()?.value;
  const firstStart = recorded === undefined || !Number.isFinite(Number(recorded)) ? now : new Date(Number(recorded));
  return fixedContent(loadPublished(db, settings, firstStart, now));
}

/** The defaults (version 0) without a database: the build's pages, and tests of parts that only read content. */
export function defaultContentSource(settings: SiteSettings, firstStartedAt = new Date()): ContentSource {
  return fixedContent(buildPublished({ version: 0, document: defaultContent(), settings, reference: null, firstStartedAt }));
}
