import { type FormEvent, type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";
import { LEADS } from "../../shared/api";
import type { IslandProps } from "../../shared/page-data";
import { checkLeadEmail, EMAIL_ISSUE_KEYS, emailIssueKey, type LeadInput, type LeadSource } from "../../shared/schemas/leads";
import { useText } from "../i18n";
import { markExitPopupShown } from "./exit-popup-memory";
import { Icon } from "./icons";
import { showToast } from "./toast";

// The free-demo form, in two places: the exit popup and a section at the end of the
// landing page. Both are real forms posting to /api/leads, so the section works without JavaScript;
// with it, the same schema as the server checks the address first and the post is sent as JSON.

type LeadState = { submitting: boolean; fieldError: string | null };

export const LEAD_SUBMIT_TEXT = [
  "demoSent",
  "demoSentDesc",
  "lead.rateLimit",
  "lead.emailError",
  "lead.unexpectedError",
  ...EMAIL_ISSUE_KEYS,
] as const;

/**
 * Submits the form's address, at most one request at a time, and reports the outcome with the
 * translated message for each failure (invalid address, too many requests, anything else). `onSent` runs after the server has stored the address.
 */
export function useLeadSubmit(source: LeadSource, onSent: (email: string) => void) {
  const { t, locale } = useText(LEAD_SUBMIT_TEXT);
  const [state, setState] = useState<LeadState>({ submitting: false, fieldError: null });
  const inFlight = useRef(false);
  // English fallbacks for texts a language might lack (docs/product.md, "Validation and error messages").
  const text = useCallback(
    (key: (typeof LEAD_SUBMIT_TEXT)[number], fallback: string, values?: Record<string, string>) => {
      const translated = t(key, values);
      return translated === key ? fallback : translated;
    },
    [t],
  );

  const submit = useCallback(
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (inFlight.current) return;
      const field = event.currentTarget.elements.namedItem("email");
      if (!(field instanceof HTMLInputElement)) return;
      const checked = checkLeadEmail(field.value);
      if (!checked.ok) {
        setState({ submitting: false, fieldError: text(emailIssueKey(checked.message), checked.message) });
        field.focus();
        return;
      }
      inFlight.current = true;
      setState({ submitting: true, fieldError: null });
      // The toast, and the same text next to the field: inside the modal popup the page around it
      // (where toasts live) is inert, so the error must also be in the dialog to be read and seen.
      const fail = (title: string) => {
        showToast({ title, tone: "error" });
        setState((s) => ({ ...s, fieldError: title }));
      };
      try {
        const payload: LeadInput = { email: checked.email, source, ip_hash: null, locale };
        const response = await fetch(LEADS.path, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(payload),
        });
        if (response.ok) {
          field.value = "";
          // Longer than a toast's usual 4 s: after the popup closes it is the only place its
          // confirmation and the spam-folder hint are shown.
          showToast({
            title: text("demoSent", "Demo sent! Check your inbox."),
            description: t("demoSentDesc", { email: checked.email }),
            tone: "success",
            durationMs: 10_000,
          });
          onSent(checked.email);
          return;
        }
        const message = errorMessage(await response.json().catch(() => null));
        if (response.status === 429 || message.includes("Rate limit")) {
          fail(text("lead.rateLimit", "Too many submissions. Please try again later."));
        } else if (response.status >= 500) {
          fail(text("lead.unexpectedError", "An error occurred. Please try again."));
        } else {
          fail(text("lead.emailError", "Invalid email. Please try again."));
        }
      } catch {
        fail(text("lead.unexpectedError", "An error occurred. Please try again."));
      } finally {
        inFlight.current = false;
        setState((s) => ({ ...s, submitting: false }));
      }
    },
    [locale, onSent, source, t, text],
  );

  const clearError = useCallback(() => setState((s) => (s.fieldError === null ? s : { ...s, fieldError: null })), []);
  return { ...state, source, submit, clearError };
}

function errorMessage(body: unknown): string {
  return typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : "";
}

/**
 * The form itself. Without JavaScript the browser's own checks (required, type=email) apply and the
 * post answers with a redirect; once hydrated, our check replaces them so every language gets the
 * same translated messages.
 */
export const LEAD_FORM_TEXT = [
  "exitPopup.label",
  "emailPlaceholder",
  "exitPopup.submitting",
  "exitPopup.submit",
  "exitPopup.privacy",
] as const;

export function LeadForm({
  lead,
  inputRef,
  className,
  postedErrorId,
}: {
  lead: ReturnType<typeof useLeadSubmit>;
  inputRef?: RefObject<HTMLInputElement | null>;
  className?: string;
  /** The id of an error shown outside the form (a refused plain form post) that describes the field. */
  postedErrorId?: string;
}) {
  const { t, locale } = useText(LEAD_FORM_TEXT);
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, []);
  const errorId = `${id}-error`;
  return (
    <form
      ref={formRef}
      method="post"
      action={LEADS.path}
      className={`lead-form ${className ?? ""}`}
      onSubmit={lead.submit}
      aria-busy={lead.submitting}
    >
      <input type="hidden" name="source" value={lead.source} />
      <input type="hidden" name="locale" value={locale} />
      <label htmlFor={`${id}-email`} className="lead-form__label">
        {t("exitPopup.label")}
      </label>
      <div className="lead-form__row">
        <input
          ref={inputRef}
          id={`${id}-email`}
          className="lead-form__input"
          type="email"
          name="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          placeholder={t("emailPlaceholder")}
          aria-invalid={lead.fieldError !== null || postedErrorId !== undefined}
          aria-describedby={lead.fieldError !== null ? errorId : postedErrorId}
          onInput={lead.clearError}
        />
        <button type="submit" className="button button--primary lead-form__submit" disabled={lead.submitting}>
          <Icon name="mail" />
          {lead.submitting ? t("exitPopup.submitting") : t("exitPopup.submit")}
        </button>
      </div>
      {lead.fieldError !== null ? (
        <p id={errorId} className="lead-form__error" role="alert">
          {lead.fieldError}
        </p>
      ) : null}
      <p className="lead-form__privacy muted">{t("exitPopup.privacy")}</p>
    </form>
  );
}

const LEAD_SECTION_TEXT = ["demoSent", "demoSentNote", "lead.rateLimit", "lead.emailError", "lead.unexpectedError"] as const;
/** Everything the free-demo section's island shows. */
export const LEAD_ISLAND_TEXT = [...LEAD_SECTION_TEXT, ...LEAD_FORM_TEXT, ...LEAD_SUBMIT_TEXT] as const;

/**
 * The free-demo section's form and its outcome, at the end of the landing page: the no-JavaScript
 * path to a lead. `posted` is the outcome of a plain form post, which came back in the URL
 * (server/shop/leads/controller.ts).
 */
export function LeadSection({ posted }: IslandProps["lead-form"]) {
  const { t } = useText(LEAD_SECTION_TEXT);
  const [sent, setSent] = useState(false);
  // Once the visitor submits again here, the outcome of the earlier post no longer applies.
  const [resubmitted, setResubmitted] = useState(false);
  const lead = useLeadSubmit(
    "landing_form",
    useCallback(() => {
      setSent(true);
      markExitPopupShown();
    }, []),
  );
  const status = sent ? "sent" : resubmitted ? undefined : posted;
  const postedErrorId = "free-demo-posted-error";
  const submit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      setResubmitted(true);
      return lead.submit(event);
    },
    [lead.submit],
  );
  const problem: (typeof LEAD_SECTION_TEXT)[number] =
    status === "rate-limited" ? "lead.rateLimit" : status === "invalid" ? "lead.emailError" : "lead.unexpectedError";
  return (
    <>
      <div className="lead-section__status" aria-live="polite">
        {status === "sent" ? (
          <>
            <p className="lead-section__sent" data-testid="lead-sent">
              <Icon name="check" />
              {t("demoSent")}
            </p>
            {/* The same answer whatever the address's history (new, asked again, unsubscribed): this
                says what was done in each case without telling which one it was. */}
            <p className="lead-section__note muted" data-testid="lead-sent-note">
              {t("demoSentNote")}
            </p>
          </>
        ) : status !== undefined ? (
          <p id={postedErrorId} className="form-error" role="alert">
            {t(problem)}
          </p>
        ) : null}
      </div>
      <LeadForm lead={{ ...lead, submit }} postedErrorId={status !== undefined && status !== "sent" ? postedErrorId : undefined} />
    </>
  );
}
