import type { RateLimitStore } from "./rate-limit-store";

/**
 * A fixed-window counter per client, kept in the shared store (rate-limit-store.ts), so the limit
 * holds across every server process on one data folder. `take` is given the client's address and
 * answers whether the call is allowed and, when it is not, how many seconds until it is. Addresses
 * are counted by `rateLimitKey`, so an IPv6 client cannot escape its limit by moving around its
 * /64. `name` keeps each limiter's counts apart in the one store.
 *
 * When the store cannot count (its file locked or the disk full), the call is allowed: losing the
 * limit for a moment is better than refusing every visitor; the store logs it.
 */
export type RateLimiter = { take(ip: string, now?: number): { ok: true } | { ok: false; retryAfterSeconds: number } };

export function createRateLimiter(store: RateLimitStore, options: { name: string; limit: number; windowMs: number }): RateLimiter {
  return {
    take(ip, now = Date.now()) {
      const counted = store.hit(`${options.name}:${rateLimitKey(ip)}`, options.limit, options.windowMs, now);
      if (counted === null || counted.count <= options.limit) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((counted.resetAt - now) / 1000)) };
    },
  };
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
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
