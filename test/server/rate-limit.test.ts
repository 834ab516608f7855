import { expect, test } from "bun:test";
import { createRateLimiter } from "../../server/http/rate-limit";

test("each client gets its own budget, refilled when the window has passed", () => {
  const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
  expect(limiter.take("203.0.113.5", 0)).toEqual({ ok: true });
  expect(limiter.take("203.0.113.5", 1)).toEqual({ ok: true });
  expect(limiter.take("203.0.113.5", 2)).toEqual({ ok: false, retryAfterSeconds: 60 });
  expect(limiter.take("203.0.113.6", 2)).toEqual({ ok: true });
  expect(limiter.take("203.0.113.5", 60_000)).toEqual({ ok: true });
});

test("an IPv6 client moving around its /64 shares one budget (chat, payment and leads alike)", () => {
  const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
  expect(limiter.take("2001:db8:1:2::1", 0).ok).toBe(true);
  expect(limiter.take("2001:db8:1:2:aaaa::9", 0).ok).toBe(true);
  expect(limiter.take("2001:db8:1:2:ffff:ffff:ffff:ffff", 0).ok).toBe(false);
  expect(limiter.take("2001:db8:1:3::1", 0).ok).toBe(true);
  // An IPv4 client seen through an IPv4-mapped address is the same client.
  expect(limiter.take("198.51.100.7", 0).ok).toBe(true);
  expect(limiter.take("::ffff:198.51.100.7", 0).ok).toBe(true);
  expect(limiter.take("198.51.100.7", 0).ok).toBe(false);
});
