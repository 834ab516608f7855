/**
 * The Content-Security-Policy of every response. Scripts run only from the site's own origin: the
 * pages have no inline script (their data is a `<script type="application/json">`, which is never
 * executed), so no per-request nonce is needed and a page's bytes are the same for every visitor
 * (pages are rendered and compressed once, decision 010). The pay form may post to Stripe's hosted
 * page, which a 303 from /api/payment leads to.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self' https://checkout.stripe.com",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "manifest-src 'self'",
].join("; ");

const OVER_HTTP: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  // Nothing of the site is meant to be embedded by other sites (images, video, scripts).
  "cross-origin-resource-policy": "same-origin",
});
const OVER_HTTPS: Readonly<Record<string, string>> = Object.freeze({
  ...OVER_HTTP,
  "strict-transport-security": "max-age=63072000; includeSubDomains",
});

/** Headers for every response (the same object each time: copy it to add to it). */
export function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  return https ? OVER_HTTPS : OVER_HTTP;
}

/** HTTPS when the request came over TLS, or through a trusted proxy that says so. */
export function isHttps(request: Request, trustProxy: boolean): boolean {
  // A string test, not `new URL()`: this also runs for error answers, where the URL may be unusable.
  if (request.url.startsWith("https:")) return true;
  return trustProxy && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}
