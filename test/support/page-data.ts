import { PAGE_TEXTS } from "../../server/site/locales";
import { siteValues } from "../../shared/i18n";
import { LOCALES, type Locale } from "../../shared/locales";
import type { PageData, View } from "../../shared/page-data";
import { alternatesFor, isSitePageId, pathFor } from "../../shared/routes";
import { testConfig } from "./config";
import { testContent } from "./content";

/** Page data as the server would render a page from, for component tests. */
export function makePageData(view: View = { page: "landing" }, locale: Locale = "fr", overrides: Partial<PageData> = {}): PageData {
  const config = testConfig();
  // As on a site started today: the early-bird offer runs (server/site/offer.ts).
  const localized = testContent(config).current().localized(locale, new Date(), true);
  const facts = localized.facts;
  const messages = overrides.messages ?? PAGE_TEXTS[locale];
  return {
    view,
    locale,
    alternates: isSitePageId(view.page) ? alternatesFor(view.page) : null,
    canonicalPath: isSitePageId(view.page) ? pathFor(view.page, locale) : null,
    baseUrl: "http://localhost:3000",
    messages,
    values: siteValues(locale, messages, facts),
    facts,
    assets: {
      js: "/assets/entry.js",
      css: "/assets/styles.css",
      font: null,
      poster: "/assets/demo-poster.webp",
      video: "/demo-video.mp4",
      videoSeconds: 26,
      captions: LOCALES.map((l) => ({ locale: l, url: `/assets/demo-captions-${l}.vtt` })),
      preview640: "/assets/app-preview-640.webp",
      preview960: "/assets/app-preview-960.webp",
      preview1280: "/assets/app-preview-1280.webp",
      ogImage: "/assets/og-image.jpg",
      favicon: "/favicon.svg",
      appleTouchIcon: "/assets/apple-touch-icon.png",
    },
    catalogue: { total: 0, categories: [], wall: [], rights: null },
    screenshots: { phone: null, tablet: null, computer: null },
    catalogueResults: null,
    ...overrides,
  };
}
