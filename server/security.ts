import { randomBytes } from "node:crypto";

export const newNonce = () => randomBytes(16).toString("base64");

/**
 * Headers for every response. Scripts run only with this request's nonce (no 'unsafe-inline');
 * the pay form may post to Stripe's hosted page, which a 303 from /api/payment leads to.
 */
export function securityHeaders(nonce: string, https: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
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
  const headers: Record<string, string> = {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    // Nothing of the site is meant to be embedded by other sites (images, video, scripts).
    "cross-origin-resource-policy": "same-origin",
  };
  if (https) headers["strict-transport-security"] = "max-age=63072000; includeSubDomains";
  return headers;
}

/** HTTPS when the request came over TLS, or through a trusted proxy that says so. */
export function isHttps(request: Request, trustProxy: boolean): boolean {
  // A string test, not `new URL()`: this also runs for error answers, where the URL may be unusable.
  if (request.url.startsWith("https:")) return true;
  return trustProxy && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}
