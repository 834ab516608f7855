import { renderToReadableStream } from "react-dom/server";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { App, serializePageData } from "../client/app";
import type { PageData, View } from "../client/page-data";
import type { Locale } from "../shared/locales";
import { alternatesFor, isSitePageId, pathFor } from "../shared/routes";
import type { Messages } from "../shared/i18n";
import { buildSiteFacts, factsKey, OFFER_ONLY_KEYS, type SiteFacts } from "../shared/site-facts";
import type { AssetStore } from "./assets";
import type { Config } from "./config";
import { MESSAGES } from "./locales";
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

/** Texts only the legal pages show (client/pages/legal.tsx). */
const LEGAL_PAGE_KEY = /^(legalNotice|terms|privacy|legal)\./;

/**
 * Renders a whole document with React on the server. The body is compressed (br, else gzip) when
 * the client accepts it; the page has no Suspense boundaries, so waiting for `allReady` costs
 * nothing and lets a failure become a 500 page instead of a half-sent document.
 */
export function createRenderer(deps: { config: Config; assets: AssetStore; log: Logger; now: () => Date }): Renderer {
  const { config, assets, log } = deps;
  // Keyed by year and offer too: the footer's "© year" must turn over on New Year's Day, and the
  // early-bird claims disappear when the offer ends, without a restart.
  const factsCache = new Map<string, SiteFacts>();
  const factsFor = (locale: Locale) => {
    const now = deps.now();
    const key = `${locale}:${factsKey(config.site, now)}`;
    let facts = factsCache.get(key);
    if (facts === undefined) {
      facts = buildSiteFacts(config.site, locale, now);
      factsCache.set(key, facts);
    }
    return facts;
  };

  // The dictionary a page carries for hydration leaves out what it cannot show: after the offer,
  // the offer's texts (no page, not even its source, carries a time-limited claim); outside the
  // three legal pages, their texts (about 13 KB a language that every other page would carry).
  const dictionaries = new Map<string, Messages>();
  const messagesFor = (locale: Locale, offerOn: boolean, legalPage: boolean): Messages => {
    const key = `${locale}:${offerOn}:${legalPage}`;
    let messages = dictionaries.get(key);
    if (messages === undefined) {
      const shown = (k: string) => (offerOn || !OFFER_ONLY_KEYS.includes(k)) && (legalPage || !LEGAL_PAGE_KEY.test(k));
      messages = Object.fromEntries(Object.entries(MESSAGES[locale]).filter(([k]) => shown(k)));
      dictionaries.set(key, messages);
    }
    return messages;
  };

  const pageData = (view: View, locale: Locale, query = ""): PageData => {
    const page = view.page;
    const facts = factsFor(locale);
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
      messages: messagesFor(locale, facts.offer.on, page === "legal-notice" || page === "terms" || page === "privacy"),
      facts,
      assets: assets.urls,
    };
  };

  const toHtml = async (data: PageData, nonce: string): Promise<string> => {
    const dataJson = serializePageData(data);
    let failure: unknown = null;
    const stream = await renderToReadableStream(<App data={data} dataJson={dataJson} />, {
      nonce,
      bootstrapModules: [assets.urls.js],
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
