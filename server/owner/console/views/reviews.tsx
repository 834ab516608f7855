import type { ReviewStatus } from "../../../../db/schema";
import { isLocale } from "../../../../shared/locales";
import { type ProofFigureSettings, REFUSAL_REASONS, REVIEW_REPLY_MAX } from "../../../../shared/reviews";
import { isRefusalReason, type listReviews } from "../../../shop/reviews/store";
import { type PageContext, renderPage } from "./layout";

type Listed = ReturnType<typeof listReviews>[number];

export type ReviewsPageModel = {
  lists: Record<ReviewStatus, Listed[]>;
  counts: Record<ReviewStatus, number>;
  figures: { buyers: number; devices: number };
  settings: ProofFigureSettings;
  /** Outside production a test-checkout order's review is a real try of the feature; in production it is marked TEST and never shown. */
  testOrdersVerify: boolean;
  done: string | null;
};

/** The console's Reviews: waiting reviews to publish or refuse, the published and refused ones, the landing page's figure. */
export function reviewsPage(ctx: PageContext, model: ReviewsPageModel): string {
  const { t, fmt } = ctx;
  const card = (item: Listed) => {
    const { review } = item;
    const language = isLocale(review.locale) ? review.locale : "fr";
    const reason = review.refusalReason !== null && isRefusalReason(review.refusalReason) ? review.refusalReason : null;
    const test = item.provider === "test" && !model.testOrdersVerify;
    return (
      <article key={review.id} id={`review-${review.id}`} className="card review" data-review={review.id} lang={language}>
        <p className="note" lang={ctx.locale}>
          {t("admin.reviews.meta", {
            rating: review.rating,
            name: review.displayName,
            city: review.city === null ? "" : `, ${review.city}`,
            language: t(`reviews.language.${language}`),
            reference: item.reference,
            when: fmt.when(review.updatedAt),
          })}
        </p>
        <blockquote>
          <p>{review.text}</p>
        </blockquote>
        <div lang={ctx.locale}>
          {review.status === "refused" && reason !== null && (
            <p className="note">{t("admin.reviews.refusedFor", { reason: t(`reviews.reason.${reason}`) })}</p>
          )}
          {item.orderStatus !== "paid" && <p className="note">{t("admin.reviews.orderRefunded")}</p>}
          {test && (
            <p className="note" data-test-order="">
              <strong>{t("admin.reviews.testOrder")}</strong>
            </p>
          )}
          <div className="actions">
            {review.status !== "published" && item.orderStatus === "paid" && !test && (
              <form method="post" action={`/admin/reviews/${review.id}/publish`}>
                <button type="submit">{t("admin.reviews.publish")}</button>
              </form>
            )}
            {review.status !== "refused" && (
              <form method="post" action={`/admin/reviews/${review.id}/refuse`}>
                <label>
                  {t("admin.reviews.reason")}{" "}
                  <select name="reason" required>
                    {REFUSAL_REASONS.map((r) => (
                      <option key={r} value={r}>
                        {t(`reviews.reason.${r}`)}
                      </option>
                    ))}
                  </select>
                </label>{" "}
                <button type="submit" className="secondary">
                  {t("admin.reviews.refuse")}
                </button>
              </form>
            )}
          </div>
          <form method="post" action={`/admin/reviews/${review.id}/reply`}>
            <label htmlFor={`reply-${review.id}`}>{t("admin.reviews.reply")}</label>
            <textarea id={`reply-${review.id}`} name="reply" rows={2} maxLength={REVIEW_REPLY_MAX} defaultValue={review.reply ?? ""} />
            <button type="submit" className="secondary">
              {t("admin.reviews.replySave")}
            </button>
          </form>
        </div>
      </article>
    );
  };
  const list = (status: ReviewStatus, key: "admin.reviews.pending" | "admin.reviews.published" | "admin.reviews.refused") => (
    <section aria-labelledby={`reviews-${status}`}>
      <h2 id={`reviews-${status}`}>{t(key, { count: model.counts[status] })}</h2>
      {model.lists[status].length === 0 ? <p className="note">{t("admin.reviews.none")}</p> : model.lists[status].map(card)}
    </section>
  );
  const { settings, figures } = model;
  return renderPage(
    ctx,
    t("admin.reviews.title"),
    "reviews",
    <>
      {model.done !== null && (
        <p className="success" role="status">
          {model.done}
        </p>
      )}
      <p className="note">{t("admin.reviews.rules")}</p>
      {list("pending", "admin.reviews.pending")}
      {list("published", "admin.reviews.published")}
      {list("refused", "admin.reviews.refused")}
      <section className="card" aria-labelledby="reviews-figures">
        <h2 id="reviews-figures">{t("admin.reviews.figuresTitle")}</h2>
        <p className="note">{t("admin.reviews.figuresText")}</p>
        <form method="post" action="/admin/reviews/figures">
          <fieldset>
            <legend>{t("admin.reviews.figureKind")}</legend>
            {(
              [
                ["buyers", t("admin.reviews.figureBuyers", { count: fmt.number(figures.buyers) })],
                ["devices", t("admin.reviews.figureDevices", { count: fmt.number(figures.devices) })],
                ["off", t("admin.reviews.figureOff")],
              ] as const
            ).map(([kind, label]) => (
              <label key={kind}>
                <input type="radio" name="kind" value={kind} defaultChecked={settings.kind === kind} /> {label}
              </label>
            ))}
          </fieldset>
          <label htmlFor="figure-threshold">{t("admin.reviews.threshold")}</label>
          <input id="figure-threshold" name="threshold" type="number" min={1} max={1000000} required defaultValue={settings.threshold} />
          <button type="submit">{t("admin.reviews.figureSave")}</button>
        </form>
      </section>
    </>,
  );
}
