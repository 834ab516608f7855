import { Elysia } from "elysia";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE } from "../../../shared/locales";
import type { AppDeps } from "../../deps";
import { readRawBody } from "../../platform/http/body";
import { requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { deliverySettings } from "./delivery";
import { applyOrderEvent, recordFailedAttempt } from "./fulfilment";
import { WebhookPayloadError, WebhookSignatureError } from "./provider";

/** Stripe's events for one Checkout Session are a few KB; this leaves a wide margin. */
export const WEBHOOK_MAX_BODY_BYTES = 512 * 1024;

/** POST /api/stripe/webhook: Stripe's events, applied to the orders once each (404 without Stripe). */
export function webhookController(deps: AppDeps) {
  const { config, log, now } = deps;
  const fail = failureResponder(deps);

  return new Elysia({ name: "checkout-webhook" }).use(requestContext(config)).post(
    ENDPOINTS.stripeWebhook.path,
    async ({ request }) => {
      if (config.stripe === undefined) return Response.json({ error: "Stripe is not configured" }, { status: 404 });
      let reading;
      try {
        // The signature covers the exact bytes Stripe sent: the body is read raw, never re-serialised.
        const raw = await readRawBody(request, WEBHOOK_MAX_BODY_BYTES);
        reading = await deps.checkout.provider.readWebhook(raw, request.headers.get("stripe-signature"));
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          log.warn("webhook refused", { reason: error.message });
          return Response.json({ error: `Invalid signature: ${error.message}` }, { status: 400 });
        }
        if (error instanceof WebhookPayloadError) {
          log.warn("webhook refused", { reason: error.message });
          return Response.json({ error: `Malformed event: ${error.message}` }, { status: 400 });
        }
        return fail(error, { request, locale: DEFAULT_LOCALE, what: "webhook not read" });
      }
      if (reading.kind === "ignored") return Response.json({ received: true, ignored: reading.type });
      if (reading.kind === "attempt") {
        const { attempt } = reading;
        try {
          const outcome = await recordFailedAttempt(deps.write, attempt, now());
          log.info("webhook applied", { event: attempt.eventId, type: "payment_intent.payment_failed", outcome });
          return Response.json({ received: true, duplicate: outcome === "duplicate" });
        } catch (error) {
          return fail(error, {
            request,
            locale: DEFAULT_LOCALE,
            what: "webhook not applied",
            detail: { event: attempt.eventId },
            unavailable: "Could not record the event, retry later",
          });
        }
      }
      try {
        const result = await applyOrderEvent(deps.write, reading.event, now(), deliverySettings(config));
        if (result.outcome === "foreign") {
          // Acknowledged, or Stripe would deliver it again for days; its id stays out of the log
          // (the logger masks any checkout id), the event's id names it in Stripe's dashboard.
          log.info("webhook ignored: a checkout this site did not create", { event: reading.event.eventId, type: reading.event.type });
          return Response.json({ received: true, ignored: "checkout not created by this site" });
        }
        deps.mailer.wake();
        log.info("webhook applied", { event: reading.event.eventId, type: reading.event.type, ...result });
        return Response.json({ received: true, duplicate: result.outcome === "duplicate" });
      } catch (error) {
        // Not acknowledged, so Stripe delivers it again later; nothing was half-written (one transaction).
        return fail(error, {
          request,
          locale: DEFAULT_LOCALE,
          what: "webhook not applied",
          detail: { event: reading.event.eventId },
          unavailable: "Could not record the event, retry later",
        });
      }
    },
    { parse: "none" },
  );
}
