import { createHmac, timingSafeEqual } from "node:crypto";
import * as v from "valibot";
import { REVIEW_STOP } from "../../../shared/api";
import type { Locale } from "../../../shared/locales";
import { normalizeOrderReference } from "../../../shared/order-reference";
import { ReviewKeySchema } from "../../../shared/reviews";
import { pathFor } from "../../../shared/routes";

// An order's review link and its stop link: the reference names the order, an HMAC of it under
// the site's own secret (the invoice links' mechanism, another label each) proves the link came from
// the site. Nothing stored, nothing to expire: the same link opens the review to edit or delete it
// months later, and a reference alone, guessed or counted, opens nothing.

export type ReviewLinkPurpose = "review" | "review-stop";

/** 128 bits, base64url. */
export function reviewCapability(secret: string, reference: string, purpose: ReviewLinkPurpose): string {
  return createHmac("sha256", secret).update(`${purpose}\u0000${reference}`).digest("base64url").slice(0, 22);
}

/** The order reference a link names and proves (`order`, `k`); null when either does not hold. */
export function readReviewLink(secret: string, order: string | null, key: string | null, purpose: ReviewLinkPurpose): string | null {
  const reference = normalizeOrderReference(order ?? "");
  const k = v.safeParse(ReviewKeySchema, key ?? "");
  if (reference === null || !k.success) return null;
  const expected = Buffer.from(reviewCapability(secret, reference, purpose));
  const given = Buffer.from(k.output);
  return given.length === expected.length && timingSafeEqual(given, expected) ? reference : null;
}

export const reviewQuery = (secret: string, reference: string, purpose: ReviewLinkPurpose = "review") =>
  `?order=${reference}&k=${reviewCapability(secret, reference, purpose)}`;

/** The review page of an order, in a language (relative). */
export const reviewPath = (secret: string, reference: string, locale: Locale) =>
  `${pathFor("review", locale)}${reviewQuery(secret, reference)}`;

/** The stop link of the review e-mails (one click: GET shows the button, POST stops; RFC 8058 posts too). */
export const reviewStopPath = (secret: string, reference: string, locale: Locale) =>
  `${REVIEW_STOP.path}${reviewQuery(secret, reference, "review-stop")}&lang=${locale}`;
