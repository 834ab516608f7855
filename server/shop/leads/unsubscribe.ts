import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE, isLocale } from "../../../shared/locales";
import type { AppDeps } from "../../deps";
import { HttpError, readRawBody } from "../../platform/http/body";
import { requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { unsubscribeLead } from "./service";

/** The token of an unsubscribe link: 128 random bits in hex (leads/service.ts). */
const Token = v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/));
/** RFC 8058's body is one short key=value pair. */
const UNSUBSCRIBE_MAX_BODY_BYTES = 4 * 1024;
/**
 * Per client, the link and the one-click post together: each try is a write. A person clicks once or
 * twice; a mail provider posts one-click for each of its users who asks, from a few addresses, so the
 * limit leaves room for a busy one. Tokens are 128 random bits: the limit is about the writer's time.
 */
export const UNSUBSCRIBE_RATE_LIMIT = { limit: 30, windowMs: 10 * 60 * 1000 } as const;

/**
 * The lead e-mail's unsubscribe address (`/unsubscribe?token=`): a GET from the visible link and the
 * one-click POST that mail providers send for the List-Unsubscribe header (RFC 8058) both mark the
 * lead, at once and without JavaScript; repeating either changes nothing.
 */
export function unsubscribeController(deps: AppDeps) {
  const { config, write, log, render, now } = deps;
  const fail = failureResponder(deps);
  const tokenOf = (query: Record<string, string | undefined>) => v.safeParse(Token, query.token);
  const limiter = createRateLimiter(deps.rateLimits, { name: "unsubscribe", ...UNSUBSCRIBE_RATE_LIMIT });

  return (
    new Elysia({ name: "unsubscribe" })
      .use(requestContext(config))
      // A write: with the database locked past the wait, the error handler (app.ts) answers 503.
      .get(ENDPOINTS.unsubscribe.path, async ({ request, query, ip }) => {
        const allowed = limiter.take(ip);
        if (!allowed.ok) {
          const page = await render({
            view: { page: "unsubscribe", state: "rate-limited" },
            locale: DEFAULT_LOCALE,
            status: 429,
            acceptEncoding: request.headers.get("accept-encoding"),
          });
          page.headers.set("retry-after", String(allowed.retryAfterSeconds));
          page.headers.set("referrer-policy", "strict-origin");
          return page;
        }
        const token = tokenOf(query);
        const lead = token.success ? await unsubscribeLead(write, token.output, now()) : null;
        if (lead !== null) log.info("lead unsubscribed", { via: "link" });
        const locale = lead !== null && isLocale(lead.locale) ? lead.locale : DEFAULT_LOCALE;
        const page = await render({
          view: { page: "unsubscribe", state: lead === null ? "unknown" : "done" },
          locale,
          status: lead === null ? 404 : 200,
          acceptEncoding: request.headers.get("accept-encoding"),
        });
        // Its address holds the lead's token: no Referer carries it to another site.
        page.headers.set("referrer-policy", "strict-origin");
        return page;
      })
      .post(
        ENDPOINTS.unsubscribe.path,
        async ({ request, query, ip }) => {
          try {
            const allowed = limiter.take(ip);
            if (!allowed.ok)
              throw new HttpError(429, `Too many requests, try again in ${allowed.retryAfterSeconds} s`, {
                "retry-after": String(allowed.retryAfterSeconds),
              });
            await readRawBody(request, UNSUBSCRIBE_MAX_BODY_BYTES);
          } catch (error) {
            return fail(error, { request, locale: DEFAULT_LOCALE, what: "unsubscribe not read" });
          }
          const token = tokenOf(query);
          const lead = token.success ? await unsubscribeLead(write, token.output, now()) : null;
          if (lead === null) return Response.json({ error: "Unknown unsubscribe link" }, { status: 404 });
          log.info("lead unsubscribed", { via: "one-click" });
          return Response.json({ unsubscribed: true });
        },
        { parse: "none" },
      )
  );
}
