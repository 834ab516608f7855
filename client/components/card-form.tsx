import { type FormEvent, type InputHTMLAttributes, useCallback, useEffect, useRef, useState } from "react";
import { testCheckoutPath } from "../../shared/api";
import type { IslandProps, TestCheckoutView } from "../../shared/page-data";
import { pathFor } from "../../shared/routes";
import { type CardField, CHECKOUT_ERROR_KEYS, checkFreeClaim, checkTestCard } from "../../shared/schemas/payment";
import { useText } from "../i18n";
import { applyFormat, CARD_INPUT_MAX, EXPIRY_INPUT_MAX, formatExpiryInput, groupCardNumber } from "./card-input";
import { Icon } from "./icons";
import { LinkedText } from "./linked-text";

type Errors = TestCheckoutView["errors"];
const FIELD_ORDER: CardField[] = ["email", "name", "city", "country", "card", "expiry", "cvc"];
/** The note that says where the name's initial and the city are shown; it describes both fields. */
const PURCHASE_NOTICE_ID = "tc-purchase-notice";

export const CARD_FORM_TEXT = [
  "checkout.email",
  "checkout.name",
  "checkout.city",
  "checkout.country",
  "checkout.card",
  "checkout.expiry",
  "checkout.cvc",
  "checkout.paying",
  "checkout.pay",
  "checkout.cancel",
  "checkout.consentGiven",
  "checkout.consentGivenFree",
  "checkout.claim",
  "checkout.claiming",
  "purchaseNotice.text",
  ...CHECKOUT_ERROR_KEYS,
] as const;

/**
 * The test checkout's card form: a real form that posts to itself (CSP form-action 'self'), so it
 * works without JavaScript; the script only checks the fields with the same schema before sending
 * and blocks a second submit.
 */
export function CardForm({ view }: IslandProps["card-form"]) {
  const { t, locale } = useText(CARD_FORM_TEXT);
  const { session, values } = view;
  const notice = view.purchaseNotice ? PURCHASE_NOTICE_ID : undefined;
  const [errors, setErrors] = useState<Errors>(view.errors);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript the effect below never runs: the server's answer puts the browser's own
  // focus (autofocus) on the first field with a problem instead.
  const firstServerProblem = FIELD_ORDER.find((f) => view.errors[f] !== undefined);
  const alertRef = useRef<HTMLParagraphElement>(null);

  // Reads only refs: the same function for the component's life.
  const focusFirstProblem = useCallback((problems: Errors) => {
    const first = FIELD_ORDER.find((f) => problems[f] !== undefined);
    const input = first ? formRef.current?.elements.namedItem(first) : null;
    if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) input.focus();
    else alertRef.current?.focus();
  }, []);

  // After a server answer with problems (no-JS round trip or decline), put focus where they are.
  useEffect(() => {
    if (Object.keys(view.errors).length > 0) focusFirstProblem(view.errors);
  }, [view.errors, focusFirstProblem]);

  // This page is often the answer to a form post (a decline, a field the server refused). Made a
  // plain entry of the history, coming Back to it loads the session as it is now (paid, expired)
  // instead of asking to post again or showing an old "card declined".
  useEffect(() => {
    window.history.replaceState(window.history.state, "", window.location.href);
  }, []);

  // Back through the browser's page cache (which may keep even a no-store page): the copy may be
  // out of date (paid since, in this tab or another), so ask the server again.
  useEffect(() => {
    const reload = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener("pageshow", reload);
    return () => window.removeEventListener("pageshow", reload);
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    const data = Object.fromEntries(new FormData(event.currentTarget));
    const checked = session.free ? checkFreeClaim(data) : checkTestCard(data, new Date());
    if (!checked.ok) {
      event.preventDefault();
      setErrors(checked.errors);
      focusFirstProblem(checked.errors);
      return;
    }
    // The browser posts the form itself; the button only shows that it is on its way.
    setErrors({});
    setBusy(true);
  };

  const field = (name: CardField, label: string, props: InputHTMLAttributes<HTMLInputElement>, defaultValue = "", note?: string) => {
    const error = errors[name];
    const errorId = `${name}-error`;
    const describedBy = [error !== undefined ? errorId : null, note ?? null].filter((id) => id !== null).join(" ");
    return (
      <div className={`test-checkout__field test-checkout__field--${name}`}>
        <label htmlFor={`tc-${name}`}>{label}</label>
        <input
          id={`tc-${name}`}
          name={name}
          defaultValue={defaultValue}
          required
          aria-invalid={error !== undefined ? true : undefined}
          aria-describedby={describedBy === "" ? undefined : describedBy}
          autoFocus={name === firstServerProblem}
          {...props}
        />
        {error !== undefined ? (
          <p className="test-checkout__error" id={errorId}>
            {t(error)}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form ref={formRef} method="post" action={testCheckoutPath(session.id)} className="test-checkout__form" onSubmit={onSubmit} noValidate>
      <div aria-live="assertive">
        {errors.form !== undefined ? (
          <p ref={alertRef} className="form-error" role="alert" tabIndex={-1} data-testid="checkout-error">
            {t(errors.form)}
          </p>
        ) : null}
      </div>
      {field("email", t("checkout.email"), { type: "email", autoComplete: "email", maxLength: 255 }, values.email)}
      {/* What is typed here is shown to other visitors (the first name's initial and the city, in
          the recent-purchases notice): said where it is typed, read with both fields. */}
      {field("name", t("checkout.name"), { type: "text", autoComplete: "name", maxLength: 120 }, values.name, notice)}
      {field("city", t("checkout.city"), { type: "text", autoComplete: "address-level2", maxLength: 80 }, values.city, notice)}
      {/* The billing country: it sets the VAT of the sale (shown on the invoice). A plain select,
          so it works by keyboard and without JavaScript; the page's likely country comes first. */}
      <div className="test-checkout__field test-checkout__field--country">
        <label htmlFor="tc-country">{t("checkout.country")}</label>
        <select
          id="tc-country"
          name="country"
          defaultValue={values.country}
          required
          autoComplete="country"
          aria-invalid={errors.country !== undefined ? true : undefined}
          aria-describedby={errors.country !== undefined ? "country-error" : undefined}
          autoFocus={firstServerProblem === "country"}
        >
          {view.countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        {errors.country !== undefined ? (
          <p className="test-checkout__error" id="country-error">
            {t(errors.country)}
          </p>
        ) : null}
      </div>
      {notice !== undefined ? (
        <p className="test-checkout__note test-checkout__note--field" id={notice} data-testid="purchase-notice">
          {t("purchaseNotice.text")}
        </p>
      ) : null}
      {/* The card fields are "off" for the browser's autofill and form restore: this page takes only
          the published test numbers, so a visitor's saved real card must neither be filled in here
          nor be put back into the form by the Back button. */}
      {session.free ? null : (
        <>
          {field("card", t("checkout.card"), {
            type: "text",
            inputMode: "numeric",
            autoComplete: "off",
            placeholder: "4242 4242 4242 4242",
            maxLength: CARD_INPUT_MAX,
            onChange: (event) => applyFormat(event.currentTarget, groupCardNumber),
          })}
          <div className="test-checkout__row">
            {/* No placeholder: the label gives the format in the visitor's language (MM/YY, MM/AA). The
            slash is added as the digits are typed ("1234" becomes "12/34"). */}
            {field("expiry", t("checkout.expiry"), {
              type: "text",
              inputMode: "numeric",
              autoComplete: "off",
              maxLength: EXPIRY_INPUT_MAX,
              onChange: (event) => applyFormat(event.currentTarget, formatExpiryInput),
            })}
            {field("cvc", t("checkout.cvc"), { type: "text", inputMode: "numeric", autoComplete: "off", placeholder: "123", maxLength: 4 })}
          </div>
        </>
      )}
      {/* The consent was given on the payment page and is recorded with this checkout (the page
          is never shown payable without it): said again, not asked again. */}
      <p className="test-checkout__consent" data-testid="consent-given">
        <Icon name="check" />
        <span>
          <LinkedText text={t(session.free ? "checkout.consentGivenFree" : "checkout.consentGiven")} href={pathFor("terms", locale)} />
        </span>
      </p>
      <button type="submit" className="button button--primary button--large button--block" disabled={busy} aria-busy={busy}>
        <Icon name="lock" />
        {session.free
          ? t(busy ? "checkout.claiming" : "checkout.claim")
          : busy
            ? t("checkout.paying")
            : t("checkout.pay", { price: session.amount })}
      </button>
      <p className="test-checkout__cancel">
        <a href={session.cancelUrl}>{t("checkout.cancel")}</a>
      </p>
    </form>
  );
}
