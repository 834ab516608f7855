/**
 * A fixed-window counter per key, in memory (one process, one server: see README). `take` answers
 * whether the call is allowed and, when it is not, how many seconds until it is.
 */
export type RateLimiter = { take(key: string, now?: number): { ok: true } | { ok: false; retryAfterSeconds: number } };

export function createRateLimiter(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const maxKeys = options.maxKeys ?? 50_000;
  return {
    take(key, now = Date.now()) {
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
