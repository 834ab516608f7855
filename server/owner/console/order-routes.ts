import { and, eq } from "drizzle-orm";
import { Elysia } from "elysia";
import * as v from "valibot";
import { licenseActivations, licenses, orders } from "../../../db/schema";
import type { AppDeps } from "../../deps";
import { IdParam, IdParams, queryWord } from "../../platform/http/route-input";
import { deliverySettings, queueAccessMailAgain } from "../../shop/checkout/delivery";
import { ProviderError } from "../../shop/checkout/provider";
import { type RefundResult, refundOrder } from "../../shop/checkout/refund";
import { deactivateLicense, resetActivations, setLicenseEnabled } from "../../shop/licenses/service";
import { activityDetail, recordActivity, writeLogged } from "./activity";
import { consoleHeaders, html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
import { ORDERS_PER_PAGE, orderDetail, refundRequests, searchOrders } from "./orders";
import { ConsoleRefusal } from "./refusal";
import { isFresh } from "./sessions";
import { orderPage, ordersPage } from "./views/orders";

const DONE = ["refunded", "approved", "resent", "disabled", "enabled", "freed", "reset"] as const;
type Done = (typeof DONE)[number];
const LicenseForm = v.object({ enabled: v.picklist(["yes", "no"]) });
const RefundForm = v.object({ confirm: v.literal("yes") });

/** The search (its first 200 characters) and where a page of results starts (the last id shown). */
const Search = v.object({
  q: v.fallback(
    v.pipe(
      v.string(),
      v.transform((s) => s.slice(0, 200)),
    ),
    "",
  ),
  before: v.fallback(v.nullable(IdParam), null),
});
const Notice = v.object({ done: queryWord(DONE) });
const DocumentParams = v.object({ id: IdParam, file: v.picklist(["invoice.pdf", "credit-note.pdf"]) });
const DeviceParams = v.object({ id: IdParam, device: IdParam });

/** The owner's answer to a refund that did not happen (none when it did). */
function refundFailure(result: RefundResult): void {
  if (result === "not-found") throw new ConsoleRefusal(404, "admin.error.noOrder");
  if (result === "not-paid") throw new ConsoleRefusal(409, "admin.error.notPaid");
  if (result === "already-refunded") throw new ConsoleRefusal(409, "admin.error.alreadyRefunded");
  if (result === "in-progress") throw new ConsoleRefusal(409, "admin.error.refundInProgress");
  if (result === "no-stripe") throw new ConsoleRefusal(409, "admin.error.stripeNotConfigured");
}

/** The orders list and search, an order's page, and its actions. */
export function orderRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write, config } = deps;
  const delivery = deliverySettings(config);
  const orderUrl = (id: number, done: Done) => `/admin/orders/${id}?done=${done}`;
  const licenseOf = (orderId: number) => {
    const license = db.select().from(licenses).where(eq(licenses.orderId, orderId)).get();
    if (license === undefined) throw new ConsoleRefusal(404, "admin.error.noLicence");
    return license;
  };
  /** Refunds order `id` for the owner signed in to `sessionId` (fresh check or request checked by the caller), recorded in the activity log. */
  const refundFromConsole = async (id: number, sessionId: number) => {
    const now = deps.now();
    let result: RefundResult;
    try {
      result = await refundOrder({ db, write, now: deps.now, delivery, provider: () => deps.checkout.provider }, id, (tx) =>
        recordActivity(tx, { action: "refund", detail: activityDetail.order(id), sessionId }, now),
      );
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      deps.log.warn("console refund refused by the provider", { orderId: id, detail: error.detail, requestId: error.requestId });
      throw new ConsoleRefusal(502, "admin.error.stripeRefused", { detail: error.detail ?? error.message });
    }
    refundFailure(result);
    deps.mailer.wake();
  };

  return new Elysia({ name: "owner-console-orders" })
    .get(
      "/admin/orders",
      ({ request, query: { q: query, before } }) =>
        kit.asOwner(request, async () => {
          const rows = searchOrders(db, query, before);
          const next = rows.length === ORDERS_PER_PAGE ? (rows.at(-1)?.id ?? null) : null;
          return html(ordersPage(await kit.page(request), query, rows, next, refundRequests(db)), kit.https(request));
        }),
      { query: Search },
    )
    .get(
      "/admin/orders/:id",
      ({ request, params: { id }, query: { done } }) =>
        kit.asOwner(request, async (owner) => {
          const detail = orderDetail(db, id);
          if (detail === null) throw new ConsoleRefusal(404, "admin.error.noOrder");
          const ctx = await kit.page(request);
          const state = {
            fresh: isFresh(owner.session, deps.now()),
            done: done === null ? null : ctx.t(`admin.done.${done}`),
            activationLimit: config.licenseActivationLimit,
          };
          return html(orderPage(ctx, detail, state), kit.https(request));
        }),
      { transform: kit.checked, params: IdParams, query: Notice },
    )
    .get(
      "/admin/orders/:id/:file",
      ({ request, params: { id, file } }) =>
        kit.asOwner(request, async () => {
          const pdf = await deps.paperwork.documents.invoiceOfOrder(id, file === "invoice.pdf" ? "invoice" : "credit-note");
          if (pdf === null) throw new ConsoleRefusal(404, "admin.error.noDocument");
          return new Response(new Uint8Array(pdf.content), {
            headers: {
              // A console answer like the others: never stored, never indexed, never framed.
              ...consoleHeaders(kit.https(request)),
              "content-type": pdf.contentType,
              "content-disposition": `attachment; filename="${pdf.filename}"`,
            },
          });
        }),
      { transform: kit.checked, params: DocumentParams },
    )
    .post(
      "/admin/orders/:id/refund",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          if (!isFresh(owner.session, deps.now())) throw new ConsoleRefusal(403, "admin.error.freshRefund");
          await refundFromConsole(id, owner.session.id);
          return redirect(orderUrl(id, "refunded"), kit.https(request));
        }),
      { parse: kit.input(), body: RefundForm, params: IdParams },
    )
    .post(
      "/admin/orders/:id/approve-refund",
      // The buyer asked from the refund page within the guarantee (REFUND_MODE=request): approving
      // it is the one click the owner promised, so it needs the session, the console's CSRF check
      // and the same-origin guard, not a fresh passkey check as a refund on the owner's own initiative does.
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          const order = db.select().from(orders).where(eq(orders.id, id)).get();
          if (order === undefined) throw new ConsoleRefusal(404, "admin.error.noOrder");
          if (order.refundRequestedAt === null) throw new ConsoleRefusal(409, "admin.error.noRefundRequest");
          await refundFromConsole(id, owner.session.id);
          return redirect(orderUrl(id, "approved"), kit.https(request));
        }),
      { parse: kit.input(), body: RefundForm, params: IdParams },
    )
    .post(
      "/admin/orders/:id/resend",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          const now = deps.now();
          const result = await write((tx) => {
            const outcome = queueAccessMailAgain(tx, id, delivery, now);
            if (outcome === "queued")
              recordActivity(tx, { action: "resend", detail: activityDetail.order(id), sessionId: owner.session.id }, now);
            return outcome;
          });
          if (result === "not-found") throw new ConsoleRefusal(404, "admin.error.noOrder");
          if (result === "not-paid") throw new ConsoleRefusal(409, "admin.error.noAccessMail");
          if (result === "no-email") throw new ConsoleRefusal(409, "admin.error.noEmail");
          deps.mailer.wake();
          return redirect(orderUrl(id, "resent"), kit.https(request));
        }),
      { transform: kit.checked, params: IdParams },
    )
    .post(
      "/admin/orders/:id/license",
      ({ request, params: { id }, body: { enabled } }) =>
        kit.asOwner(request, async (owner) => {
          const license = licenseOf(id);
          const now = deps.now();
          const action = enabled === "yes" ? "license-enabled" : "license-disabled";
          const logged = writeLogged(write, owner.session.id, now, (o) =>
            o === "done" ? { action, detail: activityDetail.order(id) } : null,
          );
          const result = await setLicenseEnabled(logged, license.key, enabled === "yes", now);
          if (result === "refunded") throw new ConsoleRefusal(409, "admin.error.licenceRefunded");
          if (result === "unknown") throw new ConsoleRefusal(404, "admin.error.noLicence");
          return redirect(orderUrl(id, enabled === "yes" ? "enabled" : "disabled"), kit.https(request));
        }),
      { parse: kit.input(), body: LicenseForm, params: IdParams },
    )
    .post(
      "/admin/orders/:id/devices/reset",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          const license = licenseOf(id);
          const now = deps.now();
          const logged = writeLogged(write, owner.session.id, now, (n) =>
            typeof n === "number" && n > 0 ? { action: "devices-reset", detail: activityDetail.order(id) } : null,
          );
          await resetActivations(logged, license.key, now);
          return redirect(orderUrl(id, "reset"), kit.https(request));
        }),
      { transform: kit.checked, params: IdParams },
    )
    .post(
      "/admin/orders/:id/devices/:device/free",
      ({ request, params: { id, device: deviceId } }) =>
        kit.asOwner(request, async (owner) => {
          const license = licenseOf(id);
          const device = db
            .select()
            .from(licenseActivations)
            .where(and(eq(licenseActivations.id, deviceId), eq(licenseActivations.licenseId, license.id)))
            .get();
          if (device === undefined) throw new ConsoleRefusal(404, "admin.error.noDevice");
          const now = deps.now();
          const logged = writeLogged(write, owner.session.id, now, (r) =>
            typeof r === "object" && r !== null && "kind" in r && r.kind === "deactivated"
              ? { action: "device-freed", detail: activityDetail.order(id) }
              : null,
          );
          const result = await deactivateLicense(logged, license.key, device.instanceId, now);
          if (result.kind !== "deactivated") throw new ConsoleRefusal(409, "admin.error.deviceFree");
          return redirect(orderUrl(id, "freed"), kit.https(request));
        }),
      { transform: kit.checked, params: DeviceParams },
    );
}
