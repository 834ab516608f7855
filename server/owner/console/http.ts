import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import { compressForOneAnswer } from "../../platform/http/compress";
import { isHttps, securityHeaders } from "../../platform/http/security";

/**
 * The console's policy: the site's, without the one outside address the site needs (Stripe's
 * payment page as a form target). Scripts and styles from the site's own origin only, no inline code.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join("; ");

/** Every console answer: never cached, never indexed, never framed. */
export function consoleHeaders(https: boolean): Record<string, string> {
  return {
    ...securityHeaders(https),
    "content-security-policy": CONSOLE_CSP,
    "cache-control": "no-store",
    "x-robots-tag": "noindex, nofollow",
    "referrer-policy": "strict-origin",
  };
}

/** What the console writes for one request and is worth compressing: its pages, its JSON, the leads' CSV. */
const COMPRESSIBLE = /^(text\/html|application\/json|text\/csv)\b/;

/**
 * A console answer compressed as the client accepts (the site's per-request pages' way), with the
 * Vary that tells a cache the body depends on Accept-Encoding. Files already compressed (the
 * console's script and stylesheet) and empty answers (redirects) go as they are.
 */
export async function compressAnswer(request: Request, response: Response): Promise<Response> {
  if (response.body === null || response.headers.has("content-encoding")) return response;
  if (!COMPRESSIBLE.test(response.headers.get("content-type") ?? "")) return response;
  const headers = new Headers(response.headers);
  headers.set("vary", "Accept-Encoding");
  const { body, encoding } = compressForOneAnswer(new Uint8Array(await response.arrayBuffer()), request.headers.get("accept-encoding"));
  if (encoding !== null) headers.set("content-encoding", encoding);
  return new Response(body, { status: response.status, headers });
}

export const html = (body: string, https: boolean, status = 200, extra: Record<string, string> = {}) =>
  new Response(`<!DOCTYPE html>${body}`, {
    status,
    headers: { ...consoleHeaders(https), "content-type": "text/html; charset=utf-8", ...extra },
  });

export const json = (body: unknown, https: boolean, status = 200, extra: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { ...consoleHeaders(https), ...extra } });

export const redirect = (location: string, https: boolean, extra: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { ...consoleHeaders(https), location, ...extra } });

/**
 * The session cookie's name: with the `__Host-` prefix over HTTPS (the browser then insists on
 * Secure, Path=/ and no Domain, so no other host can set or read it); on plain-HTTP localhost,
 * where a browser refuses Secure cookies, without it.
 */
export const sessionCookieName = (https: boolean) => (https ? "__Host-owner" : "owner");

export function sessionCookie(token: string, https: boolean): string {
  return https
    ? `${sessionCookieName(true)}=${token}; Path=/; HttpOnly; Secure; SameSite=Strict`
    : `${sessionCookieName(false)}=${token}; Path=/admin; HttpOnly; SameSite=Strict`;
}

export function clearedSessionCookie(https: boolean): string {
  return https
    ? `${sessionCookieName(true)}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`
    : `${sessionCookieName(false)}=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0`;
}

export function readSessionToken(request: Request, https: boolean): string | null {
  const name = sessionCookieName(https);
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      const value = rest.join("=");
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** The owner's language: the first of the browser's languages the console speaks, else French. */
export function ownerLocale(request: Request): Locale {
  const header = request.headers.get("accept-language") ?? "";
  for (const part of header.split(",")) {
    const tag = part.split(";")[0]?.trim().slice(0, 2).toLowerCase();
    const found = LOCALES.find((l) => l === tag);
    if (found !== undefined) return found;
  }
  return DEFAULT_LOCALE;
}

export { isHttps };
