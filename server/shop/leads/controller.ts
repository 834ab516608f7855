import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import type { LeadFlag } from "../../../shared/page-data";
import { pathFor } from "../../../shared/routes";
import { LeadSchema } from "../../../shared/schemas/leads";
import type { AppDeps } from "../../deps";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { hashIp, loadIpHashSecret, recordLead } from "./service";

/** A lead body is three short fields; anything past this is not a visitor filling in a form. */
export const LEAD_MAX_BODY_BYTES = 4 * 1024;
/**
 * Per client address. A visitor submits once or twice; the margin is for people sharing one address
 * (office, mobile carrier NAT). Counted before the body is read, so floods cost almost nothing.
 */
export const LEAD_RATE_LIMIT = { limit: 10, windowMs: 15 * 60 * 1000 } as const;

/** Where the no-JavaScript footer form lands after a post (client/components/lead-form.tsx). */
export const LEAD_FORM_ANCHOR = "free-demo";

const FormLocale = v.object({ locale: v.picklist(LOCALES) });

/** POST /api/leads (docs/leads.md): JSON from the popup, or a plain form post without JavaScript. */
export function leadsController(deps: AppDeps) {
  const { config, log, now } = deps;
  const fail = failureResponder(deps);
  const limiter = createRateLimiter(deps.rateLimits, { name: "leads", ...LEAD_RATE_LIMIT });
  // Read on first use, not at start-up: apps built by other features' tests never touch DATA_DIR.
  let secret: string | undefined;
  const ipHash = (ip: string) => hashIp((secret ??= loadIpHashSecret(config.ipHashSecret, config.dataDir)), ip);

  const clientIp = clientAddress(config);
  const backToForm = (locale: Locale) => (flag: LeadFlag) =>
    new Response(null, { status: 303, headers: { location: `${pathFor("landing", locale)}?lead=${flag}#${LEAD_FORM_ANCHOR}` } });
  const leadBody = bodyParser({
    maxBytes: LEAD_MAX_BODY_BYTES,
    failedCheck: 400,
    before: countedBy(clientIp, [limiter], (s) => `Rate limit exceeded: too many submissions, try again in ${s} s`),
    // A refused form post is sent back to its own language's page.
    back: (sent, why) => {
      const form = v.safeParse(FormLocale, sent);
      return backToForm(form.success ? form.output.locale : DEFAULT_LOCALE)(why);
    },
  });

  return new Elysia({ name: "leads" }).use(requestContext(config)).post(
    ENDPOINTS.leads.path,
    async ({ request, ip, body: lead }) => {
      try {
        const outcome = await recordLead(deps.write, { ...lead, ipHash: ipHash(ip), now: now() }, config.mail.domain);
        if (outcome === "new" || outcome === "sent-again") deps.mailer.wake();
        log.info("lead stored", { outcome, locale: lead.locale, source: lead.source });
        if (isFormPost(request)) return backToForm(lead.locale)("sent");
        // The same answer whatever the outcome: the endpoint must not reveal who signed up (or
        // unsubscribed). The confirmation's wording is true in every case (demoSentDesc).
        return Response.json({ ok: true }, { status: 201 });
      } catch (error) {
        // Nothing was acknowledged: the visitor is told to try again.
        return fail(error, {
          request,
          locale: lead.locale,
          what: "lead not stored",
          back: backToForm(lead.locale),
          unavailable: "Could not store the address right now, please try again",
        });
      }
    },
    { parse: leadBody, body: LeadSchema },
  );
}
