import { type FormEvent, useEffect, useRef, useState } from "react";
import * as v from "valibot";
import { PaymentResponseSchema } from "../../shared/schemas/payment";
import type { IslandProps } from "../../shared/page-data";
import { useText } from "../i18n";
import { ConsentBox, CONSENT_TEXT } from "./consent-box";
import { Icon } from "./icons";
import { showToast } from "./toast";
import { PAYMENT } from "../../shared/api";

/** Where the browser goes; replaceable in component tests (happy-dom does not navigate). */
export type Navigate = (url: string) => void;
const defaultNavigate: Navigate = (url) => window.location.assign(url);

/**
 * The pay button and the consent box above it (docs/checkout.md). A plain form
 * post to /api/payment, which answers 303 to the hosted card page (or back to the payment page
 * with `?error=consent` when the box was not ticked), so paying works without JavaScript. With
 * JavaScript it asks for the URL as JSON: busy (disabled, redirecting label), then the browser goes
 * there; on failure back to idle with the error toast.
 */
export const PAY_BUTTON_TEXT = [
  "paymentRateLimit",
  "paymentErrorDesc",
  "paymentUrlMissing",
  "paymentError",
  "payRedirecting",
  "payButton",
  "payment.noticeConsent",
  ...CONSENT_TEXT,
] as const;

export function PayButton({
  navigate = defaultNavigate,
  consentMissing = false,
  noticeBox = false,
}: IslandProps["pay-button"] & { navigate?: Navigate }) {
  const noticeRef = useRef<HTMLInputElement>(null);
  const { t, locale } = useText(PAY_BUTTON_TEXT);
  const [busy, setBusy] = useState(false);
  // The consent box: unticked, nothing is sent and the box says why. `consentMissing` is the
  // server's answer to a plain form post without it (`?error=consent`).
  const [consentError, setConsentError] = useState(consentMissing);
  const consentRef = useRef<HTMLInputElement>(null);
  // While busy the button is disabled, and the browser may drop focus to the page: after a failure
  // give it back to the button, so a keyboard user can try again where they were.
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures > 0) buttonRef.current?.focus();
  }, [failures]);

  // Coming back from the card page with the browser's back button restores this page from the
  // history cache as it was left, busy: make the button usable again.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener("pageshow", reset);
    return () => window.removeEventListener("pageshow", reset);
  }, []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (consentRef.current?.checked !== true) {
      setConsentError(true);
      consentRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const response = await fetch(PAYMENT.path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ locale, acceptTerms: true, showInNotice: noticeRef.current?.checked === true }),
      });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok)
        throw new Error(
          t(response.status === 429 ? "paymentRateLimit" : response.status === 422 ? "consent.required" : "paymentErrorDesc"),
        );
      const parsed = v.safeParse(PaymentResponseSchema, body);
      // An answer without a url is a failure with its own message (docs/product.md, "Validation and error messages").
      if (!parsed.success) throw new Error(t("paymentUrlMissing"));
      navigate(parsed.output.url);
    } catch (error) {
      // A network failure's own message is the browser's (English, technical): show ours instead.
      const description = error instanceof Error && !(error instanceof TypeError) ? error.message : t("paymentErrorDesc");
      showToast({ title: t("paymentError"), description, tone: "error" });
      setBusy(false);
      setFailures((n) => n + 1);
    }
  };

  return (
    <form method="post" action={PAYMENT.path} className="pay-form" onSubmit={onSubmit} noValidate>
      <input type="hidden" name="locale" value={locale} />
      <ConsentBox
        id="accept-terms"
        name="acceptTerms"
        error={consentError ? t("consent.required") : null}
        inputRef={consentRef}
        onChange={(event) => {
          if (event.currentTarget.checked) setConsentError(false);
        }}
        autoFocus={consentMissing}
      />
      {noticeBox ? (
        <label className="notice-box" htmlFor="show-in-notice">
          <input ref={noticeRef} id="show-in-notice" type="checkbox" name="showInNotice" value="yes" data-testid="notice-box" />
          <span>{t("payment.noticeConsent")}</span>
        </label>
      ) : null}
      <button
        ref={buttonRef}
        type="submit"
        className="button button--primary button--large button--block"
        disabled={busy}
        aria-busy={busy}
        data-testid="pay-button"
      >
        <Icon name="lock" />
        {busy ? t("payRedirecting") : t("payButton")}
      </button>
    </form>
  );
}
