import * as v from "valibot";
import type { Locale } from "../../../shared/locales";
import { normalizeOrderReference } from "../../../shared/order-reference";
import { pathFor } from "../../../shared/routes";
import { OrderLinkTokenSchema } from "../../../shared/schemas/orders";
import type { SigningKeys } from "../licenses/signing-keys";

// The buyer's links to one order (its success page with the licence key, its refund page, its
// invoice): the reference names the order, a token signed by the site's keys (the devices link's
// mechanism, another audience) proves the link came from the site. Knowing or guessing a reference
// alone opens nothing, so a reference read out to support or seen in an export is no credential.

const DAY_MS = 24 * 60 * 60 * 1000;
const ORDER_LINK_AUDIENCE = "order";
/**
 * Well past the guarantee's 7 days; a replaced signing key keeps verifying this long (tokens.ts).
 * The access-recovery form sends a fresh access e-mail, and with it fresh links.
 */
export const ORDER_LINK_DAYS = 30;

/** The capability for an order's pages, valid ORDER_LINK_DAYS from `now`. */
export function signOrderLink(keys: SigningKeys, reference: string, now: Date): Promise<string> {
  return keys.sign({ aud: ORDER_LINK_AUDIENCE, sub: reference }, new Date(now.getTime() + ORDER_LINK_DAYS * DAY_MS));
}

/** The order reference a link names and proves, from its query (`order`, `t`); null when either does not hold. */
export async function readOrderLink(keys: SigningKeys, query: URLSearchParams): Promise<string | null> {
  const reference = normalizeOrderReference(query.get("order") ?? "");
  const token = v.safeParse(OrderLinkTokenSchema, query.get("t") ?? "");
  if (reference === null || !token.success) return null;
  const claims = await keys.verify(token.output, ORDER_LINK_AUDIENCE);
  return claims?.sub === reference ? reference : null;
}

/** The query that names and proves an order, the same for each of its pages (and every language). */
export const orderLinkQuery = (reference: string, token: string) => `?order=${reference}&t=${token}`;

/** The 7-day guarantee's refund page of an order. */
export const orderRefundPath = (locale: Locale, reference: string, token: string) =>
  `${pathFor("refund", locale)}${orderLinkQuery(reference, token)}`;
