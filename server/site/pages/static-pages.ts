import type { Locale } from "../../../shared/locales";
import type { PageData, View } from "../../../shared/page-data";
import type { Config } from "../../platform/config";
import { pickEncoding } from "../../platform/http/accept-encoding";
import { type Bytes, type Compress, compressBest, contentHash, strongEtag } from "../../platform/http/compress";
import { noneMatchHits } from "../../platform/http/conditional";
import { isHttps, securityHeaders } from "../../platform/http/security";
import type { Logger } from "../../platform/log";
import { startTrace } from "../../platform/start-trace";
import { catalogueOrigin } from "../locales";
import type { PrebuiltPage } from "../prebuilt-page";
import { type DocumentRenderer, errorPageHtml, htmlResponse } from "../render";

/**
 * Pages the same for every visitor may be kept by a shared cache (a CDN) for a minute and served
 * stale for another while it revalidates; browsers revalidate on every visit (a 304 when nothing
 * changed), so a new price or text shows at once for them and within two minutes through a CDN.
 */
export const STATIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=60";

/**
 * Beyond this many kept pages (every page × language × query variant, the 404 page included, is
 * fewer than 100 today), a page is rendered per request instead of kept: a view that someday carried free text
 * from the URL must not grow the memory without bound.
 */
const MAX_PAGES = 512;

export type StaticPageRef = { view: View; locale: Locale; status?: number };

export type StaticPages = {
  /**
   * Answers with the page's bytes from memory, rendering and compressing it the first time: the
   * same bytes and strong ETag for every request of the same page, language and encoding, and 304
   * when `If-None-Match` names that ETag.
   */
  respond(request: Request, view: View, locale: Locale, status?: number): Response | Promise<Response>;
  /** Renders and compresses these pages ahead, one after the other (`reused`: taken as prebuilt). */
  warm(pages: readonly StaticPageRef[]): Promise<{ rendered: number; reused: number; failed: number }>;
  /** Every page kept and compressed, to embed in the executable or hand to another process. */
  finished(): PrebuiltPage[];
  /**
   * Keeps those of these pages given ready (the build's, the last start's) whose page data is the
   * running site's, one per event-loop turn: a request arriving meanwhile is answered between two.
   * Resolves to how many are left, neither made here nor given ready (`warm` would render them).
   */
  takeReady(pages: readonly StaticPageRef[]): Promise<number>;
  /** Pages made elsewhere (another process): used like the build's, when their page data matches. */
  adopt(pages: readonly PrebuiltPage[]): void;
};

type Encoding = "br" | "gzip";
type HeaderMap = Record<string, string>;
/**
 * One encoding of a page: its answer made on first use, over HTTP and over HTTPS (HSTS), then
 * cloned for each request (a clone shares the body and costs a sixth of building a response with
 * its 13 headers).
 */
type Variant = { body: Bytes; etag: string; answer(https: boolean, notModified: boolean): Response };
type Page = {
  key: string;
  status: number;
  dataHash: string;
  /** Taken from the build (or the first process) rather than rendered here. */
  prebuilt: boolean;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
  compressing?: Promise<void>;
};

const pageKey = (view: View, locale: Locale, status: number) => `${locale} ${status} ${JSON.stringify(view)}`;

/** Most requests come with one of a few Accept-Encoding values: each is read once. */
function encodingReader(): (header: string | null) => Encoding | null {
  const known = new Map<string, Encoding | null>();
  return (header) => {
    if (header === null) return null;
    let encoding = known.get(header);
    if (encoding === undefined) {
      encoding = pickEncoding(header);
      if (known.size >= 64) known.clear();
      known.set(header, encoding);
    }
    return encoding;
  };
}

const encoder = new TextEncoder();

function variant(body: Bytes, status: number, encoding: Encoding | null): Variant {
  const etag = strongEtag(body);
  const headers: HeaderMap = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": STATIC_PAGE_CACHE_CONTROL,
    vary: "Accept-Encoding",
  };
  if (encoding !== null) headers["content-encoding"] = encoding;
  // Validators only on a 200: preconditions do not apply to a 404 (RFC 9110 §13.2.1).
  if (status === 200) headers.etag = etag;
  const notModified: HeaderMap = { etag, vary: "Accept-Encoding", "cache-control": STATIC_PAGE_CACHE_CONTROL };
  // [over HTTP, over HTTPS] × [the page, 304]
  const made: (Response | undefined)[] = [];
  return {
    body,
    etag,
    answer(https, unchanged) {
      const slot = (https ? 2 : 0) + (unchanged ? 1 : 0);
      let response = made[slot];
      if (response === undefined) {
        const all = { ...securityHeaders(https), ...(unchanged ? notModified : headers) };
        made[slot] = response = unchanged
          ? new Response(null, { status: 304, headers: all })
          : new Response(body, { status, headers: all });
      }
      return response.clone();
    },
  };
}

export function createStaticPages(deps: {
  documents: DocumentRenderer;
  log: Logger;
  config: Pick<Config, "trustProxy">;
  prebuilt?: readonly PrebuiltPage[];
  compress?: Compress;
}): StaticPages {
  const { documents, log, config, compress: compressBody = compressBest } = deps;
  // Several may be given for one page (the build's, the last start's): the one made from the same page data is used.
  const prebuilt = new Map<string, PrebuiltPage[]>();
  const offer = (page: PrebuiltPage) => prebuilt.set(page.key, [page, ...(prebuilt.get(page.key) ?? [])]);
  for (const page of deps.prebuilt ?? []) offer(page);
  let pages = new Map<string, Page>();
  let loading = new Map<string, Promise<Page | null>>();
  let edition = documents.edition();
  let warnedFull = false;
  const encodingOf = encodingReader();
  // The views of pages without a query are the same objects on every request (pages/controller.ts).
  const viewJson = new WeakMap<View, string>();
  const keyOf = (view: View, locale: Locale, status: number) => {
    let json = viewJson.get(view);
    if (json === undefined) viewJson.set(view, (json = JSON.stringify(view)));
    return `${locale} ${status} ${json}`;
  };

  // The texts of a language are most of a page's data and the same object for each of its pages:
  // named once (by the texts as written, which parses none of them), then by that name's hash in each page's.
  const catalogueHashes = new WeakMap<object, string>();
  const hashOf = (data: PageData) => {
    let messages = catalogueHashes.get(data.messages);
    if (messages === undefined)
      catalogueHashes.set(data.messages, (messages = contentHash(encoder.encode(catalogueOrigin(data.messages)))));
    return contentHash(encoder.encode(JSON.stringify({ ...data, messages })));
  };
  /** The page given ready for this key and page data, if any. */
  const givenReady = (key: string, dataHash: string, status: number): Page | undefined => {
    const made = prebuilt.get(key)?.find((page) => page.dataHash === dataHash && page.status === status);
    if (made === undefined) return undefined;
    return {
      key,
      status,
      dataHash,
      prebuilt: true,
      identity: variant(made.html, status, null),
      br: variant(made.br, status, "br"),
      gzip: variant(made.gzip, status, "gzip"),
    };
  };

  const keep = (page: Page, generation: Map<string, Page>) => {
    if (generation !== pages) return;
    if (pages.size >= MAX_PAGES) {
      if (!warnedFull) log.warn("static pages: too many to keep, rendering the rest per request", { kept: pages.size });
      warnedFull = true;
      return;
    }
    pages.set(page.key, page);
  };

  const load = (key: string, view: View, locale: Locale, status: number): Promise<Page | null> => {
    let pending = loading.get(key);
    if (pending !== undefined) return pending;
    const generation = pages;
    const loadingNow = loading;
    pending = (async (): Promise<Page | null> => {
      try {
        const data = documents.pageData(view, locale);
        const dataHash = hashOf(data);
        let page = givenReady(key, dataHash, status);
        if (page === undefined) {
          const html = encoder.encode(await documents.html(data));
          startTrace(`page rendered: ${key}`);
          page = { key, status, dataHash, prebuilt: false, identity: variant(html, status, null) };
        }
        keep(page, generation);
        return page;
      } catch (error) {
        // Not kept: the next request tries again (and logs again).
        log.error("render failed", { page: view.page, error: String(error instanceof Error ? (error.stack ?? error.message) : error) });
        return null;
      } finally {
        loadingNow.delete(key);
      }
    })();
    loading.set(key, pending);
    return pending;
  };

  const compress = (page: Page): Promise<void> => {
    if (page.br !== undefined && page.gzip !== undefined) return Promise.resolve();
    page.compressing ??= compressBody(page.identity.body).then(
      (compressed) => {
        page.br = variant(compressed.br, page.status, "br");
        page.gzip = variant(compressed.gzip, page.status, "gzip");
        if (!page.prebuilt) startTrace(`page compressed: ${page.key}`);
      },
      (error: unknown) => {
        // Tried again by the next request rather than failing every one.
        page.compressing = undefined;
        throw error;
      },
    );
    return page.compressing;
  };

  // Complete answers, security headers included: plainPageAnswers (pages/controller.ts) answers
  // before the request context that sets them for other routes.
  const answer = (request: Request, page: Page, chosen: Variant): Response =>
    chosen.answer(
      isHttps(request, config.trustProxy),
      page.status === 200 && noneMatchHits(request.headers.get("if-none-match"), chosen.etag),
    );

  const respondSlowly = async (request: Request, key: string, view: View, locale: Locale, status: number, encoding: Encoding | null) => {
    const page = pages.get(key) ?? (await load(key, view, locale, status));
    if (page === null) {
      const response = htmlResponse(await errorPageHtml(documents, locale), 500, request.headers.get("accept-encoding"));
      for (const [name, value] of Object.entries(securityHeaders(isHttps(request, config.trustProxy)))) response.headers.set(name, value);
      return response;
    }
    if (encoding === null) return answer(request, page, page.identity);
    await compress(page);
    return answer(request, page, page[encoding] ?? page.identity);
  };

  // The pages are made anew when what they show changes with time: the footer's year on New Year's
  // Day, the early-bird claims when the offer ends.
  const startNewEditionIfDue = () => {
    const now = documents.edition();
    if (now === edition) return;
    pages = new Map();
    loading = new Map();
    edition = now;
  };

  return {
    respond(request, view, locale, status = 200) {
      startNewEditionIfDue();
      const key = keyOf(view, locale, status);
      const encoding = encodingOf(request.headers.get("accept-encoding"));
      const page = pages.get(key);
      const chosen = page === undefined ? undefined : encoding === null ? page.identity : page[encoding];
      if (page !== undefined && chosen !== undefined) return answer(request, page, chosen);
      return respondSlowly(request, key, view, locale, status, encoding);
    },

    async warm(refs) {
      let rendered = 0;
      let reused = 0;
      let failed = 0;
      for (const { view, locale, status = 200 } of refs) {
        startNewEditionIfDue();
        const key = pageKey(view, locale, status);
        const page = pages.get(key) ?? (await load(key, view, locale, status));
        if (page === null) {
          failed++;
          continue;
        }
        if (page.prebuilt) reused++;
        else rendered++;
        await compress(page);
        // A page taken as made is only microtasks: the requests that came meanwhile are answered between two pages.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { rendered, reused, failed };
    },

    finished() {
      const done: PrebuiltPage[] = [];
      for (const page of pages.values()) {
        if (page.br === undefined || page.gzip === undefined) continue;
        done.push({
          key: page.key,
          dataHash: page.dataHash,
          status: page.status,
          html: page.identity.body,
          br: page.br.body,
          gzip: page.gzip.body,
        });
      }
      return done;
    },

    async takeReady(refs) {
      let left = 0;
      for (const { view, locale, status = 200 } of refs) {
        startNewEditionIfDue();
        const key = pageKey(view, locale, status);
        if (pages.has(key)) continue;
        const page = givenReady(key, hashOf(documents.pageData(view, locale)), status);
        if (page === undefined) left++;
        else keep(page, pages);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return left;
    },

    adopt(made) {
      for (const page of made) offer(page);
    },
  };
}
