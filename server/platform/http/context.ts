import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Config } from "../config";
import { clientIp } from "./client-ip";
import { isHttps, securityHeaders } from "./security";

/**
 * Per-request values every controller can read: the client address. The security headers are set
 * here, on every response, with `Cache-Control: no-store` as the default: an answer that depends on
 * the visitor, an order or the database is kept by no cache; the pages that are the same for
 * everyone and the static files set their own. Controllers `.use()` it for the types; Elysia runs it
 * once per request because it is named.
 */
export function requestContext(config: Pick<Config, "trustProxy" | "trustedProxies">) {
  return new Elysia({ name: "request-context" }).derive({ as: "global" }, ({ request, set, server }) => {
    Object.assign(set.headers, securityHeaders(isHttps(request, config.trustProxy)));
    set.headers["cache-control"] = "no-store";
    return { ip: clientAddress(config)({ request, server }) };
  });
}

/** Where a request comes from, also before the derive above has run (a route's parse hook). */
export function clientAddress(config: Pick<Config, "trustedProxies">) {
  return ({ request, server }: { request: Request; server: Pick<Server, "requestIP"> | null }): string =>
    clientIp(request, server?.requestIP(request)?.address, config.trustedProxies);
}
