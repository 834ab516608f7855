import { renderToReadableStream } from "react-dom/server";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { Document } from "../client/app";
import { siteValues, type MessageValues } from "../shared/i18n";
import type { PageData, View } from "../shared/page-data";
import type { Locale } from "../shared/locales";
import { alternatesFor, isSitePageId, pathFor } from "../shared/routes";
import { buildSiteFacts, factsKey, type SiteFacts } from "../shared/site-facts";
import type { AssetStore } from "./assets";
import type { Config } from "./config";
import { pageIslands } from "./islands";
import { COMPILED } from "./locales";
import { pickEncoding } from "./http/accept-encoding";
import type { Logger } from "./log";

export type RenderOptions = {
  view: View;
  locale: Locale;
  nonce: string;
  status?: number;
  acceptEncoding?: string | null;
  /**
   * Set when the page depends on nothing but its view and language (not on the database or the
   * request): its HTML is then rendered once per process and reused, with this request's nonce.
   */
  cacheable?: boolean;
  /** A query string the page's language alternates keep (the success page's `?session_id=`). */
  query?: string;
};

export type Renderer = (options: RenderOptions) => Promise<Response>;

/**
 * Renders a whole document with React on the server. The body is compressed (br, else gzip) when
 * the client accepts it; the page has no Suspense boundaries, so waiting for `allReady` costs
 * nothing and lets a failure become a 500 page instead of a half-sent document.
 */
export function createRenderer(deps: { config: Config; assets: AssetStore; log: Logger; now: () => Date }): Renderer {
  const { config, assets, log } = deps;
  // Keyed by year and offer too: the footer's "© year" must turn over on New Year's Day, and the
  // early-bird claims disappear when the offer ends, without a restart.
  const factsCache = new Map<string, { facts: SiteFacts; values: MessageValues }>();
  const factsFor = (locale: Locale) => {
    const now = deps.now();
    const key = `${locale}:${factsKey(config.site, now)}`;
    let cached = factsCache.get(key);
    if (cached === undefined) {
      const facts = buildSiteFacts(config.site, locale, now);
      cached = { facts, values: siteValues(locale, COMPILED[locale], facts) };
      factsCache.set(key, cached);
    }
    return cached;
  };

  const pageData = (view: View, locale: Locale, query = ""): PageData => {
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
      messages: COMPILED[locale],
      ...factsFor(locale),
      assets: assets.urls,
    };
  };

  const toHtml = async (data: PageData, nonce: string): Promise<string> => {
    let failure: unknown = null;
    const stream = await renderToReadableStream(<Document data={data} islands={pageIslands(data)} />, {
      nonce,
      onError(error) {
        failure = error;
      },
    });
    await stream.allReady;
    const html = await new Response(stream).text();
    if (failure !== null) throw failure;
    return html;
  };

  // React renders the nonce as a plain attribute value, so a page rendered with a placeholder can
  // be reused by swapping in each request's nonce.
  const NONCE_PLACEHOLDER = "nonce0placeholder0x7c5f";
  const cache = new Map<string, string>();
  const cachedHtml = async (view: View, locale: Locale, nonce: string): Promise<string> => {
    const key = `${locale}:${factsKey(config.site, deps.now())}:${JSON.stringify(view)}`;
    let html = cache.get(key);
    if (html === undefined) {
      html = await toHtml(pageData(view, locale), NONCE_PLACEHOLDER);
      cache.set(key, html);
    }
    return html.replaceAll(NONCE_PLACEHOLDER, nonce);
  };

  return async ({ view, locale, nonce, status = 200, acceptEncoding, cacheable = false, query }) => {
    let html: string;
    let finalStatus = status;
    try {
      html = cacheable ? await cachedHtml(view, locale, nonce) : await toHtml(pageData(view, locale, query), nonce);
    } catch (error) {
      log.error("render failed", { page: view.page, error: String(error instanceof Error ? (error.stack ?? error.message) : error) });
      finalStatus = 500;
      try {
        html = await toHtml(pageData({ page: "error" }, locale), nonce);
      } catch {
        html = FALLBACK_ERROR_HTML;
      }
    }
    return htmlResponse(html, finalStatus, acceptEncoding);
  };
}

const FALLBACK_ERROR_HTML =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p><a href="/">Home</a></p></body></html>';

export function htmlResponse(html: string, status: number, acceptEncoding: string | null | undefined): Response {
  const body = `<!DOCTYPE html>${html.startsWith("<!DOCTYPE") ? html.slice(15) : html}`;
  const headers: Record<string, string> = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    vary: "Accept-Encoding",
  };
  const encoding = pickEncoding(acceptEncoding);
  if (encoding === "br") {
    headers["content-encoding"] = "br";
    return new Response(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), { status, headers });
  }
  if (encoding === "gzip") {
    headers["content-encoding"] = "gzip";
    return new Response(gzipSync(body, { level: 6 }), { status, headers });
  }
  return new Response(body, { status, headers });
}
