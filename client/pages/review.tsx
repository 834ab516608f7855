import { REVIEW_DELETE, REVIEW_POST, REVIEW_STOP } from "../../shared/api";
import type { MessageKey } from "../../shared/i18n";
import {
  REFUSAL_REASONS,
  REVIEW_TEXT_MAX,
  REVIEW_TEXT_MIN,
  type ReviewFieldError,
  type ReviewPageState,
  type ReviewStopState,
} from "../../shared/reviews";
import { pathFor } from "../../shared/routes";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";

// The review page of an order and the review e-mails' stop page: plain forms, no script, so they
// work the same with JavaScript or without; errors come back with the page (nothing stored).

const ERROR_TEXT: Record<ReviewFieldError, MessageKey> = {
  rating: "review.error.rating",
  textShort: "review.error.textShort",
  textLong: "review.error.textLong",
  city: "review.error.city",
  consent: "review.error.consent",
  nameStyle: "review.error.nameStyle",
};

function FieldError({ id, error }: { id: string; error: ReviewFieldError | undefined }) {
  const { t } = useI18n();
  if (error === undefined) return null;
  return (
    <p id={id} className="form-error">
      {t(ERROR_TEXT[error], { min: REVIEW_TEXT_MIN, max: REVIEW_TEXT_MAX })}
    </p>
  );
}

export function ReviewPage({ review }: { review: ReviewPageState }) {
  const { t, locale } = useI18n();
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--center">
        <div className="status-card status-card--neutral review-card">
          {review.state === "invalid" ? (
            <>
              <h1 className="page__title">{t("review.invalidTitle")}</h1>
              <p>{t("review.invalidText")}</p>
            </>
          ) : review.state === "test-order" ? (
            <>
              <h1 className="page__title">{t("review.testOrderTitle")}</h1>
              <p>{t("review.testOrderText", { reference: review.reference })}</p>
            </>
          ) : review.state === "closed" ? (
            <>
              <h1 className="page__title">{t("review.closedTitle")}</h1>
              <p>{t("review.closedText", { reference: review.reference })}</p>
            </>
          ) : (
            <ReviewForm review={review} />
          )}
          <p>
            <a href={pathFor("reviews", locale)}>{t("reviews.how")}</a>
          </p>
          <div className="button-row button-row--center">
            <a className="button button--ghost" href={pathFor("landing", locale)}>
              {t("successHome")}
            </a>
          </div>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}

function ReviewForm({ review }: { review: Extract<ReviewPageState, { state: "open" }> }) {
  const { t, locale } = useI18n();
  const { values, errors, existing } = review;
  const errorOf = (field: ReviewFieldError) => errors.find((e) => e === field);
  const textError = errorOf("textShort") ?? errorOf("textLong");
  const reason = existing?.refusalReason ?? null;
  const status =
    existing === null
      ? null
      : existing.status === "published"
        ? t("review.statusPublished")
        : existing.status === "refused" && reason !== null
          ? t("review.statusRefused", { reason: t(`reviews.reason.${reason}`) })
          : t("review.statusPending");
  const flash = review.flash;
  return (
    <>
      <h1 className="page__title">{t("review.title")}</h1>
      {flash === "saved" || flash === "deleted" ? (
        <p className="form-success" role="status" data-testid="review-flash">
          {t(flash === "saved" ? "review.saved" : "review.deleted")}
        </p>
      ) : flash !== undefined ? (
        <p className="form-error" role="alert">
          {t(flash === "rate-limited" ? "review.rateLimited" : "review.failed")}
        </p>
      ) : null}
      {errors.length > 0 ? (
        <p className="form-error" role="alert" data-testid="review-errors">
          {t("review.errorSummary")}
        </p>
      ) : null}
      <p>{t("review.intro", { reference: review.reference })}</p>
      {status === null ? null : (
        <p data-testid="review-status">
          <strong>{status}</strong> {t("review.editNote")}
        </p>
      )}
      {existing?.reply ? (
        <div className="review__reply">
          <p className="muted">{t("review.ownerReply")}</p>
          <p>{existing.reply}</p>
        </div>
      ) : null}
      <form method="post" action={REVIEW_POST.path} className="review-form" noValidate>
        <input type="hidden" name="order" value={review.link.order} />
        <input type="hidden" name="k" value={review.link.k} />
        <input type="hidden" name="locale" value={locale} />
        <fieldset className="review-form__stars" aria-describedby={errorOf("rating") ? "review-rating-error" : undefined}>
          <legend>{t("review.rating")}</legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="review-form__star">
              <input type="radio" name="rating" value={String(n)} defaultChecked={values.rating === n} required />
              <span>{t("review.star", { n })}</span>
            </label>
          ))}
          <FieldError id="review-rating-error" error={errorOf("rating")} />
        </fieldset>
        <label className="field" htmlFor="review-text">
          <span className="field__label">{t("review.text")}</span>
          <textarea
            id="review-text"
            name="text"
            rows={6}
            minLength={REVIEW_TEXT_MIN}
            maxLength={REVIEW_TEXT_MAX}
            required
            defaultValue={values.text}
            aria-invalid={textError !== undefined ? true : undefined}
            aria-describedby={textError !== undefined ? "review-text-hint review-text-error" : "review-text-hint"}
          />
        </label>
        <p id="review-text-hint" className="muted">
          {t("review.textHint", { min: REVIEW_TEXT_MIN, max: REVIEW_TEXT_MAX })}
        </p>
        <FieldError id="review-text-error" error={textError} />
        <fieldset>
          <legend>{t("review.name")}</legend>
          <label className="review-form__choice">
            <input type="radio" name="nameStyle" value="first-initial" defaultChecked={values.nameStyle === "first-initial"} />
            <span>{t("review.nameFirst", { name: review.names["first-initial"] })}</span>
          </label>
          <label className="review-form__choice">
            <input type="radio" name="nameStyle" value="initials" defaultChecked={values.nameStyle === "initials"} />
            <span>{t("review.nameInitials", { name: review.names.initials })}</span>
          </label>
          <FieldError id="review-name-error" error={errorOf("nameStyle")} />
        </fieldset>
        <label className="field" htmlFor="review-city">
          <span className="field__label">{t("review.city")}</span>
          <input
            id="review-city"
            name="city"
            type="text"
            maxLength={40}
            autoComplete="address-level2"
            defaultValue={values.city}
            aria-invalid={errorOf("city") !== undefined ? true : undefined}
            aria-describedby={errorOf("city") !== undefined ? "review-city-error" : undefined}
          />
        </label>
        <FieldError id="review-city-error" error={errorOf("city")} />
        <label className="review-form__choice">
          <input
            type="checkbox"
            name="consent"
            value="yes"
            defaultChecked={values.consent}
            required
            aria-invalid={errorOf("consent") !== undefined ? true : undefined}
            aria-describedby={errorOf("consent") !== undefined ? "review-consent-error" : undefined}
          />
          <span>{t("review.consent")}</span>
        </label>
        <FieldError id="review-consent-error" error={errorOf("consent")} />
        <button type="submit" className="button button--primary">
          {t(existing === null ? "review.submit" : "review.update")}
        </button>
      </form>
      {existing === null ? null : (
        <form method="post" action={REVIEW_DELETE.path} className="review-form__delete">
          <input type="hidden" name="order" value={review.link.order} />
          <input type="hidden" name="k" value={review.link.k} />
          <input type="hidden" name="locale" value={locale} />
          <button type="submit" className="button button--ghost">
            {t("review.delete")}
          </button>
        </form>
      )}
    </>
  );
}

/** How reviews work: the statement the law asks for (whether and how reviews are checked). */
export function ReviewsInfoPage() {
  const { t, locale } = useI18n();
  return (
    <>
      <SiteHeader />
      <Main className="page legal">
        <div className="container container--narrow">
          <h1 className="page__title">{t("reviewsInfo.title")}</h1>
          <p>{t("reviewsInfo.intro")}</p>
          <h2>{t("reviewsInfo.whoTitle")}</h2>
          <p>{t("reviewsInfo.who")}</p>
          <h2>{t("reviewsInfo.checkTitle")}</h2>
          <p>{t("reviewsInfo.check")}</p>
          <h2>{t("reviewsInfo.moderationTitle")}</h2>
          <p>{t("reviewsInfo.moderation")}</p>
          <ul>
            {REFUSAL_REASONS.map((reason) => (
              <li key={reason}>{t(`reviews.reason.${reason}`)}</li>
            ))}
          </ul>
          <h2>{t("reviewsInfo.orderTitle")}</h2>
          <p>{t("reviewsInfo.order")}</p>
          <h2>{t("reviewsInfo.keepTitle")}</h2>
          <p>{t("reviewsInfo.keep")}</p>
          <h2>{t("reviewsInfo.figuresTitle")}</h2>
          <p>{t("reviewsInfo.figures")}</p>
          <p>
            <a href={pathFor("landing", locale)}>{t("reviewsInfo.back")}</a>
          </p>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}

export function ReviewStopPage({ stop, link }: { stop: ReviewStopState; link: { order: string; k: string } | null }) {
  const { t, locale } = useI18n();
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--center">
        <div className="status-card status-card--neutral">
          <h1 className="page__title">{t("reviewStop.title")}</h1>
          {stop === "ask" && link !== null ? (
            <>
              <p>{t("reviewStop.ask")}</p>
              <form method="post" action={`${REVIEW_STOP.path}?order=${link.order}&k=${link.k}&lang=${locale}`}>
                <button type="submit" className="button button--primary">
                  {t("reviewStop.button")}
                </button>
              </form>
            </>
          ) : (
            <p data-testid="review-stop">{t(stop === "done" ? "reviewStop.done" : "reviewStop.invalid")}</p>
          )}
          <div className="button-row button-row--center">
            <a className="button button--ghost" href={pathFor("landing", locale)}>
              {t("successHome")}
            </a>
          </div>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}
