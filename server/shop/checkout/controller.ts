import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { paymentController } from "./payment-controller";
import { testCheckoutController } from "./test-checkout-controller";
import { webhookController } from "./webhook-controller";

/** The checkout's routes: the payment API, Stripe's webhook and the built-in test checkout's pages. */
export function checkoutController(deps: AppDeps) {
  return new Elysia({ name: "checkout" }).use(paymentController(deps)).use(webhookController(deps)).use(testCheckoutController(deps));
}
