import type { Server } from "bun";
import { Elysia } from "elysia";
import type { Config } from "../config";
import { FORWARDED_HEADERS, isTrustedPeer } from "./trusted-proxies";

/** The part of Bun's server that tells a request's peer. */
export type PeerOf = Pick<Server<unknown>, "requestIP">;

/**
 * Registered first: a request whose peer is not one of the trusted proxies loses its
 * X-Forwarded-For, X-Forwarded-Proto and X-Request-Id before anything reads them (the access log's
 * request id, HTTPS detection, the client address of the rate limits), so the rest of the site can
 * read them wherever TRUST_PROXY is on without asking who sent them.
 */
export function forwardedHeadersGuard(config: Pick<Config, "trustedProxies">) {
  const drop = untrustedForwardedHeadersDropper(config);
  return new Elysia({ name: "forwarded-headers" }).onRequest(({ request, server }) => drop(request, server));
}

/** What the guard does, for a request answered without Elysia (app.ts's page routes). */
export function untrustedForwardedHeadersDropper(config: Pick<Config, "trustedProxies">) {
  // Without trusted proxies no peer is one: no need to ask the socket whose it is.
  const noProxy = config.trustedProxies.kind === "none";
  return (request: Request, server: PeerOf | null): void => {
    if (!noProxy && isTrustedPeer(config.trustedProxies, server?.requestIP(request)?.address)) return;
    for (const name of FORWARDED_HEADERS) request.headers.delete(name);
  };
}
