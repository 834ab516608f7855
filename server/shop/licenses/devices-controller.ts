import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import { pathFor } from "../../../shared/routes";
import { DEVICES_FLASHES, DevicesLinkSchema, type DevicesPageState, FreeDeviceSchema } from "../../../shared/schemas/licenses";
import type { AppDeps } from "../../deps";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter, type RateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { reviewQuery } from "../reviews/links";
import { reviewOffered } from "../reviews/store";
import { devicesOfOrder, freeDeviceOfOrder } from "./devices";
import { readDevicesLink } from "./tokens";

/** A person frees a device now and then; a script trying links gets nowhere faster. */
export const DEVICES_RATE_LIMIT = { limit: 30, windowMs: 10 * 60 * 1000 } as const;
const MAX_BODY_BYTES = 4 * 1024;

const FormLocale = v.object({ locale: v.picklist(LOCALES) });
const Flash = v.picklist(DEVICES_FLASHES);

/** What the devices page shows for the link in its query (`?t=`, `&status=` after a plain form post). */
export async function devicesPageState(
  deps: Pick<AppDeps, "db" | "licenseKeys" | "config" | "paperwork">,
  query: URLSearchParams,
): Promise<DevicesPageState> {
  const link = v.safeParse(DevicesLinkSchema, query.get("t") ?? "");
  if (!link.success) return { state: "invalid" };
  const reference = await readDevicesLink(deps.licenseKeys, link.output);
  const found = reference === null ? null : devicesOfOrder(deps.db, reference);
  if (found === null) return { state: "invalid" };
  const flash = v.safeParse(Flash, query.get("status") ?? "");
  return {
    state: "ok",
    link: link.output,
    devices: found.devices,
    activationLimit: deps.config.licenseActivationLimit,
    disabled: found.disabled,
    flash: flash.success ? flash.output : undefined,
    review:
      reference === null || !reviewOffered(deps.config.env, found.provider) ? undefined : reviewQuery(deps.paperwork.linkSecret, reference),
  };
}

/**
 * The page of a devices link: rendered per request, never kept by a cache, its address never sent
 * on. Each look checks a signature and reads the database, so it counts among the client's order
 * pages (`limiter`, shared with the success and refund pages): past it, 429 and nothing read.
 */
export async function devicesPage(
  deps: AppDeps,
  request: Request,
  locale: Locale,
  query: URLSearchParams,
  ip: string,
  limiter: RateLimiter,
): Promise<Response> {
  const allowed = limiter.take(ip);
  const devices: DevicesPageState = allowed.ok ? await devicesPageState(deps, query) : { state: "rate-limited" };
  const response = await deps.render({
    view: { page: "devices", devices },
    locale,
    status: allowed.ok ? 200 : 429,
    acceptEncoding: request.headers.get("accept-encoding"),
    // Switching language keeps the link; a flash is not worth keeping.
    query: devices.state === "ok" ? `?t=${devices.link}` : "",
  });
  // The link is a credential for 30 days: no other site learns it from a Referer.
  response.headers.set("referrer-policy", "strict-origin");
  if (!allowed.ok) response.headers.set("retry-after", String(allowed.retryAfterSeconds));
  return response;
}

/** GET /.well-known/jwks.json for the app; POST /api/devices/free for the buyer's devices page. */
export function devicesController(deps: AppDeps) {
  const { db, write, log, now, licenseKeys } = deps;
  const fail = failureResponder(deps);
  const limiter = createRateLimiter(deps.rateLimits, { name: "devices", ...DEVICES_RATE_LIMIT });

  /** The devices page again, in the buyer's language, with their link when it is one. */
  const devicesBack = (locale: Locale, link: string | null) => (flag: (typeof DEVICES_FLASHES)[number]) =>
    new Response(null, {
      status: 303,
      headers: {
        location: link === null ? pathFor("devices", locale) : `${pathFor("devices", locale)}?t=${link}&status=${flag}`,
        "referrer-policy": "strict-origin",
      },
    });
  const clientIp = clientAddress(deps.config);
  const devicesBody = bodyParser({
    maxBytes: MAX_BODY_BYTES,
    before: countedBy(clientIp, [limiter], (s) => `Too many requests, try again in ${s} s`),
    back: (sent, why) => {
      const partial = v.safeParse(v.object({ locale: FormLocale.entries.locale, t: DevicesLinkSchema }), sent);
      const { locale, t } = partial.success ? partial.output : { locale: DEFAULT_LOCALE, t: null };
      return devicesBack(locale, t)(why === "rate-limited" ? "rate-limited" : "unknown");
    },
  });

  return new Elysia({ name: "license-devices" })
    .use(requestContext(deps.config))
    .get(ENDPOINTS.jwks.path, async () =>
      // A rotation is seen by apps within the hour; the old key stays published far longer than that.
      Response.json(await licenseKeys.jwks(), { headers: { "cache-control": "public, max-age=3600" } }),
    )
    .post(
      ENDPOINTS.devicesFree.path,
      async ({ request, body: input }) => {
        const isForm = isFormPost(request);
        try {
          const reference = await readDevicesLink(licenseKeys, input.t);
          if (reference === null) {
            if (isForm) return devicesBack(input.locale, null)("unknown");
            return Response.json(
              { error: "This link has expired or is not valid: ask for a new one with the access form" },
              { status: 403 },
            );
          }
          const outcome = await freeDeviceOfOrder(write, reference, input.instanceId, now());
          log.info("device freed by its buyer", { outcome });
          if (isForm) return devicesBack(input.locale, input.t)(outcome);
          const left = devicesOfOrder(db, reference);
          if (outcome === "unknown")
            return Response.json({ error: "This device is not active on this licence", devices: left?.devices ?? [] }, { status: 404 });
          return Response.json({ freed: true, devices: left?.devices ?? [] });
        } catch (error) {
          return fail(error, {
            request,
            locale: input.locale,
            what: "device not freed",
            back: (why) => devicesBack(input.locale, input.t)(why === "rate-limited" ? "rate-limited" : "unknown"),
          });
        }
      },
      { parse: devicesBody, body: FreeDeviceSchema },
    );
}
