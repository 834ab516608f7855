import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import { pathFor } from "../../../shared/routes";
import { OrderLinkTokenSchema, RefundRequestSchema } from "../../../shared/schemas/orders";
import type { AppDeps } from "../../deps";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter, type RateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { askRefund, refundPageState } from "./guarantee";
import { orderLinkQuery, readOrderLink } from "./order-links";
import { ProviderError } from "./provider";

/**
 * Every look at an order's pages (success, refund) and every refund confirmation, per client: a
 * buyer reloads a few times (a pending page looks again every 4 or 5 s), a script trying links
 * gets nowhere.
 */
export const ORDER_PAGES_RATE_LIMIT = { limit: 120, windowMs: 10 * 60 * 1000 } as const;
const MAX_BODY_BYTES = 4 * 1024;
const Flash = v.picklist(["error", "rate-limited"]);

/** The order pages' and the refund form's limiter: one count per client (the store is AppDeps', shared by every process). */
export const orderPagesLimiter = (deps: Pick<AppDeps, "rateLimits">): RateLimiter =>
  createRateLimiter(deps.rateLimits, { name: "order-pages", ...ORDER_PAGES_RATE_LIMIT });

/** The refund page of a signed link: rendered per request, never cached, its address never sent on. */
export async function refundPage(
  deps: AppDeps,
  request: Request,
  locale: Locale,
  query: URLSearchParams,
  ip: string,
  limiter: RateLimiter,
) {
  const allowed = limiter.take(ip);
  const reference = allowed.ok ? await readOrderLink(deps.licenseKeys, query) : null;
  const flash = v.safeParse(Flash, query.get("status") ?? "");
  const token = query.get("t") ?? "";
  const refund =
    reference === null
      ? { state: "invalid" as const }
      : refundPageState(deps, reference, token, locale, flash.success ? flash.output : undefined);
  const response = await deps.render({
    view: { page: "refund", refund },
    locale,
    // An unknown, altered or guessed link finds nothing, as an unknown page does.
    status: refund.state === "invalid" ? (allowed.ok ? 404 : 429) : 200,
    acceptEncoding: request.headers.get("accept-encoding"),
    query: reference === null ? "" : orderLinkQuery(reference, token),
  });
  response.headers.set("referrer-policy", "strict-origin");
  if (!allowed.ok) response.headers.set("retry-after", String(allowed.retryAfterSeconds));
  return response;
}

/** What a refused refund form still says of its link: its page, in its language, is where it goes back to. */
const RefundFormLink = v.object({ locale: v.picklist(LOCALES), order: v.string(), t: OrderLinkTokenSchema });

/** POST /api/refund: the refund page's one confirmation (a plain form post; JSON answers JSON). */
export function refundController(deps: AppDeps) {
  const limiter = orderPagesLimiter(deps);
  const fail = failureResponder(deps);
  /** Back to the refund page of the link (`back`, its query), saying why when something went wrong. */
  const page = (locale: Locale, back: string | null, flag?: "error" | "rate-limited") =>
    new Response(null, {
      status: 303,
      headers: {
        location:
          back === null ? pathFor("refund", locale) : `${pathFor("refund", locale)}${back}${flag === undefined ? "" : `&status=${flag}`}`,
        "referrer-policy": "strict-origin",
      },
    });
  const refundBody = bodyParser({
    maxBytes: MAX_BODY_BYTES,
    before: countedBy(clientAddress(deps.config), [limiter], (s) => `Too many requests, try again in ${s} s`),
    back: (sent, why) => {
      const link = v.safeParse(RefundFormLink, sent);
      const flag = why === "rate-limited" ? "rate-limited" : "error";
      if (!link.success) return page(DEFAULT_LOCALE, null, flag);
      return page(link.output.locale, orderLinkQuery(encodeURIComponent(link.output.order), link.output.t), flag);
    },
  });
  return new Elysia({ name: "order-refund" }).use(requestContext(deps.config)).post(
    ENDPOINTS.refund.path,
    async ({ request, body: input }) => {
      const isForm = isFormPost(request);
      const { locale } = input;
      let back = orderLinkQuery(encodeURIComponent(input.order), input.t);
      try {
        const reference = await readOrderLink(deps.licenseKeys, new URLSearchParams({ order: input.order, t: input.t }));
        if (reference === null) {
          if (isForm) return page(locale, back);
          return Response.json({ error: "This link is not valid: use the link of your access e-mail" }, { status: 403 });
        }
        back = orderLinkQuery(reference, input.t);
        const outcome = await askRefund(deps, reference);
        deps.log.info("guarantee refund asked by the buyer", { outcome });
        if (outcome === "refunded" || outcome === "requested") deps.mailer.wake();
        if (isForm) return page(locale, back, outcome === "no-stripe" ? "error" : undefined);
        if (outcome === "closed") return Response.json({ error: "The 7-day guarantee of this order has ended", outcome }, { status: 409 });
        if (outcome === "free")
          return Response.json({ error: "Nothing was paid for this free access: there is nothing to refund", outcome }, { status: 409 });
        if (outcome === "not-paid" || outcome === "not-found" || outcome === "no-stripe")
          return Response.json({ error: "This order cannot be refunded here: write to support", outcome }, { status: 409 });
        return Response.json({ outcome });
      } catch (error) {
        if (error instanceof ProviderError) {
          deps.log.warn("guarantee refund refused by the provider", { detail: error.detail, requestId: error.requestId });
          if (isForm) return page(locale, back, "error");
          return Response.json(
            { error: "The payment provider did not refund the payment; nothing was changed: try again" },
            { status: 502 },
          );
        }
        return fail(error, {
          request,
          locale,
          what: "guarantee refund not handled",
          back: (why) => page(locale, back, why === "rate-limited" ? "rate-limited" : "error"),
        });
      }
    },
    { parse: refundBody, body: RefundRequestSchema },
  );
}
