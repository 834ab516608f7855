import * as v from "valibot";
import { DEFAULT_LOCALE, LOCALES } from "../locales";

/** The signed part of a buyer's link to an order's pages (a compact JWS). */
export const OrderLinkTokenSchema = v.pipe(
  v.string("t must be text"),
  v.maxLength(2000),
  v.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, "t is not a link of this site"),
);

/** The refund page's confirmation, a plain form post (or the same fields as JSON). */
export const RefundRequestSchema = v.object({
  order: v.pipe(v.string("order must be text"), v.maxLength(40)),
  t: OrderLinkTokenSchema,
  locale: v.optional(v.picklist(LOCALES, "Unknown locale"), DEFAULT_LOCALE),
  confirm: v.literal("yes", "Confirm the refund"),
});
