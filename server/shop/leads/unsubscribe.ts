import { Elysia } from "elysia";
import * as v from "valibot";
import { DEFAULT_LOCALE, isLocale } from "../../../shared/locales";
import type { AppDeps } from "../../deps";
import { readRawBody } from "../../platform/http/body";
import { requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { unsubscribeLead } from "./service";
import { ENDPOINTS } from "../../../shared/api";

/** The token of an unsubscribe link: 128 random bits in hex (leads/service.ts). */
const Token = v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/));
/** RFC 8058's body is one short key=value pair. */
const UNSUBSCRIBE_MAX_BODY_BYTES = 4 * 1024;

/**
 * The lead e-mail's unsubscribe address (`/unsubscribe?token=`): a GET from the visible link and the
 * one-click POST that mail providers send for the List-Unsubscribe header (RFC 8058) both mark the
 * lead, at once and without JavaScript; repeating either changes nothing.
 */
export function unsubscribeController(deps: AppDeps) {
  const { config, write, log, render, now } = deps;
  const fail = failureResponder(deps);
  const tokenOf = (query: Record<string, string | undefined>) => v.safeParse(Token, query.token);

  return (
    new Elysia({ name: "unsubscribe" })
      .use(requestContext(config))
      // A write: with the database locked past the wait, the error handler (app.ts) answers 503.
      .get(ENDPOINTS.unsubscribe.path, async ({ request, query }) => {
        const token = tokenOf(query);
        const lead = token.success ? await unsubscribeLead(write, token.output, now()) : null;
        if (lead !== null) log.info("lead unsubscribed", { via: "link" });
        const locale = lead !== null && isLocale(lead.locale) ? lead.locale : DEFAULT_LOCALE;
        return render({
          view: { page: "unsubscribe", state: lead === null ? "unknown" : "done" },
          locale,
          status: lead === null ? 404 : 200,
          acceptEncoding: request.headers.get("accept-encoding"),
        });
      })
      .post(
        ENDPOINTS.unsubscribe.path,
        async ({ request, query }) => {
          try {
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
