import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import * as v from "valibot";
import { orders } from "../../../db/schema";
import { REFUSAL_REASONS, REVIEW_REPLY_MAX } from "../../../shared/reviews";
import type { AppDeps } from "../../deps";
import { IdParams, queryWord } from "../../platform/http/route-input";
import { type ModerationOutcome, publishReview, refuseReview, replyToReview } from "../../shop/reviews/moderation";
import {
  countFigures,
  figureSettings,
  listReviews,
  reviewById,
  reviewCounts,
  saveFigureSettings,
  testOrdersVerify,
} from "../../shop/reviews/store";
import { purchaseFilter } from "../../shop/social-proof/service";
import { activityDetail, recordActivity } from "./activity";
import { html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
import { ConsoleRefusal } from "./refusal";
import { reviewsPage } from "./views/reviews";

// The console's Reviews (docs/reviews.md): the owner publishes or refuses (with a reason the law
// allows, told to the author by e-mail) and may answer; never edits. Each decision is written with
// its activity entry. Publishing bumps the pages' stamp: every process renders the new pages.

const DONE = ["published", "reviewRefused", "replied", "figures"] as const;
const Notice = v.object({ done: queryWord(DONE) });
const RefuseForm = v.object({ reason: v.picklist(REFUSAL_REASONS) });
const ReplyForm = v.object({
  reply: v.pipe(
    v.string(),
    v.transform((s) => s.replace(/\r\n?/g, "\n").trim()),
    v.maxLength(REVIEW_REPLY_MAX),
  ),
});
const FiguresForm = v.object({
  kind: v.picklist(["buyers", "devices", "off"]),
  threshold: v.pipe(v.string(), v.regex(/^\d{1,7}$/), v.transform(Number), v.minValue(1), v.maxValue(1_000_000)),
});

/** The review acted on, with its order (the activity log links both); 404 when there is none. */
function orderOfReview(db: AppDeps["db"], id: number): number {
  const review = reviewById(db, id);
  if (review === null) throw new ConsoleRefusal(404, "admin.error.noReview");
  return review.orderId;
}

export function reviewRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;
  const done = (request: Request, what: (typeof DONE)[number]) => redirect(`/admin/reviews?done=${what}`, kit.https(request));
  const outcomeOr404 = (outcome: ModerationOutcome) => {
    if (outcome === "not-found") throw new ConsoleRefusal(404, "admin.error.noReview");
  };
  return new Elysia({ name: "owner-console-reviews" })
    .get(
      "/admin/reviews",
      ({ request, query: { done: flag } }) =>
        kit.asOwner(request, async () => {
          const ctx = await kit.page(request);
          return html(
            reviewsPage(ctx, {
              lists: { pending: listReviews(db, "pending"), published: listReviews(db, "published"), refused: listReviews(db, "refused") },
              counts: reviewCounts(db),
              figures: countFigures(db, purchaseFilter(deps.config)),
              settings: figureSettings(db),
              testOrdersVerify: testOrdersVerify(deps.config.env),
              done: flag === null ? null : ctx.t(`admin.done.${flag}`),
            }),
            kit.https(request),
          );
        }),
      { query: Notice },
    )
    .post(
      "/admin/reviews/:id/publish",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          const review = reviewById(db, id);
          if (review === null) throw new ConsoleRefusal(404, "admin.error.noReview");
          const order = db
            .select({ status: orders.status, provider: orders.provider })
            .from(orders)
            .where(eq(orders.id, review.orderId))
            .get();
          if (order?.status !== "paid") throw new ConsoleRefusal(409, "admin.error.refundedReview");
          // A production site's test-checkout order took no money: its review is no verified purchase.
          if (order.provider === "test" && !testOrdersVerify(deps.config.env)) throw new ConsoleRefusal(409, "admin.reviews.testOrder");
          const now = deps.now();
          outcomeOr404(
            await publishReview(write, id, now, (tx) =>
              recordActivity(
                tx,
                { action: "review-published", detail: activityDetail.review(id, review.orderId), sessionId: owner.session.id },
                now,
              ),
            ),
          );
          // This process shows it at once; the others at their next look (a quarter of a second).
          deps.content.refresh();
          return done(request, "published");
        }),
      { parse: kit.input(), body: v.object({}), params: IdParams },
    )
    .post(
      "/admin/reviews/:id/refuse",
      ({ request, params: { id }, body: { reason } }) =>
        kit.asOwner(request, async (owner) => {
          const detail = activityDetail.review(id, orderOfReview(db, id), { reason });
          const now = deps.now();
          outcomeOr404(
            await refuseReview(write, id, reason, deps.config.mail.domain, now, (tx) =>
              recordActivity(tx, { action: "review-refused", detail, sessionId: owner.session.id }, now),
            ),
          );
          deps.mailer.wake();
          deps.content.refresh();
          return done(request, "reviewRefused");
        }),
      { parse: kit.input(), body: RefuseForm, params: IdParams },
    )
    .post(
      "/admin/reviews/:id/reply",
      ({ request, params: { id }, body: { reply } }) =>
        kit.asOwner(request, async (owner) => {
          const detail = activityDetail.review(id, orderOfReview(db, id), reply === "" ? undefined : { reply });
          const now = deps.now();
          outcomeOr404(
            await replyToReview(write, id, reply, now, (tx) =>
              recordActivity(tx, { action: "review-reply", detail, sessionId: owner.session.id }, now),
            ),
          );
          deps.content.refresh();
          return done(request, "replied");
        }),
      { parse: kit.input(), body: ReplyForm, params: IdParams },
    )
    .post(
      "/admin/reviews/figures",
      ({ request, body: settings }) =>
        kit.asOwner(request, async (owner) => {
          const now = deps.now();
          await write((tx) => {
            saveFigureSettings(tx, settings, now);
            recordActivity(
              tx,
              { action: "proof-figures", detail: `${settings.kind} from ${settings.threshold}`, sessionId: owner.session.id },
              now,
            );
          });
          return done(request, "figures");
        }),
      { parse: kit.input(), body: FiguresForm },
    );
}
