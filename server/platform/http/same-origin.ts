import { Elysia } from "elysia";
import { endpointAt, LICENSE_API_PREFIX } from "../../../shared/api";
import type { Config } from "../config";
import type { Logger } from "../log";
import { maskPath } from "../log-mask";
import { isHttps, securityHeaders } from "./security";

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Posted by servers and programs, never by a page in a browser, and authenticated otherwise: the
 * Stripe webhook (signed), one-click unsubscribe (RFC 8058: mail providers post it) and the licence
 * API (the desktop app).
 */
const isExempt = (path: string) => endpointAt(path)?.from === "anywhere" || path.startsWith(LICENSE_API_PREFIX);

/**
 * Whether a browser sent this request from another site's page. An Origin header that names
 * another origin settles it, whatever else the request says: Sec-Fetch-Site alone is a client's
 * word, and a page on another port of the same host is "same-site" to a browser but not this site.
 * Without Origin, or with the opaque `null` (what a browser sends for a form posted from a page
 * with `Referrer-Policy: no-referrer`), Sec-Fetch-Site is the browser's own verdict ("none" is the visitor typing or bookmarking); `null`
 * without it is refused. A request with neither header (curl, the desktop app, a mail provider) is
 * not a browser's, so nothing is refused.
 */
export function isCrossSite(request: Request, allowedOrigins: readonly string[]): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null" && !allowedOrigins.includes(origin)) return true;
  const site = request.headers.get("sec-fetch-site");
  if (site === null) return origin === "null";
  return site !== "same-origin" && site !== "none";
}

/**
 * Refuses state-changing requests that another site's page makes a visitor's browser send (a form
 * posting to /api/leads or /api/payment, the test card form): 403, JSON for the API. One hook for
 * every route, so a new endpoint is covered without thinking of it.
 */
export function sameOriginGuard(config: Pick<Config, "publicBaseUrl" | "trustProxy">, log: Logger) {
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  return new Elysia({ name: "same-origin-guard" }).onRequest(({ request }) => {
    if (SAFE_METHODS.has(request.method)) return;
    const url = new URL(request.url);
    if (isExempt(url.pathname)) return;
    // Behind a proxy that ends TLS, the request reaches this server as http: but the browser's origin is https:.
    const ownOrigin = `${isHttps(request, config.trustProxy) ? "https:" : "http:"}//${url.host}`;
    if (!isCrossSite(request, [ownOrigin, url.origin, publicOrigin])) return;

    log.info("cross-site request refused", {
      method: request.method,
      path: maskPath(url.pathname),
      origin: request.headers.get("origin")?.slice(0, 200),
    });
    const headers = securityHeaders(isHttps(request, config.trustProxy));
    if (url.pathname.startsWith("/api/")) return Response.json({ error: "Cross-site request refused" }, { status: 403, headers });
    return new Response("Forbidden: this form was sent from another site.", {
      status: 403,
      headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
    });
  });
}
