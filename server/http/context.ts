import { Elysia } from "elysia";
import type { Config } from "../config";
import { isHttps, newNonce, securityHeaders } from "../security";
import { clientIp } from "./client-ip";

/**
 * Per-request values every controller can read: the CSP nonce (the security headers are set here,
 * on every response) and the client address. Controllers `.use()` it for the types; Elysia runs it
 * once per request because it is named.
 */
export function requestContext(config: Pick<Config, "trustProxy">) {
  return new Elysia({ name: "request-context" }).derive({ as: "global" }, ({ request, set, server }) => {
    const nonce = newNonce();
    Object.assign(set.headers, securityHeaders(nonce, isHttps(request, config.trustProxy)));
    const ip = clientIp(request, server?.requestIP(request)?.address, config.trustProxy);
    return { nonce, ip };
  });
}
