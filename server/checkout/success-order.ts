import { eq } from "drizzle-orm";
import type { SuccessOrder } from "../../client/page-data";
import { orders } from "../../db/schema";
import type { AppDeps } from "../deps";
import { applyOrderEvent } from "./fulfilment";
import { checkoutProviderFor } from "./providers";

/**
 * What the success page shows for `?session_id=` (issue 4): the orders table first, the provider
 * second. Reaching this page never marks anything paid by itself (DECISIONS.md, "Payments"); a
 * provider lookup that says "paid" goes through fulfilment like a webhook, once.
 */
export async function successOrder(deps: AppDeps, sessionId: string | null): Promise<SuccessOrder> {
  if (sessionId === null) return { state: "none" };
  const order = deps.db.select().from(orders).where(eq(orders.checkoutId, sessionId)).get();
  if (order?.status === "paid") return { state: "paid", email: order.customerEmail };
  if (order !== undefined && order.status !== "pending") return { state: "unknown" };
  // Every checkout of this site has its pending row from the moment it was created, so an id we do
  // not know is not worth a call to the provider (and anyone could otherwise make us call it).
  if (order === undefined) return { state: "unknown" };

  const provider = checkoutProviderFor(deps);
  let snapshot;
  try {
    snapshot = await provider.lookupCheckout(sessionId);
  } catch (error) {
    deps.log.warn("checkout lookup failed", { checkout: sessionId, error: error instanceof Error ? error.message : String(error) });
    return { state: "pending" };
  }
  if (snapshot === null) return { state: "pending" };
  if (snapshot.paymentStatus === "paid") {
    const result = applyOrderEvent(
      deps.db,
      { eventId: `lookup_${provider.name}_${snapshot.id}_paid`, provider: provider.name, type: "checkout.session.completed", checkout: snapshot },
      deps.now(),
    );
    const status = result.outcome === "applied" ? result.status : deps.db.select().from(orders).where(eq(orders.checkoutId, sessionId)).get()?.status;
    return status === "paid" ? { state: "paid", email: snapshot.email } : { state: "unknown" };
  }
  if (snapshot.status === "expired") return { state: "unknown" };
  return { state: "pending" };
}
