import { and, eq, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { licenseActivations, licenses, orders, reviewInvites, reviews } from "../../../db/schema";
import type { Write } from "../../../db/writer";
import { errorText } from "../../../shared/error-text";
import { isLocale } from "../../../shared/locales";
import type { Config } from "../../platform/config";
import type { Logger } from "../../platform/log";
import { enqueueMail } from "../mail/outbox";
import { purchaseFilter } from "../social-proof/service";
import { countFigures, figureSettings, recordFigure, shownFigure, testOrdersVerify } from "./store";

// The review invitation (docs/reviews.md): REVIEW_INVITE_DAYS after a paid order, if the order is
// not refunded (nor a refund asked or under way) and its licence was activated at least once, its
// buyer gets one e-mail in the order's language through the outbox. The row in review_invites is
// written with the outbox row, so an order is invited once whoever looks and however often. The
// same minute's check records the figure the landing page states, so every process shows the same.

/** How often the first process looks: an invitation is due within a minute. */
export const REVIEW_CHECK_EVERY_MS = 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Invitations queued per look at most: a backlog (REVIEW_INVITE_DAYS lowered) goes out over a few minutes. */
const INVITES_PER_LOOK = 100;

export type ReviewCheckDeps = { db: Db; write: Write; config: Config; now: () => Date };
export type ReviewCheck = { invited: number; figureChanged: boolean };

/**
 * Orders whose invitation is due at `now`: paid long enough ago, activated, never invited nor
 * stopped, not reviewed yet; in production never a test-checkout order (`testOrders` false).
 */
export function dueInvitations(db: Db, days: number, now: Date, testOrders: boolean, limit = INVITES_PER_LOOK) {
  const before = new Date(now.getTime() - days * DAY_MS);
  const stoppedAddress = sql`exists (select 1 from ${reviewInvites} ri join ${orders} o2 on o2.id = ri.order_id
    where ri.stopped_at is not null and lower(o2.customer_email) = lower(${orders.customerEmail}))`;
  return db
    .select({ id: orders.id, reference: orders.reference, locale: orders.locale, email: orders.customerEmail })
    .from(orders)
    .innerJoin(licenses, eq(licenses.orderId, orders.id))
    .where(
      and(
        eq(orders.status, "paid"),
        testOrders ? undefined : ne(orders.provider, "test"),
        isNotNull(orders.customerEmail),
        lte(orders.paidAt, before),
        isNull(orders.refundRequestedAt),
        isNull(orders.refundStartedAt),
        sql`exists (select 1 from ${licenseActivations} where ${licenseActivations.licenseId} = ${licenses.id})`,
        sql`not exists (select 1 from ${reviewInvites} where ${reviewInvites.orderId} = ${orders.id})`,
        sql`not exists (select 1 from ${reviews} where ${reviews.orderId} = ${orders.id})`,
        sql`not ${stoppedAddress}`,
      ),
    )
    .orderBy(orders.paidAt)
    .limit(limit)
    .all();
}

/** One look: queues the invitations due and records the figure; safe to run from several places at once. */
export async function runReviewCheck(deps: ReviewCheckDeps): Promise<ReviewCheck> {
  const now = deps.now();
  let invited = 0;
  for (const order of dueInvitations(deps.db, deps.config.reviewInviteDays, now, testOrdersVerify(deps.config.env))) {
    if (order.email === null) continue;
    const email = order.email;
    const queued = await deps.write((tx) => {
      // Another look (another process, the one before) may have queued it meanwhile: the write lock is held from here.
      if (tx.select({ id: reviewInvites.orderId }).from(reviewInvites).where(eq(reviewInvites.orderId, order.id)).get() !== undefined)
        return false;
      const current = tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id)).get();
      if (current?.status !== "paid") return false;
      const mailId = enqueueMail(
        tx,
        deps.config.mail.domain,
        {
          kind: "review-invite",
          recipient: email,
          locale: isLocale(order.locale) ? order.locale : "fr",
          payload: { orderId: order.id, reference: order.reference },
          orderId: order.id,
        },
        now,
      );
      tx.insert(reviewInvites).values({ orderId: order.id, mailId, invitedAt: now }).run();
      return true;
    });
    if (queued) invited++;
  }
  const figure = shownFigure(figureSettings(deps.db), countFigures(deps.db, purchaseFilter(deps.config)));
  const figureChanged = await deps.write((tx) => recordFigure(tx, figure, now));
  return { invited, figureChanged };
}

export type ReviewJob = { runNow(): Promise<ReviewCheck | null>; stop(): Promise<void> };

/** The minute's check, in the first process only (the one that sends mail), like the owner's digest. */
export function startReviewChecks(
  deps: ReviewCheckDeps & { log: Logger; mailer: { wake(): void } },
  everyMs = REVIEW_CHECK_EVERY_MS,
): ReviewJob {
  let running: Promise<ReviewCheck | null> | null = null;
  const runNow = async (): Promise<ReviewCheck | null> => {
    while (running !== null) await running;
    running = runReviewCheck(deps)
      .then((check) => {
        if (check.invited > 0) {
          deps.log.info("review invitations queued", { count: check.invited });
          deps.mailer.wake();
        }
        if (check.figureChanged) deps.log.info("landing page figure changed");
        return check;
      })
      .catch((error: unknown) => {
        // A busy database only delays the invitations to the next minute.
        deps.log.warn("review check: not done, will retry", { error: errorText(error) });
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  void runNow();
  const timer = setInterval(() => void runNow(), everyMs);
  timer.unref?.();
  return {
    runNow,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The stop link: no review e-mail goes to this order's address again (the review itself stays). A
 * row for an order never invited stops its invitation too.
 */
export function stopReviewMail(write: Write, orderId: number, now: Date): Promise<void> {
  return write((tx) => {
    tx.insert(reviewInvites)
      .values({ orderId, stoppedAt: now })
      .onConflictDoUpdate({ target: reviewInvites.orderId, set: { stoppedAt: now } })
      .run();
  });
}
