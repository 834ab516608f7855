import type { Locale } from "../../shared/locales";
import type { PageData, View } from "../../shared/page-data";
import { alternatesFor, isSitePageId, pathFor } from "../../shared/routes";
import type { Config } from "../platform/config";
import { compressForOneAnswer } from "../platform/http/compress";
import type { Logger } from "../platform/log";
import type { AssetStore } from "./assets";
import { catalogueFacts, catalogueResults } from "./catalogue/facts";
import { withOwnerMedia } from "./catalogue/slots";
import type { ContentSource } from "./content/live";

export type RenderOptions = {
  view: View;
  locale: Locale;
  status?: number;
  acceptEncoding?: string | null;
  /** A query string the page's language alternates keep (the success page's `?session_id=`). */
  query?: string;
};

/** Renders a page for one request (pages that read the database or the request). */
export type Renderer = (options: RenderOptions) => Promise<Response>;

/** A page's document, in two steps, so that a page the same for everyone can be rendered once and kept. */
export type DocumentRenderer = {
  /** Everything the page shows: the document is a function of this alone. */
  pageData(view: View, locale: Locale, query?: string): PageData;
  /** The whole document as HTML, `<!DOCTYPE html>` included. */
  html(data: PageData): Promise<string>;
  /**
   * Names what, besides view and language, the documents depend on at this instant (the year of the
   * footer, whether the early-bird offer runs): pages kept from an earlier value are out of date.
   */
  edition(): string;
};

/**
 * Renders whole documents with React on the server. The page has no Suspense boundaries, so waiting
 * for `allReady` costs nothing and lets a failure become a 500 page instead of a half-sent document.
 */
export function createDocumentRenderer(deps: {
  config: Config;
  assets: AssetStore;
  now: () => Date;
  content: ContentSource;
}): DocumentRenderer {
  const { config, assets, content } = deps;
  // The published version, the year and the offer: a publish, the footer's "© year" on New Year's
  // Day and the end of the offer all make the pages anew, without a restart.
  const edition = () => content.current().edition(deps.now());

  const pageData = (view: View, locale: Locale, query = ""): PageData => {
    const published = content.current();
    const { facts, values } = published.localized(locale, deps.now(), true);
    const page = view.page;
    const alternates = isSitePageId(page) ? alternatesFor(page) : null;
    return {
      view,
      locale,
      alternates:
        alternates === null || query === ""
          ? alternates
          : { fr: alternates.fr + query, en: alternates.en + query, it: alternates.it + query, es: alternates.es + query },
      canonicalPath: isSitePageId(page) ? pathFor(page, locale) : null,
      baseUrl: config.publicBaseUrl,
      messages: published.pageTexts[locale],
      facts,
      values,
      assets: withOwnerMedia(assets.urls, published.media),
      catalogue: catalogueFacts(published.catalogue, published.document.catalogue.rights[locale] ?? null),
      screenshots: {
        phone: published.media.previewPhone,
        tablet: published.media.previewTablet,
        computer: published.media.previewComputer,
      },
      catalogueResults: view.page === "catalogue" ? catalogueResults(published.catalogue, view.search) : null,
    };
  };

  const html = async (data: PageData): Promise<string> => {
    // Loaded on first use: a process serving only pages made ahead (the executable's) never needs
    // React's server renderer nor the page's components.
    const [{ renderToReadableStream }, { Document }, { pageIslands }] = await Promise.all([
      import("react-dom/server"),
      import("../../client/app"),
      import("./islands"),
    ]);
    let failure: unknown = null;
    const stream = await renderToReadableStream(<Document data={data} islands={pageIslands(data)} />, {
      onError(error) {
        failure = error;
      },
    });
    await stream.allReady;
    const text = await new Response(stream).text();
    if (failure !== null) throw failure;
    return `<!DOCTYPE html>${text.startsWith("<!DOCTYPE") ? text.slice(15) : text}`;
  };

  return { pageData, html, edition };
}

/** Renders and answers per request: the body is compressed (br, else gzip) when the client accepts it. */
export function createRenderer(deps: {
  config: Config;
  assets: AssetStore;
  log: Logger;
  now: () => Date;
  content: ContentSource;
}): Renderer {
  const { log } = deps;
  const documents = createDocumentRenderer(deps);
  return async ({ view, locale, status = 200, acceptEncoding, query }) => {
    let html: string;
    let finalStatus = status;
    try {
      html = await documents.html(documents.pageData(view, locale, query));
    } catch (error) {
      log.error("render failed", { page: view.page, error: String(error instanceof Error ? (error.stack ?? error.message) : error) });
      finalStatus = 500;
      html = await errorPageHtml(documents, locale);
    }
    return htmlResponse(html, finalStatus, acceptEncoding);
  };
}

/** The error page, or a plain one when even that cannot be rendered. */
export async function errorPageHtml(documents: DocumentRenderer, locale: Locale): Promise<string> {
  try {
    return await documents.html(documents.pageData({ page: "error" }, locale));
  } catch {
    return FALLBACK_ERROR_HTML;
  }
}

const FALLBACK_ERROR_HTML =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p><a href="/">Home</a></p></body></html>';

/**
 * A page rendered for one request: no cache keeps it (it may name the buyer, an order or a token).
 * Compressed at a quick level, since it is compressed for one answer only.
 */
export function htmlResponse(html: string, status: number, acceptEncoding: string | null | undefined): Response {
  const headers: Record<string, string> = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    vary: "Accept-Encoding",
  };
  const { body, encoding } = compressForOneAnswer(html, acceptEncoding);
  if (encoding !== null) headers["content-encoding"] = encoding;
  return new Response(body, { status, headers });
}
