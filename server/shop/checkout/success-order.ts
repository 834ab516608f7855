import { and, eq } from "drizzle-orm";
import { licenses, mailOutbox, orders } from "../../../db/schema";
import { isStorageUnavailable, storageProblem } from "../../../db/storage";
import { errorText } from "../../../shared/error-text";
import type { OrderLinks, PaidDelivery, SuccessOrder } from "../../../shared/page-data";
import type { AppDeps } from "../../deps";
import { invoiceLink } from "../paperwork/links";
import { reviewQuery } from "../reviews/links";
import { reviewOffered } from "../reviews/store";
import { deliverySettings } from "./delivery";
import { applyOrderEvent } from "./fulfilment";
import { orderLinkQuery, signOrderLink } from "./order-links";
import { isSettled } from "./provider";

/**
 * At most one provider lookup per checkout in this interval. The pending page reloads every 4 s;
 * someone reloading faster (or many tabs, or a script) must not turn each load into a call to
 * Stripe, whose rate limit the site's own checkouts share. Within it the page just says "pending".
 */
export const LOOKUP_INTERVAL_MS = 3000;
const MAX_TRACKED_LOOKUPS = 1000;
/**
 * A page waits this long at most for another program's database lock before it says "pending"
 * (and reloads itself 4 s later): the visitor sees an answer at once rather than a slow page.
 */
const LOOKUP_WRITE_WAIT_MS = 1000;
/** Remembers when each checkout was last looked up at the provider (kept in AppDeps, one per site). */
export type LookupThrottle = {
  /** true when `checkoutId` may be looked up now (and records it); false inside the interval. */
  mayLookUp(checkoutId: string, now: number): boolean;
};

export function createLookupThrottle(): LookupThrottle {
  const seen = new Map<string, number>();
  return {
    mayLookUp(checkoutId, now) {
      const last = seen.get(checkoutId);
      if (last !== undefined && now - last < LOOKUP_INTERVAL_MS && now >= last) return false;
      if (seen.size >= MAX_TRACKED_LOOKUPS) {
        for (const [id, at] of seen) if (now - at >= LOOKUP_INTERVAL_MS) seen.delete(id);
        // Still full of lookups from the last few seconds: forget them rather than grow.
        if (seen.size >= MAX_TRACKED_LOOKUPS) seen.clear();
      }
      seen.set(checkoutId, now);
      return true;
    },
  };
}

type OrderRow = typeof orders.$inferSelect;

/**
 * What the success page shows for `?session_id=` (the address Stripe and the test checkout send the
 * buyer back to): the orders table first, the provider second. Reaching this page never marks
 * anything paid by itself (only the provider says an order is paid: docs/product.md); a provider
 * lookup that says "paid" goes through fulfilment like a webhook, once.
 */
export async function successOrder(deps: AppDeps, sessionId: string | null): Promise<SuccessOrder> {
  if (sessionId === null) return { state: "none" };
  // Every checkout of this site has its row from the moment it was created, so an id we do not
  // know is not worth a call to the provider (and anyone could otherwise make us call it).
  const order = deps.db.select().from(orders).where(eq(orders.checkoutId, sessionId)).get();
  return order === undefined ? { state: "unknown" } : successOrderOf(deps, order, "checkout");
}

/** The same for an order found by its reference's signed link (order-links.ts). */
export function successOrderByReference(deps: AppDeps, reference: string): Promise<SuccessOrder> | SuccessOrder {
  const order = deps.db.select().from(orders).where(eq(orders.reference, reference)).get();
  return order === undefined ? { state: "unknown" } : successOrderOf(deps, order, "signed-link");
}

/**
 * How long the provider's return address (`?session_id=`) shows the licence key and the order's
 * signed links after payment. That address stays in the browser's history, in a shared screenshot
 * or a pasted link, and it never expires at the provider; the buyer has the key by e-mail by then.
 * The signed link of the access e-mail is not bound by it (the e-mail is its own capability).
 */
export const SUCCESS_KEY_SHOWN_MS = 60 * 60 * 1000;

/** How the page was entered: the provider's return address (bounded in time) or the order's signed link. */
type Entry = "checkout" | "signed-link";

async function successOrderOf(deps: AppDeps, order: OrderRow, entry: Entry): Promise<SuccessOrder> {
  const now = deps.now().getTime();
  // Past the bound, the return address of a paid order says only that the e-mail was sent.
  if (entry === "checkout" && order.status === "paid" && order.paidAt !== null && now - order.paidAt.getTime() >= SUCCESS_KEY_SHOWN_MS)
    return { state: "delivered", reference: order.reference, delivery: accessMailDelivery(deps, order) };
  if (order.status === "paid") return paidOrder(deps, order, await linksOf(deps, order));
  if (order.status === "refunded") return { state: "refunded", reference: order.reference };
  if (order.status !== "pending") return { state: "unknown" };
  // A pending page reloads itself: by its signed link while the checkout is young, by its own
  // return address later (a signed link handed out then would open the key once it is paid).
  const young = now - order.createdAt.getTime() < SUCCESS_KEY_SHOWN_MS;
  const query = entry === "checkout" && !young ? `?session_id=${order.checkoutId}` : (await linksOf(deps, order)).query;
  const pending: SuccessOrder = { state: "pending", reference: order.reference, query };
  const sessionId = order.checkoutId;

  if (!deps.checkout.lookups.mayLookUp(sessionId, deps.now().getTime())) return pending;
  const { provider } = deps.checkout;
  let snapshot;
  try {
    snapshot = await provider.lookupCheckout(sessionId);
  } catch (error) {
    deps.log.warn("checkout lookup failed", { checkout: sessionId, error: errorText(error) });
    return pending;
  }
  if (snapshot === null) return pending;
  if (isSettled(snapshot)) {
    let result;
    try {
      result = await applyOrderEvent(
        deps.write,
        {
          eventId: `lookup_${provider.name}_${snapshot.id}_paid`,
          provider: provider.name,
          type: "checkout.session.completed",
          checkout: snapshot,
        },
        deps.now(),
        deliverySettings(deps.config),
        { waitMs: Math.min(deps.config.dbBusyWaitMs, LOOKUP_WRITE_WAIT_MS) },
      );
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error;
      const { level, problem } = storageProblem(error);
      deps.log[level](`paid checkout not recorded yet: ${problem}`, { checkout: sessionId });
      return pending;
    }
    deps.mailer.wake();
    const status =
      result.outcome === "applied" ? result.status : deps.db.select().from(orders).where(eq(orders.checkoutId, sessionId)).get()?.status;
    const paid = deps.db.select().from(orders).where(eq(orders.checkoutId, sessionId)).get();
    return status === "paid" && paid !== undefined ? paidOrder(deps, paid, await linksOf(deps, paid)) : { state: "unknown" };
  }
  if (snapshot.status === "expired") return { state: "unknown" };
  return pending;
}

/** The order's signed links, made afresh for each page (they hold for ORDER_LINK_DAYS). */
async function linksOf(deps: AppDeps, { reference, provider }: Pick<OrderRow, "reference" | "provider">): Promise<OrderLinks> {
  const token = await signOrderLink(deps.licenseKeys, reference, deps.now());
  return {
    query: orderLinkQuery(reference, token),
    invoice: invoiceLink("", { reference }, deps.paperwork.linkSecret),
    review: reviewOffered(deps.config.env, provider) ? reviewQuery(deps.paperwork.linkSecret, reference) : null,
  };
}

/** A paid order, its licence key, and where its access e-mail stands in the outbox (the newest message counts). */
function paidOrder(deps: AppDeps, order: OrderRow, links: OrderLinks): SuccessOrder {
  const delivery = accessMailDelivery(deps, order);
  const license = deps.db.select({ key: licenses.key }).from(licenses).where(eq(licenses.orderId, order.id)).get();
  return {
    state: "paid",
    free: order.amount === 0,
    email: order.customerEmail,
    delivery,
    reference: order.reference,
    licenseKey: license?.key ?? null,
    links,
  };
}

/** Where the order's access e-mail stands in the outbox (any of its messages sent counts). */
function accessMailDelivery(deps: AppDeps, order: OrderRow): PaidDelivery {
  const mails = deps.db
    .select({ status: mailOutbox.status })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.orderId, order.id), eq(mailOutbox.kind, "access")))
    .all();
  const has = (status: string) => mails.some((m) => m.status === status);
  return has("sent") ? "sent" : has("pending") || has("sending") ? "sending" : has("failed") ? "failed" : "none";
}
