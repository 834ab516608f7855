import { forwardedClient, type TrustedProxies } from "./trusted-proxies";

/**
 * The client address used for rate limits and the lead's ip_hash: the socket's, or behind a
 * trusted reverse proxy (TRUST_PROXY) the right-most X-Forwarded-For entry that is not one of the
 * proxies. A peer that is not a trusted proxy cannot choose its address with the header.
 */
export function clientIp(request: Request, socketIp: string | undefined, proxies: TrustedProxies): string {
  return forwardedClient(proxies, socketIp, request.headers.get("x-forwarded-for")) ?? "unknown";
}
