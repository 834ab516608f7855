import { Elysia } from "elysia";
import type { Config } from "../config";
import { isHttps, securityHeaders } from "./security";

/**
 * Bun builds `request.url` from the Host header. When that header is unusable ("a b", "a:99999",
 * "a/b") the URL is relative or does not parse, and everything that reads it (routing, the security
 * headers, the error page) would fail: such a request gets 400 here, before anything else runs.
 *
 * HTTP/1.0 allows a request without Host (load balancers' health checks still send them): it is
 * answered as if addressed to the site's public address. `redispatch` is the app's own handler; the
 * rate limiters then count such requests under one shared "unknown" address (the copy has no socket).
 */
export function hostGuard(
  config: Pick<Config, "publicBaseUrl" | "trustProxy"> & Partial<Pick<Config, "tls">>,
  redispatch: (request: Request) => Promise<Response>,
) {
  // Serving HTTPS itself, the app routes from the URL's 12th character (app.ts): a Host shorter
  // than 3 characters ("https://ab/") would shift routing, and no certificate name is that short.
  const shortHostShifts = config.tls != null;
  return new Elysia({ name: "host-guard" }).onRequest(({ request }) => {
    if (URL.canParse(request.url) && !(shortHostShifts && request.url.indexOf("/", 8) < 11)) return;
    if (request.headers.get("host") === null && request.url.startsWith("/")) {
      const { method, headers, body, signal } = request;
      return redispatch(new Request(new URL(request.url, config.publicBaseUrl), { method, headers, body, signal }));
    }
    return Response.json(
      { error: "Bad request: invalid Host header" },
      { status: 400, headers: securityHeaders(isHttps(request, config.trustProxy)) },
    );
  });
}
