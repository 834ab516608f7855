import { eq } from "drizzle-orm";
import { orders, reviews } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { isLocale } from "../../../shared/locales";
import type { RefusalReason } from "../../../shared/reviews";
import { enqueueMail } from "../mail/outbox";
import { bumpProofStamp, reviewById } from "./store";

// The owner's decisions on a review: publish it, refuse it for one of the reasons the law allows
// (its author is told which, by e-mail), answer it publicly. Never its text or rating: those are
// the buyer's. Each decision is written with the console's activity entry (`logged`) in one
// transaction, so the log holds exactly what happened.

export type ModerationOutcome = "done" | "not-found" | "unchanged";

type Logged = (tx: DbWriter) => void;

export function publishReview(write: Write, id: number, now: Date, logged: Logged): Promise<ModerationOutcome> {
  return write((tx) => {
    const review = reviewById(tx, id);
    if (review === null) return "not-found";
    if (review.status === "published") return "unchanged";
    tx.update(reviews).set({ status: "published", refusalReason: null, publishedAt: now, decidedAt: now }).where(eq(reviews.id, id)).run();
    bumpProofStamp(tx, now);
    logged(tx);
    return "done";
  });
}

/** Refuses a review with its reason and queues the e-mail telling its author (in the review's language). */
export function refuseReview(
  write: Write,
  id: number,
  reason: RefusalReason,
  mailDomain: string,
  now: Date,
  logged: Logged,
): Promise<ModerationOutcome> {
  return write((tx) => {
    const review = reviewById(tx, id);
    if (review === null) return "not-found";
    if (review.status === "refused" && review.refusalReason === reason) return "unchanged";
    const order = tx
      .select({ reference: orders.reference, email: orders.customerEmail })
      .from(orders)
      .where(eq(orders.id, review.orderId))
      .get();
    tx.update(reviews).set({ status: "refused", refusalReason: reason, publishedAt: null, decidedAt: now }).where(eq(reviews.id, id)).run();
    if (review.status === "published") bumpProofStamp(tx, now);
    if (order?.email)
      enqueueMail(
        tx,
        mailDomain,
        {
          kind: "review-refused",
          recipient: order.email,
          locale: isLocale(review.locale) ? review.locale : "fr",
          payload: { orderId: review.orderId, reference: order.reference, reason },
          orderId: review.orderId,
        },
        now,
      );
    logged(tx);
    return "done";
  });
}

/** The owner's public answer (empty removes it), shown under the review. */
export function replyToReview(write: Write, id: number, reply: string, now: Date, logged: Logged): Promise<ModerationOutcome> {
  return write((tx) => {
    const review = reviewById(tx, id);
    if (review === null) return "not-found";
    const text = reply === "" ? null : reply;
    if (review.reply === text) return "unchanged";
    tx.update(reviews)
      .set({ reply: text, repliedAt: text === null ? null : now })
      .where(eq(reviews.id, id))
      .run();
    if (review.status === "published") bumpProofStamp(tx, now);
    logged(tx);
    return "done";
  });
}
