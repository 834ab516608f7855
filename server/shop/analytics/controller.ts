import { Elysia } from "elysia";
import { BEACON_MAX_BYTES } from "../../../shared/analytics";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE } from "../../../shared/locales";
import { BeaconSchema } from "../../../shared/schemas/analytics";
import type { AppDeps } from "../../deps";
import { HttpError } from "../../platform/http/body";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";

/**
 * Per client address: a page view, a few events and three speed measures per page. A person reading
 * pages sends far fewer in a minute; a script sending more is cut off before its body is read.
 */
export const BEACON_RATE_LIMIT = { limit: 120, windowMs: 60 * 1000 } as const;

/**
 * POST /api/beacon: the page's script reports a page view or an event (docs/audience.md). sendBeacon
 * sends a string as text/plain, so JSON comes as text/plain or application/json. The answer is 204
 * and empty once the beacon is checked; it is written to the database a second later, never while
 * the visitor waits.
 */
export function beaconController(deps: AppDeps) {
  const limiter = createRateLimiter(deps.rateLimits, { name: "beacon", ...BEACON_RATE_LIMIT });
  const fail = failureResponder(deps);
  const beaconBody = bodyParser({
    maxBytes: BEACON_MAX_BYTES,
    accept: ["plain-json", "json"],
    before: countedBy(clientAddress(deps.config), [limiter], (s) => `Rate limit exceeded: too many beacons, try again in ${s} s`),
  });
  return new Elysia({ name: "analytics-beacon" }).use(requestContext(deps.config)).post(
    ENDPOINTS.beacon.path,
    async ({ request, ip, body: beacon }) => {
      try {
        const outcome = deps.analytics.recordBeacon(beacon, { ip, userAgent: request.headers.get("user-agent") });
        if (outcome === "unknown-page") throw new HttpError(422, "path: not a page of this site");
        return new Response(null, { status: 204 });
      } catch (error) {
        return fail(error, { request, locale: DEFAULT_LOCALE, what: "beacon not recorded" });
      }
    },
    { parse: beaconBody, body: BeaconSchema },
  );
}
