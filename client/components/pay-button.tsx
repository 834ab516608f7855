import { type FormEvent, useEffect, useRef, useState } from "react";
import * as v from "valibot";
import { PAYMENT } from "../../shared/api";
import {
  BUSINESS_ERROR_KEYS,
  BUSINESS_FIELDS,
  type BusinessErrorKey,
  type BusinessField,
  businessErrorsOf,
  COUNTRIES_RULES_TELL_APART,
  checkBusiness,
} from "../../shared/business-buyer";
import { countriesIn } from "../../shared/countries";
import { CODE_REFUSALS, type CodePreview, type CodeRefusal, type CodeState, normalizeDiscountCode } from "../../shared/discount-code";
import type { Locale } from "../../shared/locales";
import type { IslandProps } from "../../shared/page-data";
import { normalizePartnerName } from "../../shared/partner";
import { isReverseChargedAsTyped } from "../../shared/reverse-charge";
import { pathFor } from "../../shared/routes";
import { CodePreviewSchema, PaymentResponseSchema } from "../../shared/schemas/payment";
import { useText } from "../i18n";
import { CONSENT_TEXT, ConsentBox } from "./consent-box";
import { Icon } from "./icons";
import { showToast } from "./toast";

/** The endpoint's answer to a code that does not apply: 422 with `code: "code-<reason>"`; to a company's details: `fields`. */
const CodeRefusedAnswer = v.object({ code: v.string() });
const BusinessRefusedAnswer = v.object({ code: v.literal("business-invalid"), fields: v.record(v.string(), v.string()) });

/** Each field's id in the page, for its label and the error summary's links. */
const FIELD_IDS: Record<BusinessField, string> = {
  company: "business-company",
  companyAddress: "business-address",
  companyCountry: "business-country",
  vatNumber: "business-vat",
};
type BusinessErrors = Partial<Record<BusinessField, BusinessErrorKey>>;

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
  "payment.code.freeButton",
  "pay.tickFirst",
  "pay.tickFirstFree",
  "payment.code.label",
  "payment.code.hint",
  "payment.code.applied",
  "payment.code.remove",
  "payment.code.apply",
  "payment.code.checking",
  "payment.code.before",
  "payment.code.reduction",
  "payment.code.free",
  "payment.code.rate-limited",
  "orderTotal",
  "orderVat",
  "payment.totalExclVat",
  "payment.priceInclVat",
  "payment.reverseCharge",
  "payButtonExclVat",
  "payment.code.unknown",
  "payment.code.not-started",
  "payment.code.expired",
  "payment.code.used-up",
  "payment.noticeConsent",
  "business.title",
  "business.intro",
  "business.company",
  "business.address",
  "business.country",
  "business.countryChoose",
  "business.otherCountries",
  "business.vatNumber",
  "business.vatHint",
  "business.errorSummary",
  "business.error.company",
  "business.error.address",
  "business.error.country",
  "business.error.vatNumber",
  "business.error.vatCheck",
  "business.error.vatCountry",
  ...CONSENT_TEXT,
] as const;

/** The code refusal an answer carries (422 with `code: "code-<reason>"`), if it is one. */
function codeRefusalOf(status: number, body: unknown): CodeRefusal | undefined {
  const answer = v.safeParse(CodeRefusedAnswer, body);
  if (status !== 422 || !answer.success) return undefined;
  return CODE_REFUSALS.find((r) => `code-${r}` === answer.output.code);
}

/** Why the code beside the field does not apply, as the page says it (`payment.code.<why>`). */
type CodeProblem = CodeRefusal | "rate-limited";

/** The code the page came with (`?code=`, checked by the server): what the field holds, applied or why not. */
function initialCode(
  state: CodeState | undefined,
  codeError: CodeRefusal | undefined,
): { typed: string; applied: CodePreview | undefined; problem: CodeProblem | undefined } {
  if (state === undefined) return { typed: "", applied: undefined, problem: codeError };
  if (state.state === "applied") return { typed: state.preview.code, applied: state.preview, problem: undefined };
  return { typed: state.code, applied: undefined, problem: state.state === "refused" ? state.reason : "rate-limited" };
}

const refFromAddress = (): string => normalizePartnerName(new URLSearchParams(window.location.search).get("ref") ?? "") ?? "";

/**
 * The countries a company may be in, named in the page's language. On the server, by its
 * Intl.DisplayNames: only those the tax rules tell apart (30 of ~250: the page stays light for the
 * many who buy for themselves), every one with `all` (`?countries=all`, the no-JavaScript way to the
 * rest). In the browser, first read back from the list the server rendered (the browser's own names
 * could differ and break hydration), then every country, named by the browser, once hydrated.
 */
function companyCountries(locale: Locale, all: boolean): { code: string; name: string }[] {
  if (typeof document !== "undefined") {
    const select = document.getElementById(FIELD_IDS.companyCountry);
    if (select instanceof HTMLSelectElement)
      return [...select.options].filter((o) => o.value !== "").map((o) => ({ code: o.value, name: o.text }));
  }
  const every = countriesIn(locale);
  return all ? every : every.filter((c) => COUNTRIES_RULES_TELL_APART.includes(c.code));
}

export function PayButton({
  navigate = defaultNavigate,
  consentMissing = false,
  codeError,
  noticeBox = false,
  businessError,
  allCountries = false,
  business: typed = {},
  price,
  businessPrice,
  code: codeState,
  partnerRef,
  codePreviewPath,
}: IslandProps["pay-button"] & { navigate?: Navigate }) {
  // The company section: its problems (from the server's redirect, or checked here before sending),
  // listed in a summary that takes the focus, each linked to its field.
  const [businessErrors, setBusinessErrors] = useState<BusinessErrors>(() => businessErrorsOf(businessError));
  const [summaryShown, setSummaryShown] = useState(0);
  const summaryRef = useRef<HTMLDivElement>(null);
  const businessRef = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (summaryShown > 0) summaryRef.current?.focus();
  }, [summaryShown]);
  const showBusinessErrors = (errors: BusinessErrors) => {
    setBusinessErrors(errors);
    if (businessRef.current !== null) businessRef.current.open = true;
    setSummaryShown((n) => n + 1);
  };
  const noticeRef = useRef<HTMLInputElement>(null);
  const { t, locale } = useText(PAY_BUTTON_TEXT);
  const [countries, setCountries] = useState(() => companyCountries(locale, allCountries));
  // Once the script runs, the list holds every country and the link to the full page has no use.
  const [everyCountry, setEveryCountry] = useState(allCountries);
  useEffect(() => {
    setCountries(countriesIn(locale));
    setEveryCountry(true);
  }, [locale]);
  const [busy, setBusy] = useState(false);
  // The code: the one the server checked for the page (`?code=`), then those applied here.
  const [start] = useState(() => initialCode(codeState, codeError));
  const [code, setCode] = useState(start.typed);
  const [applied, setApplied] = useState<CodePreview | undefined>(start.applied);
  const [refusal, setRefusal] = useState<CodeProblem | undefined>(start.problem);
  const [checking, setChecking] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  // The company's country and VAT number as typed: another member state's company with a VAT number
  // of its country's format pays the price excluding VAT (reverse charge), which the total and the
  // button then show, as the checkout will charge it. Not under the franchise (no businessPrice):
  // there is no VAT to take off.
  const [company, setCompany] = useState({ country: typed.companyCountry ?? "", vatNumber: typed.vatNumber ?? "" });
  const reverseCharged = businessPrice !== undefined && isReverseChargedAsTyped(company.country, company.vatNumber);
  // The total is the code's while the field holds that code; typing another shows the price again.
  const applies = applied !== undefined && normalizeDiscountCode(code) === applied.code ? applied : undefined;
  const shown = applies !== undefined && reverseCharged && applies.business !== undefined ? { ...applies, ...applies.business } : applies;
  const total = shown?.total ?? (reverseCharged && businessPrice !== undefined ? businessPrice : price);
  // A code covering the whole price asks for no card: the button does not say "pay", and nothing
  // on the form speaks of paying, of VAT or of a money-back guarantee.
  const free = shown?.free === true;
  const payLabel =
    shown?.free === true
      ? t("payment.code.freeButton")
      : reverseCharged
        ? t("payButtonExclVat", { price: total })
        : t("payButton", shown === undefined ? {} : { price: shown.total });
  const paymentPath = pathFor("payment", locale);
  // The address says the code, so that a reload or another language keeps it (the server checks it again).
  // A partner's `?ref=` stays beside it: the pay request reads the partner from the address.
  const showInAddress = (applying: string) => {
    const query = new URLSearchParams();
    if (applying !== "") query.set("code", applying);
    const ref = refFromAddress();
    if (ref !== "") query.set("ref", ref);
    const search = query.toString();
    window.history.replaceState(window.history.state, "", search === "" ? paymentPath : `${paymentPath}?${search}`);
  };
  // The partner's own code (`?ref=` with no code typed) is not removed: an empty field gets it again
  // at payment (server/shop/checkout/service.ts). The buyer may type another code, which wins.
  const partnerCode = codeState?.state === "applied" && codeState.partner !== undefined ? codeState.preview.code : undefined;

  /** The Apply button with JavaScript: the server's preview, shown without leaving the page (it holds no use of the code). */
  const applyCode = async () => {
    if (checking) return;
    const typed = code.trim();
    if (typed === "") {
      setRefusal("unknown");
      codeRef.current?.focus();
      return;
    }
    setChecking(true);
    try {
      const response = await fetch(codePreviewPath, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ locale, code: typed }),
      });
      const body: unknown = await response.json().catch(() => null);
      const preview = v.safeParse(CodePreviewSchema, body);
      if (response.ok && preview.success) {
        setApplied(preview.output);
        setCode(preview.output.code);
        setRefusal(undefined);
        showInAddress(preview.output.code);
        return;
      }
      const refused = codeRefusalOf(response.status, body);
      if (refused !== undefined) {
        setApplied(undefined);
        setRefusal(refused);
        codeRef.current?.focus();
        return;
      }
      if (response.status === 429) {
        setRefusal("rate-limited");
        codeRef.current?.focus();
        return;
      }
      showToast({ title: t("paymentError"), description: t("paymentErrorDesc"), tone: "error" });
    } catch {
      // The network failed: the browser's own message is technical, ours says to try again.
      showToast({ title: t("paymentError"), description: t("paymentErrorDesc"), tone: "error" });
    } finally {
      setChecking(false);
    }
  };
  const removeCode = () => {
    setApplied(undefined);
    setCode("");
    setRefusal(undefined);
    showInAddress("");
    codeRef.current?.focus();
  };
  // The consent box: unticked, nothing is sent and the box says why. `consentMissing` is the
  // server's answer to a plain form post without it (`?error=consent`).
  const [consentError, setConsentError] = useState(consentMissing);
  const consentRef = useRef<HTMLInputElement>(null);
  // Whether the box is ticked, known once the script runs: until then (and without JavaScript) the
  // button stays a plain submit, and the server answers an unticked post with the reason.
  const [ticked, setTicked] = useState<boolean | null>(null);
  useEffect(() => {
    setTicked(consentRef.current?.checked === true);
  }, []);
  const waiting = ticked === false;
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
    const typed = new FormData(event.currentTarget);
    const company = Object.fromEntries(BUSINESS_FIELDS.map((f) => [f, String(typed.get(f) ?? "")]));
    const checked = checkBusiness(company);
    if (!checked.ok) {
      showBusinessErrors(checked.errors);
      return;
    }
    setBusinessErrors({});
    setBusy(true);
    try {
      const response = await fetch(PAYMENT.path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          locale,
          acceptTerms: true,
          showInNotice: noticeRef.current?.checked === true,
          ...(code.trim() === "" ? {} : { code: code.trim() }),
          ...(checked.business === null ? {} : company),
          // The partner whose link brought the buyer (kept in the site's links: client/carry-params.ts).
          ...(refFromAddress() === "" ? {} : { ref: refFromAddress() }),
        }),
      });
      const body: unknown = await response.json().catch(() => null);
      const business = v.safeParse(BusinessRefusedAnswer, body);
      if (response.status === 422 && business.success) {
        const errors: BusinessErrors = {};
        for (const f of BUSINESS_FIELDS) {
          const key = Object.values(BUSINESS_ERROR_KEYS).find((k) => k === business.output.fields[f]);
          if (key !== undefined) errors[f] = key;
        }
        setBusy(false);
        showBusinessErrors(errors);
        return;
      }
      const refused = codeRefusalOf(response.status, body);
      if (refused !== undefined) {
        // The code does not apply: said beside the field, nothing was started; the buyer may remove it and pay.
        setApplied(undefined);
        setRefusal(refused);
        setBusy(false);
        codeRef.current?.focus();
        return;
      }
      if (!response.ok)
        throw new Error(
          t(
            response.status === 429
              ? "paymentRateLimit"
              : response.status === 422
                ? free
                  ? "consent.requiredFree"
                  : "consent.required"
                : "paymentErrorDesc",
          ),
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
    <form method="post" action={PAYMENT.path} className="pay-form" onSubmit={onSubmit} noValidate data-free={free ? "" : undefined}>
      <input type="hidden" name="locale" value={locale} />
      {partnerRef === undefined ? null : <input type="hidden" name="ref" value={partnerRef} />}
      {/* Enter in a field submits the form through its first submit button. The code's Apply button
          comes first on screen, so this copy of the pay button comes first in the form: Enter pays,
          as it always has (with the code typed), and keeps what the buyer typed in the other fields. */}
      <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" disabled={busy}>
        {payLabel}
      </button>
      <div className="field discount-code">
        <label htmlFor="discount-code">{t("payment.code.label")}</label>
        <div className="discount-code__row">
          <input
            ref={codeRef}
            id="discount-code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            value={code}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setRefusal(undefined);
            }}
            onKeyDown={(event) => {
              // With the script, Enter in the code's own field applies it, as its button would.
              if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
              event.preventDefault();
              void applyCode();
            }}
            aria-invalid={refusal !== undefined}
            aria-describedby={refusal !== undefined ? "discount-code-error" : "discount-code-hint"}
          />
          {/* Without JavaScript it posts the form to the preview, which sends the page back with ?code=. */}
          <button
            type="submit"
            formAction={codePreviewPath}
            formNoValidate
            className="button button--ghost button--small"
            aria-busy={checking}
            data-testid="apply-code"
            onClick={(event) => {
              event.preventDefault();
              void applyCode();
            }}
          >
            {checking ? t("payment.code.checking") : t("payment.code.apply")}
          </button>
        </div>
        {refusal !== undefined ? (
          <p id="discount-code-error" className="field__error" role="alert">
            {t(`payment.code.${refusal}`)}
          </p>
        ) : (
          <div id="discount-code-hint" role="status">
            {shown !== undefined ? (
              <p className="discount-code__applied" data-testid="code-applied">
                {t("payment.code.applied", { code: shown.code, off: shown.off })}{" "}
                {shown.code === partnerCode ? null : (
                  <a
                    href={paymentPath}
                    className="discount-code__remove"
                    onClick={(event) => {
                      event.preventDefault();
                      removeCode();
                    }}
                  >
                    {t("payment.code.remove")}
                  </a>
                )}
              </p>
            ) : (
              <p className="muted">{t("payment.code.hint")}</p>
            )}
          </div>
        )}
      </div>
      <div className="order-total" data-price="">
        <span>{t(reverseCharged ? "payment.totalExclVat" : "orderTotal")}</span>
        <span className="order-total__amount" data-testid="order-total">
          {shown !== undefined ? (
            <>
              <del data-testid="list-price">
                <span className="sr-only">{t("payment.code.before")} </span>
                {shown.list}
              </del>{" "}
              {shown.total}
            </>
          ) : reverseCharged ? (
            // The price above, which includes French VAT, struck: the company pays it without.
            <>
              <del data-testid="list-price">
                <span className="sr-only">{t("payment.priceInclVat")} </span>
                {price}
              </del>{" "}
              {total}
            </>
          ) : (
            total
          )}
        </span>
      </div>
      {shown !== undefined ? (
        <p className="order-total__reduction" data-testid="code-reduction">
          {t(shown.free ? "payment.code.free" : "payment.code.reduction", { code: shown.code, off: shown.off })}
        </p>
      ) : null}
      {/* Announced when it changes: the company's details just changed what is charged. */}
      <p className="muted order-total__vat" aria-live="polite" data-testid="order-vat">
        {free ? "" : t(reverseCharged ? "payment.reverseCharge" : "orderVat")}
      </p>
      <details
        className="business"
        ref={businessRef}
        open={allCountries || Object.keys(businessErrors).length > 0 || Object.keys(typed).length > 0}
        data-testid="business"
        onChange={(event) => {
          const field = event.target;
          if (
            (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) &&
            (field.name === "companyCountry" || field.name === "vatNumber")
          )
            setCompany((typedSoFar) => ({ ...typedSoFar, [field.name === "vatNumber" ? "vatNumber" : "country"]: field.value }));
        }}
      >
        <summary>{t("business.title")}</summary>
        <p className="muted">{t("business.intro")}</p>
        {Object.keys(businessErrors).length > 0 ? (
          <div className="error-summary" ref={summaryRef} tabIndex={-1} role="alert" aria-labelledby="business-summary-title">
            <p id="business-summary-title">
              <strong>{t("business.errorSummary")}</strong>
            </p>
            <ul>
              {BUSINESS_FIELDS.map((f) => {
                const key = businessErrors[f];
                return key === undefined ? null : (
                  <li key={f}>
                    <a href={`#${FIELD_IDS[f]}`}>{t(key)}</a>
                  </li>
                );
              })}
            </ul>
          </div>
        ) : null}
        {BUSINESS_FIELDS.map((f) => {
          const key = businessErrors[f];
          const id = FIELD_IDS[f];
          const described = [key !== undefined ? `${id}-error` : null, f === "vatNumber" ? `${id}-hint` : null]
            .filter((x) => x !== null)
            .join(" ");
          const common = {
            id,
            name: f,
            "aria-invalid": key !== undefined ? true : undefined,
            "aria-describedby": described === "" ? undefined : described,
          } as const;
          const label = {
            company: "business.company",
            companyAddress: "business.address",
            companyCountry: "business.country",
            vatNumber: "business.vatNumber",
          } as const;
          return (
            <div className="field" key={f}>
              <label htmlFor={id}>{t(label[f])}</label>
              {f === "companyAddress" ? (
                <textarea {...common} rows={2} maxLength={300} autoComplete="street-address" defaultValue={typed[f]} />
              ) : f === "companyCountry" ? (
                <select {...common} defaultValue={typed[f] ?? ""} autoComplete="country">
                  <option value="">{t("business.countryChoose")}</option>
                  {countries.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type="text"
                  maxLength={f === "company" ? 120 : 20}
                  autoComplete={f === "company" ? "organization" : "off"}
                  spellCheck={false}
                  autoCapitalize={f === "vatNumber" ? "characters" : undefined}
                  defaultValue={typed[f]}
                />
              )}
              {f === "companyCountry" && !everyCountry ? (
                <p className="muted">
                  <a href={`${pathFor("payment", locale)}?countries=all#${id}`}>{t("business.otherCountries")}</a>
                </p>
              ) : null}
              {f === "vatNumber" ? (
                <p id={`${id}-hint`} className="muted">
                  {t("business.vatHint")}
                </p>
              ) : null}
              {key !== undefined ? (
                <p id={`${id}-error`} className="field__error">
                  {t(key)}
                </p>
              ) : null}
            </div>
          );
        })}
      </details>
      <ConsentBox
        id="accept-terms"
        name="acceptTerms"
        error={consentError ? t(free ? "consent.requiredFree" : "consent.required") : null}
        free={free}
        inputRef={consentRef}
        onChange={(event) => {
          const checked = event.currentTarget.checked;
          setTicked(checked);
          if (checked) setConsentError(false);
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
        // Not `disabled`: it stays focusable and clickable, so that a click says what is missing.
        aria-disabled={waiting ? true : undefined}
        aria-describedby={waiting && !consentError ? "pay-reason" : undefined}
        data-testid="pay-button"
      >
        <Icon name="lock" />
        {busy ? t("payRedirecting") : payLabel}
      </button>
      {waiting && !consentError ? (
        <p className="pay-form__reason" id="pay-reason" data-testid="pay-reason">
          {t(free ? "pay.tickFirstFree" : "pay.tickFirst")}
        </p>
      ) : null}
    </form>
  );
}
