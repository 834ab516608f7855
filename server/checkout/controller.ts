import { Elysia } from "elysia";
import type { AppDeps } from "../deps";

/** POST /api/payment, POST /api/stripe/webhook, /checkout/test/* (issue 4). */
export function checkoutController(_deps: AppDeps) {
  return new Elysia({ name: "checkout" });
}
