import type { CodePreview, CodeRefusal, CodeState } from "../../../shared/discount-code";
import type { Locale } from "../../../shared/locales";
import { formatExactMoney } from "../../../shared/price";
import { businessFigures } from "../../../shared/reverse-charge";
import type { AppDeps } from "../../deps";
import { createRateLimiter, type RateLimiter } from "../../platform/http/rate-limit";
import { checkCode } from "./service";

/**
 * Per client address, for the preview endpoint and the payment page with `?code=` together (both
 * say whether a code exists): a buyer tries a code or two, a script guessing codes is cut off.
 */
export const CODE_PREVIEW_RATE_LIMIT = { limit: 30, windowMs: 10 * 60 * 1000 } as const;

export const codePreviewLimiter = (deps: Pick<AppDeps, "rateLimits">): RateLimiter =>
  createRateLimiter(deps.rateLimits, { name: "code-preview", ...CODE_PREVIEW_RATE_LIMIT });

/**
 * What `typed` takes off the published price now, in the page's language: the same check as the
 * checkout's (codes/service.ts checkCode), read only, so a preview never holds a use of the code.
 */
export function previewCode(
  deps: Pick<AppDeps, "db" | "content" | "now" | "checkout">,
  typed: string,
  locale: Locale,
): { ok: true; preview: CodePreview } | { ok: false; reason: CodeRefusal } {
  const { priceMinor, currency, vat } = deps.content.current().site;
  const checked = checkCode(deps.db, typed, priceMinor, deps.now(), deps.checkout.provider.name === "test");
  if (!checked.ok) return checked;
  const { code, listAmount, discountAmount, amount } = checked.applied;
  // With their cents, as the e-mail and the invoice write them: "6,00 € off" beside "23,99 €".
  const money = (minor: number) => formatExactMoney(minor, currency, locale);
  // What a company the sale is reverse-charged to pays with the code, as the checkout charges it.
  const business = businessFigures(vat === "included", checked.applied);
  return {
    ok: true,
    preview: {
      code,
      list: money(listAmount),
      off: money(discountAmount),
      total: money(amount),
      free: amount === 0,
      business: { list: money(business.listAmount), off: money(business.discountAmount), total: money(business.amount) },
    },
  };
}

/** The payment page's code (`?code=`): applied or refused, or unchecked past the client's limit. */
export function codeStateFor(
  deps: Pick<AppDeps, "db" | "content" | "now" | "checkout">,
  typed: string,
  locale: Locale,
  allowed: boolean,
): CodeState {
  // What comes back in the field: the typed text, bounded (it is the visitor's own input, shown to them only).
  const code = typed.trim().slice(0, 32);
  if (!allowed) return { state: "rate-limited", code };
  const previewed = previewCode(deps, typed, locale);
  return previewed.ok ? { state: "applied", preview: previewed.preview } : { state: "refused", code, reason: previewed.reason };
}
