/**
 * The client address used for rate limits and the lead's ip_hash. X-Forwarded-For is trusted only
 * when TRUST_PROXY is set (the server sits behind a reverse proxy that overwrites it); then the
 * right-most entry is the one the proxy saw.
 */
export function clientIp(request: Request, socketIp: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last;
  }
  return socketIp ?? "unknown";
}
