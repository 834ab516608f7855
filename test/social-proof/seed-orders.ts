import type { Db } from "../../db/client";
import { type OrderStatus, orders } from "../../db/schema";

// Orders as the checkout's fulfilment writes them, for social-proof tests and journeys.

let counter = 0;

export function seedOrder(
  db: Db,
  order: {
    firstName?: string | null;
    city?: string | null;
    paidAt: Date | null;
    status?: OrderStatus;
    email?: string;
    provider?: "stripe" | "test";
    checkoutId?: string;
    /** The payment page's box (recent-purchases notice): ticked unless said otherwise. */
    inNotice?: boolean;
  },
): void {
  counter += 1;
  const created = new Date((order.paidAt ?? new Date()).getTime() - 60_000);
  db.insert(orders)
    .values({
      provider: order.provider ?? "test",
      checkoutId: order.checkoutId ?? `cs_test_seed_${process.pid}_${counter}_${Math.random().toString(36).slice(2)}`,
      status: order.status ?? "paid",
      amount: 2999,
      currency: "eur",
      locale: "fr",
      customerEmail: order.email ?? `buyer${counter}@example.com`,
      firstName: order.firstName ?? null,
      city: order.city ?? null,
      createdAt: created,
      updatedAt: order.paidAt ?? created,
      paidAt: order.paidAt,
      inNotice: order.inNotice ?? true,
    })
    .run();
}
