import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { errorText } from "../../../shared/error-text";
import { createTranslator } from "../../../shared/i18n";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import type { AccessFlag } from "../../../shared/page-data";
import { pathFor } from "../../../shared/routes";
import { AccessResendSchema, ActivateLicenseSchema, DeactivateLicenseSchema, VerifyLicenseSchema } from "../../../shared/schemas/licenses";
import type { AppDeps } from "../../deps";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { COMPILED } from "../../site/locales";
import { deliverySettings } from "../checkout/delivery";
import { activateLicense, deactivateLicense, handleAccessRequests, hasAccessRequests, recordAccessRequest, verifyLicense } from "./service";
import { issueLicenseToken } from "./tokens";

/** A licence call is a few short fields. */
export const LICENSE_MAX_BODY_BYTES = 2 * 1024;
/**
 * Per client address, for the three licence endpoints together. An app checks its key at start-up
 * and now and then; a script guessing keys gets a few hundred tries an hour against 2^124 keys.
 */
export const LICENSE_RATE_LIMIT = { limit: 60, windowMs: 10 * 60 * 1000 } as const;
/** The recovery form: a person sends it once or twice; a script must not mail-bomb buyers through it. */
export const ACCESS_RATE_LIMIT = { limit: 10, windowMs: 15 * 60 * 1000 } as const;

/** How long after a recovery request its batch is handled (then the e-mail goes out at once). */
export const ACCESS_BATCH_DELAY_MS = 1000;

const FormLocale = v.object({ locale: v.picklist(LOCALES) });

/** POST /api/licenses/{verify,activate,deactivate} for the app; POST /api/access/resend for buyers. */
export function licensesController(deps: AppDeps) {
  const { config, db, write, log, now } = deps;
  const fail = failureResponder(deps);
  const licenseLimiter = createRateLimiter(deps.rateLimits, { name: "licenses", ...LICENSE_RATE_LIMIT });
  const accessLimiter = createRateLimiter(deps.rateLimits, { name: "access", ...ACCESS_RATE_LIMIT });
  const limit = config.licenseActivationLimit;

  const tokenFor = async (instanceId: string, status: "active" | "inactive") => {
    const issued = await issueLicenseToken(
      deps.licenseKeys,
      { instanceId, status, activationLimit: limit },
      now(),
      config.licenseTokenDays,
    );
    return { token: issued.token, tokenExpiresAt: issued.expiresAt.toISOString() };
  };

  /**
   * The recovery form's real work, after its answer: every request recorded so far, also those a
   * stopped process left. A failure leaves them recorded for the next batch.
   */
  let running = false;
  let again = false;
  const handleRecorded = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const handled = await handleAccessRequests(write, deliverySettings(config), now());
        if (handled.queued + handled.noOrder + handled.limited > 0) log.info("access requests handled", handled); // counts, never the address
        if (handled.queued > 0) deps.mailer.wake();
      } while (again);
    } catch (error) {
      log.warn("access requests left for later", { error: errorText(error) });
    } finally {
      running = false;
    }
  };
  // In batches, a moment after the first request of each: the work a buyer's address sets off
  // (its e-mails) then falls on whatever requests come later, not on the very next one, whose time
  // would otherwise tell what the previous address was.
  let batch: ReturnType<typeof setTimeout> | undefined;
  const scheduleHandling = () => {
    batch ??= setTimeout(() => {
      batch = undefined;
      void handleRecorded();
    }, deps.accessBatchDelayMs);
    batch.unref();
  };
  // Requests recorded by a process that stopped before handling them.
  if (hasAccessRequests(db)) scheduleHandling();

  /** The licence endpoints' body: counted against the rate limit before it is read. */
  const clientIp = clientAddress(config);
  const licenceBody = bodyParser({
    maxBytes: LICENSE_MAX_BODY_BYTES,
    before: countedBy(clientIp, [licenseLimiter], (s) => `Too many licence requests, try again in ${s} s`),
  });
  /** The recovery form's way back to its page, in the language it was sent in. */
  const accessBack = (locale: Locale) => (flag: AccessFlag) =>
    new Response(null, { status: 303, headers: { location: `${pathFor("access", locale)}?status=${flag}#lost-access` } });
  const accessBody = bodyParser({
    maxBytes: LICENSE_MAX_BODY_BYTES,
    before: countedBy(clientIp, [accessLimiter], (s) => `Too many requests, try again in ${s} s`),
    back: (sent, why) => {
      const form = v.safeParse(FormLocale, sent);
      return accessBack(form.success ? form.output.locale : DEFAULT_LOCALE)(why);
    },
  });
  /** A licence call's work, its failures answered by the shared responder. */
  const handle = async (request: Request, run: () => Response | Promise<Response>): Promise<Response> => {
    try {
      return await run();
    } catch (error) {
      return fail(error, { request, locale: DEFAULT_LOCALE, what: "licence request not handled" });
    }
  };

  return new Elysia({ name: "licenses" })
    .use(requestContext(config))
    .post(
      ENDPOINTS.licenseVerify.path,
      ({ request, body: { key, instanceId } }) =>
        handle(request, async () => {
          const found = verifyLicense(db, key, limit, instanceId);
          if (found === null) return Response.json({ valid: false }, { status: 404 });
          // A token only for an installation that still holds a slot of an enabled licence: a freed
          // device or a refunded key learns it at its next renewal.
          if (instanceId === undefined || !found.valid || found.status === "disabled") return Response.json(found);
          const issued = await tokenFor(instanceId, found.status);
          return Response.json({ ...found, ...issued });
        }),
      { parse: licenceBody, body: VerifyLicenseSchema },
    )
    .post(
      ENDPOINTS.licenseActivate.path,
      ({ request, body: { key, instanceName, deviceId } }) =>
        handle(request, async () => {
          const result = await activateLicense(write, key, { instanceName, deviceId }, limit, now());
          switch (result.kind) {
            case "activated": {
              log.info("licence activated", { activations: result.activations, again: result.again });
              const issued = await tokenFor(result.instanceId, "active");
              return Response.json(
                { instanceId: result.instanceId, activations: result.activations, activationLimit: limit, ...issued },
                // The same device again: nothing new was made.
                { status: result.again ? 200 : 201 },
              );
            }
            case "not-found":
              return Response.json({ error: "Unknown licence key" }, { status: 404 });
            case "disabled":
              return Response.json({ error: "This licence key is disabled (refunded or blocked); write to support" }, { status: 403 });
            case "limit":
              return Response.json(
                {
                  error: `This key is already active on ${result.activations} devices, the limit: deactivate one of them first`,
                  activations: result.activations,
                  activationLimit: limit,
                },
                { status: 409 },
              );
          }
        }),
      { parse: licenceBody, body: ActivateLicenseSchema },
    )
    .post(
      ENDPOINTS.licenseDeactivate.path,
      ({ request, body: { key, instanceId } }) =>
        handle(request, async () => {
          const result = await deactivateLicense(write, key, instanceId, now());
          switch (result.kind) {
            case "deactivated":
              return Response.json({ deactivated: true, activations: result.activations, activationLimit: limit });
            case "not-found":
              return Response.json({ error: "Unknown licence key" }, { status: 404 });
            case "unknown-instance":
              return Response.json({ error: "No active installation with this instanceId for this key" }, { status: 404 });
          }
        }),
      { parse: licenceBody, body: DeactivateLicenseSchema },
    )
    .post(
      ENDPOINTS.accessResend.path,
      async ({ request, body: input }) => {
        const back = accessBack(input.locale);
        try {
          // The same work for every address: record the request. The lookup and the e-mails come
          // after the answer, so its time tells nothing either.
          await recordAccessRequest(write, input.email, now());
          scheduleHandling();
          if (isFormPost(request)) return back("sent");
          const t = createTranslator(input.locale, COMPILED[input.locale]);
          return Response.json({ ok: true, message: t("access.sent") }, { status: 202 });
        } catch (error) {
          return fail(error, {
            request,
            locale: input.locale,
            what: "access resend not handled",
            back,
            unavailable: "Could not handle the request right now, please try again",
          });
        }
      },
      { parse: accessBody, body: AccessResendSchema },
    );
}
