import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { ACCESS_RESEND } from "../../shared/api";
import type { IslandProps } from "../../shared/page-data";
import { checkLeadEmail, EMAIL_ISSUE_KEYS, emailIssueKey } from "../../shared/schemas/leads";
import { useText } from "../i18n";
import { Icon } from "./icons";

// "Lost your access e-mail?" (POST /api/access/resend): on the access page, the success page and in
// the FAQ answer about delivery. A real form, so it works without JavaScript (the server answers a
// plain post with a redirect to the access page and its outcome); with JavaScript it posts JSON and
// shows the outcome in place. The answer never says whether the address bought.

export const ACCESS_FORM_TEXT = [
  "access.sent",
  "access.rateLimited",
  "lead.emailError",
  "access.error",
  "access.label",
  "emailPlaceholder",
  "access.submitting",
  "access.submit",
  ...EMAIL_ISSUE_KEYS,
] as const;

export function AccessForm({ posted }: IslandProps["access-form"]) {
  const { t, locale } = useText(ACCESS_FORM_TEXT);
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [status, setStatus] = useState<IslandProps["access-form"]["posted"] | "field">(posted);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const field = event.currentTarget.elements.namedItem("email");
    if (!(field instanceof HTMLInputElement)) return;
    const checked = checkLeadEmail(field.value);
    if (!checked.ok) {
      setFieldError(t(emailIssueKey(checked.message)));
      setStatus("field");
      field.focus();
      return;
    }
    setSubmitting(true);
    setFieldError(null);
    try {
      const response = await fetch(ACCESS_RESEND.path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ email: checked.email, locale }),
      });
      setStatus(response.status === 202 ? "sent" : response.status === 429 ? "rate-limited" : response.status >= 500 ? "error" : "invalid");
    } catch {
      setStatus("error");
    } finally {
      setSubmitting(false);
    }
  };

  const errorId = `${id}-error`;
  const message =
    status === "sent"
      ? t("access.sent")
      : status === "rate-limited"
        ? t("access.rateLimited")
        : status === "invalid"
          ? t("lead.emailError")
          : status === "error"
            ? t("access.error")
            : null;
  return (
    <form ref={formRef} method="post" action={ACCESS_RESEND.path} className="access-form" onSubmit={submit} aria-busy={submitting}>
      <input type="hidden" name="locale" value={locale} />
      <label htmlFor={`${id}-email`} className="lead-form__label">
        {t("access.label")}
      </label>
      <div className="lead-form__row">
        <input
          id={`${id}-email`}
          className="lead-form__input"
          type="email"
          name="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          placeholder={t("emailPlaceholder")}
          aria-invalid={fieldError !== null || status === "invalid"}
          aria-describedby={fieldError !== null || (message !== null && status !== "sent") ? errorId : undefined}
          onInput={() => setFieldError(null)}
        />
        <button type="submit" className="button button--primary lead-form__submit" disabled={submitting}>
          <Icon name="mail" />
          {submitting ? t("access.submitting") : t("access.submit")}
        </button>
      </div>
      <div aria-live="polite">
        {fieldError !== null ? (
          <p id={errorId} className="lead-form__error" role="alert">
            {fieldError}
          </p>
        ) : status === "sent" ? (
          <p className="lead-section__sent" data-testid="access-sent">
            <Icon name="check" />
            {message}
          </p>
        ) : message !== null ? (
          <p id={errorId} className="form-error" role="alert">
            {message}
          </p>
        ) : null}
      </div>
    </form>
  );
}
