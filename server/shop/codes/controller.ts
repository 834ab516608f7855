import { Elysia } from "elysia";
import * as v from "valibot";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../../shared/locales";
import { normalizePartnerName } from "../../../shared/partner";
import { pathFor } from "../../../shared/routes";
import { CodePreviewRequestSchema } from "../../../shared/schemas/payment";
import type { AppDeps } from "../../deps";
import { isFormPost } from "../../platform/http/busy";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { codePreviewLimiter, previewCode } from "./preview";
import { CODE_REFUSAL_TEXT } from "./service";

/** A locale and a code, or the whole pay form when posted without JavaScript (its company's details too). */
export const CODE_PREVIEW_MAX_BODY_BYTES = 4096;

const FormLocale = v.object({ locale: v.picklist(LOCALES) });

/** The payment page showing a code (`?code=`, which checks it), or without one; the partner of the page's link kept. */
const paymentPageWith = (locale: Locale, code: string, ref: string) => {
  const query = new URLSearchParams();
  if (code !== "") query.set("code", code);
  const partner = normalizePartnerName(ref);
  if (partner !== null) query.set("ref", partner);
  const search = query.toString();
  return new Response(null, { status: 303, headers: { location: `${pathFor("payment", locale)}${search === "" ? "" : `?${search}`}` } });
};

/**
 * POST /api/payment/code (docs/selling.md): what a code takes off the price, never holding a use of
 * it. JSON for the payment page's script; the Apply button of a page without JavaScript posts the
 * pay form here and is sent to the payment page with `?code=`, which is rendered with the code applied
 * (or refused). Rate-limited per client with the page's `?code=`, counted before the body is read.
 */
export function codePreviewController(deps: AppDeps) {
  const { config } = deps;
  const fail = failureResponder(deps);
  const limiter = codePreviewLimiter(deps);
  const parse = bodyParser({
    maxBytes: CODE_PREVIEW_MAX_BODY_BYTES,
    before: countedBy(clientAddress(config), [limiter], (s) => `Rate limit exceeded: too many codes tried, try again in ${s} s`),
    back: (sent, why) => {
      const form = v.safeParse(FormLocale, sent);
      const locale = form.success ? form.output.locale : DEFAULT_LOCALE;
      return new Response(null, { status: 303, headers: { location: `${pathFor("payment", locale)}?error=${why}` } });
    },
  });

  return new Elysia({ name: "code-preview" }).use(requestContext(config)).post(
    ENDPOINTS.codePreview.path,
    ({ request, body }) => {
      const { locale, code, ref } = body;
      // Without JavaScript the page itself checks the code it is given: the one place that says it.
      if (isFormPost(request)) return paymentPageWith(locale, code, ref);
      try {
        if (code === "") return Response.json({ error: "Type a discount code", code: "code-unknown" }, { status: 422 });
        const previewed = previewCode(deps, code, locale);
        if (!previewed.ok)
          return Response.json({ error: CODE_REFUSAL_TEXT[previewed.reason], code: `code-${previewed.reason}` }, { status: 422 });
        return Response.json(previewed.preview);
      } catch (error) {
        return fail(error, { request, locale, what: "code preview failed", unavailable: "Could not check the code, please try again" });
      }
    },
    { parse, body: CodePreviewRequestSchema },
  );
}
