import { eq } from "drizzle-orm";
import { licenses, orders } from "../../../db/schema";
import { LOCALE_TAGS, type Locale } from "../../../shared/locales";
import { SELLER_TIME_ZONE } from "../../../shared/offer";
import type { RefundPageState } from "../../../shared/page-data";
import { formatMoney } from "../../../shared/price";
import type { AppDeps } from "../../deps";
import { deliverySettings, notifyOwner } from "./delivery";
import { refundOrder } from "./refund";

// The 7-day money-back guarantee the pages print, kept by the site: the buyer's refund page (its
// signed link in the access e-mail and on the success page) refunds on one confirmation within the
// window, or queues the request for the owner when REFUND_MODE=request.

export const GUARANTEE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The guarantee's last moment for an order paid at `paidAt`. */
export const guaranteeEndsAt = (paidAt: Date) => new Date(paidAt.getTime() + GUARANTEE_DAYS * DAY_MS);

type Order = typeof orders.$inferSelect;

const findOrder = (deps: Pick<AppDeps, "db">, reference: string): Order | undefined =>
  deps.db.select().from(orders).where(eq(orders.reference, reference)).get();

/** What the refund page of an order shows, in a language; `token` is the signed link it was opened with. */
export function refundPageState(
  deps: Pick<AppDeps, "db" | "config" | "now">,
  reference: string,
  token: string,
  locale: Locale,
  flash?: "error" | "rate-limited",
): RefundPageState {
  const order = findOrder(deps, reference);
  if (order === undefined) return { state: "invalid" };
  if (order.status === "refunded") return { state: "refunded", reference };
  if (order.status !== "paid" || order.paidAt === null) return { state: "not-paid", reference };
  if (order.amount === 0) return { state: "free", reference };
  const ends = guaranteeEndsAt(order.paidAt);
  const deadline = new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: SELLER_TIME_ZONE,
  }).format(ends);
  if (deps.now() > ends) return { state: "closed", reference, deadline };
  if (order.refundRequestedAt !== null) return { state: "requested", reference };
  return {
    state: "open",
    reference,
    amount: formatMoney(order.amount, order.currency, locale),
    deadline,
    mode: deps.config.site.refundMode,
    link: { order: reference, t: token },
    ...(flash === undefined ? {} : { flash }),
  };
}

export type AskRefundResult =
  | "refunded"
  | "requested"
  | "closed"
  | "already-refunded"
  | "in-progress"
  | "not-paid"
  | "free"
  | "not-found"
  | "no-stripe";

/**
 * The buyer's confirmation on the refund page. Inside the window: a full refund through the same
 * service as the console's (refund.ts: the provider called once, the licence disabled, buyer and
 * owner told), or with REFUND_MODE=request the request recorded and the owner told, once. After the
 * window: nothing changes. Throws ProviderError when Stripe refuses (nothing changed then).
 */
export async function askRefund(deps: AppDeps, reference: string): Promise<AskRefundResult> {
  const found = findOrder(deps, reference);
  if (found === undefined) return "not-found";
  if (found.status === "refunded") return "already-refunded";
  if (found.status !== "paid" || found.paidAt === null) return "not-paid";
  // Free access (a 100 % code): no payment to give back, no licence to take away for it.
  if (found.amount === 0) return "free";
  if (deps.now() > guaranteeEndsAt(found.paidAt)) return "closed";
  const delivery = deliverySettings(deps.config);

  if (deps.config.site.refundMode === "request") {
    const now = deps.now();
    return deps.write((tx): AskRefundResult => {
      const order = tx.select().from(orders).where(eq(orders.id, found.id)).get();
      if (order === undefined) return "not-found";
      if (order.status === "refunded") return "already-refunded";
      if (order.refundRequestedAt !== null) return "requested";
      tx.update(orders).set({ refundRequestedAt: now, updatedAt: now }).where(eq(orders.id, order.id)).run();
      const license = tx.select({ key: licenses.key }).from(licenses).where(eq(licenses.orderId, order.id)).get();
      notifyOwner(tx, order, "owner-refund-request", license?.key ?? null, delivery, now);
      return "requested";
    });
  }

  return refundOrder({ db: deps.db, write: deps.write, now: deps.now, delivery, provider: () => deps.checkout.provider }, found.id);
}
