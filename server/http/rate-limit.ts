/**
 * A fixed-window counter per client, in memory (one process, one server: see README). `take` is
 * given the client's address and answers whether the call is allowed and, when it is not, how many
 * seconds until it is. Addresses are counted by `rateLimitKey`, so an IPv6 client cannot escape
 * its limit by moving around its /64.
 */
export type RateLimiter = { take(ip: string, now?: number): { ok: true } | { ok: false; retryAfterSeconds: number } };

export function createRateLimiter(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const maxKeys = options.maxKeys ?? 50_000;
  return {
    take(ip, now = Date.now()) {
      const key = rateLimitKey(ip);
      let w = windows.get(key);
      if (w === undefined || now - w.start >= options.windowMs) {
        if (windows.size >= maxKeys) prune(now);
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= options.limit) {
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + options.windowMs - now) / 1000)) };
      }
      w.count += 1;
      return { ok: true };
    },
  };

  function prune(now: number) {
    for (const [k, w] of windows) if (now - w.start >= options.windowMs) windows.delete(k);
    // Still full: drop the oldest entries rather than grow without bound.
    for (const k of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(k);
    }
  }
}

/**
 * The rate-limit key for a client address. An IPv6 subscriber is usually given a whole /64 and can
 * pick a new address in it for every request, so IPv6 clients are counted per /64; IPv4 (also
 * IPv4-mapped IPv6) per address. Anything unparsable counts as itself.
 */
export function rateLimitKey(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, "");
  if (!address.includes(":")) return address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  const halves = address.split("::");
  if (halves.length > 2) return address;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return address;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return address;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}
