import { Elysia } from "elysia";
import * as v from "valibot";
import { REVIEW_DELETE, REVIEW_POST, REVIEW_STOP } from "../../../shared/api";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "../../../shared/locales";
import {
  checkReviewForm,
  REVIEW_TEXT_MAX,
  type ReviewFieldError,
  ReviewFormSchema,
  type ReviewFormValues,
  ReviewKeySchema,
  type ReviewPageState,
  type ReviewStopState,
} from "../../../shared/reviews";
import { pathFor } from "../../../shared/routes";
import type { AppDeps } from "../../deps";
import { HttpError, readBody } from "../../platform/http/body";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import type { RateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { orderPagesLimiter } from "../checkout/refund-controller";
import { stopReviewMail } from "./invites";
import { readReviewLink } from "./links";
import {
  deleteReview,
  isRefusalReason,
  namesOf,
  type ReviewOrder,
  reviewOfOrder,
  reviewOrderByReference,
  saveReview,
  testOrdersVerify,
} from "./store";

// The review page of an order (`/mon-avis?order=&k=`, no account: the link is the capability), its
// form (write, edit, delete: plain form posts, the same with or without JavaScript) and the stop
// link of the review e-mails. Every look counts among the client's order pages (the refund and
// devices pages' limiter): a script trying links gets nowhere. Nothing is stored on a bad post.

const MAX_BODY_BYTES = 16 * 1024;
const Flash = v.picklist(["saved", "deleted", "rate-limited", "error"]);
const DeleteForm = v.object({ order: v.pipe(v.string(), v.maxLength(40)), k: ReviewKeySchema, locale: v.optional(v.picklist(LOCALES)) });

const EMPTY_VALUES: ReviewFormValues = { rating: null, text: "", nameStyle: "first-initial", city: "", consent: false };

/** Whether a review may be written for this order now: paid and not refunded. */
const reviewable = (order: ReviewOrder) => order.status === "paid";

/** A production site's test-checkout order: nobody paid, so its review would be no verified purchase. */
const unpaidTest = (deps: Pick<AppDeps, "config">, order: ReviewOrder) => order.provider === "test" && !testOrdersVerify(deps.config.env);

function openState(
  deps: Pick<AppDeps, "db">,
  order: ReviewOrder,
  key: string,
  extra: { values?: ReviewFormValues; errors?: ReviewFieldError[]; flash?: v.InferOutput<typeof Flash> },
): ReviewPageState {
  const review = reviewOfOrder(deps.db, order.id);
  const stored: ReviewFormValues | null =
    review === null
      ? null
      : { rating: review.rating, text: review.text, nameStyle: review.nameStyle, city: review.city ?? "", consent: true };
  const reason = review?.refusalReason ?? null;
  return {
    state: "open",
    reference: order.reference,
    link: { order: order.reference, k: key },
    names: namesOf(order),
    values: extra.values ?? stored ?? { ...EMPTY_VALUES, city: "" },
    errors: extra.errors ?? [],
    existing:
      review === null
        ? null
        : {
            status: review.status,
            refusalReason: reason !== null && isRefusalReason(reason) ? reason : null,
            reply: review.reply,
          },
    ...(extra.flash !== undefined ? { flash: extra.flash } : {}),
  };
}

/** The status of a redirect back from a post with errors: the typed fields ride along in the query. */
const TYPED_BACK = "invalid";
/** What a failed post sends back at most of the text: enough to show "too long", never a huge address. */
const TEXT_BACK_MAX = REVIEW_TEXT_MAX + 100;

/** The typed values and their errors, when the page is the redirect after a post with errors. */
function typedBack(query: URLSearchParams): { values?: ReviewFormValues; errors?: ReviewFieldError[] } {
  if (query.get("status") !== TYPED_BACK) return {};
  const form = v.safeParse(ReviewFormSchema, {
    order: query.get("order") ?? "",
    k: query.get("k") ?? "",
    rating: query.get("rating") ?? "",
    text: query.get("text") ?? "",
    nameStyle: query.get("nameStyle") ?? "first-initial",
    city: query.get("city") ?? "",
    consent: query.get("consent") ?? "",
  });
  return form.success ? checkReviewForm(form.output) : {};
}

/** The page of a review link: rendered per request, never kept by a cache, its address never sent on. */
export async function reviewPage(
  deps: AppDeps,
  request: Request,
  locale: Locale,
  query: URLSearchParams,
  ip: string,
  limiter: RateLimiter,
): Promise<Response> {
  const allowed = limiter.take(ip);
  const secret = deps.paperwork.linkSecret;
  const reference = allowed.ok ? readReviewLink(secret, query.get("order"), query.get("k"), "review") : null;
  const order = reference === null ? null : reviewOrderByReference(deps.db, reference);
  const flash = v.safeParse(Flash, query.get("status") ?? "");
  let review: ReviewPageState = { state: "invalid" };
  if (order !== null && reference !== null)
    review = unpaidTest(deps, order)
      ? { state: "test-order", reference }
      : reviewable(order)
        ? openState(deps, order, query.get("k") ?? "", { flash: flash.success ? flash.output : undefined, ...typedBack(query) })
        : { state: "closed", reference };
  return renderReview(deps, request, locale, review, allowed.ok ? (review.state === "invalid" ? 404 : 200) : 429, allowed);
}

async function renderReview(
  deps: AppDeps,
  request: Request,
  locale: Locale,
  review: ReviewPageState,
  status: number,
  allowed: { ok: boolean; retryAfterSeconds?: number },
): Promise<Response> {
  const response = await deps.render({
    view: { page: "review", review },
    locale,
    status,
    acceptEncoding: request.headers.get("accept-encoding"),
    // Switching language keeps the link.
    query: review.state === "open" ? `?order=${review.link.order}&k=${review.link.k}` : "",
  });
  // The link opens the buyer's review: no other site learns it from a Referer.
  response.headers.set("referrer-policy", "strict-origin");
  if (!allowed.ok && allowed.retryAfterSeconds !== undefined) response.headers.set("retry-after", String(allowed.retryAfterSeconds));
  return response;
}

/** POST /api/reviews (write or edit), POST /api/reviews/delete, and the stop link /reviews/stop. */
export function reviewsController(deps: AppDeps) {
  const limiter = orderPagesLimiter(deps);
  const fail = failureResponder(deps);
  const clientIp = clientAddress(deps.config);
  const tooManyRequests = (seconds: number) => `Too many requests, try again in ${seconds} s`;
  const secret = () => deps.paperwork.linkSecret;
  const back = (
    locale: Locale,
    order: string,
    k: string,
    flag: v.InferOutput<typeof Flash> | typeof TYPED_BACK,
    typed: Record<string, string> = {},
  ) =>
    new Response(null, {
      status: 303,
      headers: {
        location: `${pathFor("review", locale)}?order=${encodeURIComponent(order)}&k=${k}&status=${flag}${
          Object.keys(typed).length === 0 ? "" : `&${new URLSearchParams(typed).toString()}`
        }`,
        "referrer-policy": "strict-origin",
      },
    });

  const stopPage = async (
    request: Request,
    locale: Locale,
    stop: ReviewStopState,
    link: { order: string; k: string } | null,
    status = 200,
  ) => {
    const response = await deps.render({
      view: { page: "review-stop", stop, link },
      locale,
      status,
      acceptEncoding: request.headers.get("accept-encoding"),
    });
    response.headers.set("referrer-policy", "strict-origin");
    return response;
  };
  const stopLocale = (query: URLSearchParams): Locale => {
    const lang = query.get("lang") ?? "";
    return isLocale(lang) ? lang : DEFAULT_LOCALE;
  };

  return (
    new Elysia({ name: "reviews" })
      .use(requestContext(deps.config))
      .post(
        REVIEW_POST.path,
        async ({ request, body: form }) => {
          const isForm = isFormPost(request);
          const { locale } = form;
          try {
            const reference = readReviewLink(secret(), form.order, form.k, "review");
            const order = reference === null ? null : reviewOrderByReference(deps.db, reference);
            // A guessed link, or another order's: refused, nothing stored.
            if (order === null) {
              if (isForm) return renderReview(deps, request, locale, { state: "invalid" }, 403, { ok: true });
              return Response.json({ error: "This link is not valid: use the link of your e-mail" }, { status: 403 });
            }
            if (unpaidTest(deps, order)) {
              if (isForm)
                return renderReview(deps, request, locale, { state: "test-order", reference: order.reference }, 403, { ok: true });
              return Response.json({ error: "Reviews come from real purchases only: this is a test order" }, { status: 403 });
            }
            if (!reviewable(order)) {
              if (isForm) return renderReview(deps, request, locale, { state: "closed", reference: order.reference }, 409, { ok: true });
              return Response.json({ error: "This order can no longer be reviewed" }, { status: 409 });
            }
            const { values, errors } = checkReviewForm(form);
            if (errors.length > 0 || values.rating === null) {
              // Post/Redirect/Get: the page with its errors and the typed text is a GET, so reloading it posts nothing again.
              if (isForm)
                return back(locale, order.reference, form.k, TYPED_BACK, {
                  rating: form.rating,
                  text: form.text.slice(0, TEXT_BACK_MAX),
                  nameStyle: form.nameStyle,
                  city: form.city,
                  consent: form.consent,
                });
              return Response.json({ error: "The review is not complete", fields: errors }, { status: 422 });
            }
            const displayName = namesOf(order)[values.nameStyle];
            const outcome = await saveReview(deps.write, order.id, { ...values, rating: values.rating, displayName, locale }, deps.now());
            if (outcome === "closed") {
              if (isForm) return renderReview(deps, request, locale, { state: "closed", reference: order.reference }, 409, { ok: true });
              return Response.json({ error: "This order can no longer be reviewed" }, { status: 409 });
            }
            deps.log.info("review saved, waiting for moderation", { orderId: order.id });
            if (isForm) return back(locale, order.reference, form.k, "saved");
            return Response.json({ outcome: "saved" });
          } catch (error) {
            return fail(error, { request, locale, what: "review not saved" });
          }
        },
        {
          // Counted before the body is read. A refused form post goes back to its review page saying
          // why (too many tries, or a post no form of the page sends); a script gets the JSON refusal.
          parse: bodyParser({
            maxBytes: MAX_BODY_BYTES,
            before: countedBy(clientIp, [limiter], tooManyRequests),
            back: (sent, why) => {
              const link = v.safeParse(DeleteForm, sent);
              const flag = why === "rate-limited" ? "rate-limited" : "error";
              if (!link.success) {
                // No link to go back to: the review page says the link is not valid, in the form's language.
                const lang = v.safeParse(v.object({ locale: v.picklist(LOCALES) }), sent);
                return back(lang.success ? lang.output.locale : DEFAULT_LOCALE, "", "", flag);
              }
              return back(link.output.locale ?? DEFAULT_LOCALE, link.output.order, link.output.k, flag);
            },
          }),
          body: ReviewFormSchema,
        },
      )
      .post(
        REVIEW_DELETE.path,
        async ({ request, body: form }) => {
          const isForm = isFormPost(request);
          const locale = form.locale ?? DEFAULT_LOCALE;
          try {
            const reference = readReviewLink(secret(), form.order, form.k, "review");
            const order = reference === null ? null : reviewOrderByReference(deps.db, reference);
            if (order === null) {
              if (isForm) return renderReview(deps, request, locale, { state: "invalid" }, 403, { ok: true });
              return Response.json({ error: "This link is not valid: use the link of your e-mail" }, { status: 403 });
            }
            await deleteReview(deps.write, order.id, deps.now());
            deps.log.info("review deleted by its author", { orderId: order.id });
            if (isForm) return back(locale, order.reference, form.k, "deleted");
            return Response.json({ outcome: "deleted" });
          } catch (error) {
            return fail(error, { request, locale, what: "review not deleted" });
          }
        },
        {
          // Counted before the body is read; a refusal is JSON, as a script or the page's form reads it.
          parse: bodyParser({ maxBytes: MAX_BODY_BYTES, before: countedBy(clientIp, [limiter], tooManyRequests) }),
          body: DeleteForm,
        },
      )
      // The stop link: a GET only shows the button (a mail scanner following links stops nothing);
      // the button, and a mail client's one-click (RFC 8058), POST.
      .get(REVIEW_STOP.path, async ({ request, ip }) => {
        const query = new URL(request.url).searchParams;
        const locale = stopLocale(query);
        const allowed = limiter.take(ip);
        const reference = allowed.ok ? readReviewLink(secret(), query.get("order"), query.get("k"), "review-stop") : null;
        if (reference === null) return stopPage(request, locale, "invalid", null, allowed.ok ? 404 : 429);
        return stopPage(request, locale, "ask", { order: reference, k: query.get("k") ?? "" });
      })
      .post(
        REVIEW_STOP.path,
        async ({ request, ip }) => {
          const query = new URL(request.url).searchParams;
          let locale = stopLocale(query);
          try {
            const allowed = limiter.take(ip);
            const body = await readBody(request, { maxBytes: 4096, accept: ["form"] }).catch(() => ({ value: {} }));
            const fields = v.safeParse(
              v.object({ order: v.optional(v.string()), k: v.optional(v.string()), lang: v.optional(v.string()) }),
              body.value,
            );
            const order = query.get("order") ?? (fields.success ? (fields.output.order ?? null) : null);
            const k = query.get("k") ?? (fields.success ? (fields.output.k ?? null) : null);
            const lang = fields.success ? fields.output.lang : undefined;
            if (lang !== undefined && isLocale(lang)) locale = lang;
            if (!allowed.ok) throw new HttpError(429, tooManyRequests(allowed.retryAfterSeconds));
            const reference = readReviewLink(secret(), order, k, "review-stop");
            const found = reference === null ? null : reviewOrderByReference(deps.db, reference);
            if (found === null) return stopPage(request, locale, "invalid", null, 404);
            await stopReviewMail(deps.write, found.id, deps.now());
            deps.log.info("review e-mails stopped by the buyer", { orderId: found.id });
            return stopPage(request, locale, "done", null);
          } catch (error) {
            return fail(error, { request, locale, what: "review e-mails not stopped" });
          }
        },
        { parse: "none" },
      )
  );
}
