import { LOCALES } from "../../shared/locales";
import { avatarOf, type ReviewsFacts, type ShownReview } from "../../shared/reviews";
import { pathFor } from "../../shared/routes";
import { useI18n } from "../i18n";
import { Icon } from "./icons";

// The landing page's reviews: only published buyers' reviews (development's samples marked as
// such), newest first, never sorted or filtered by rating, each with its date and "verified
// purchase", the average and count over all of them, and the link to how they are checked.

export function Stars({ rating }: { rating: number }) {
  const { t } = useI18n();
  return (
    <p className="stars" aria-label={t("testimonial.rating", { rating })} role="img">
      {Array.from({ length: 5 }, (_, i) => (
        <Icon key={i} name="star" filled={i < rating} />
      ))}
    </p>
  );
}

function ReviewCard({ review }: { review: ShownReview }) {
  const { t, locale } = useI18n();
  const language = LOCALES.find((l) => l === review.locale) ?? locale;
  return (
    <li className="card testimonial" data-testid="review" lang={language}>
      <Stars rating={review.rating} />
      <blockquote>
        <p>{review.text}</p>
      </blockquote>
      {review.locale !== locale ? (
        <p className="muted review__language" lang={locale}>
          {t("reviews.writtenIn", { language: t(`reviews.language.${language}`) })}
        </p>
      ) : null}
      <footer className="testimonial__person" lang={locale}>
        <span className="avatar" aria-hidden="true">
          {avatarOf(review.name)}
        </span>
        <span>
          <strong>{review.name}</strong>
          {review.city === null ? null : <span className="muted">{review.city}</span>}
          <span className="muted">
            <time dateTime={review.isoDate}>{review.date}</time>
            {" · "}
            {review.sample ? (
              <span className="review__sample" data-testid="review-sample">
                {t("reviews.sample")}
              </span>
            ) : (
              <span className="review__verified">{t("reviews.verified")}</span>
            )}
          </span>
        </span>
      </footer>
      {review.reply === null ? null : (
        <div className="review__reply" lang={review.locale}>
          <p className="muted" lang={locale}>
            {t("reviews.reply")}
          </p>
          <p>{review.reply}</p>
        </div>
      )}
    </li>
  );
}

export function ReviewsSection({
  reviews,
  heading,
  children,
}: {
  reviews: ReviewsFacts;
  heading: (id: string) => React.ReactNode;
  children?: React.ReactNode;
}) {
  const { t, locale } = useI18n();
  if (reviews.latest.length === 0) return null;
  const samples = reviews.count === 0;
  return (
    <section className="section" id="reviews" aria-labelledby="reviews-title">
      <div className="container">
        {heading("reviews-title")}
        {reviews.average === null ? null : (
          <p className="reviews__summary" data-testid="reviews-summary">
            <Stars rating={Math.floor(reviews.averageValue ?? 0)} />
            <span data-testid="reviews-average">{t("reviews.average", { average: reviews.average })}</span>
            <span aria-hidden="true"> · </span>
            <span data-testid="reviews-count">{t("reviews.count", { count: reviews.count })}</span>
          </p>
        )}
        {samples ? <p className="muted reviews__note">{t("reviews.samplesNote")}</p> : null}
        <ul className="card-grid card-grid--3" role="list">
          {reviews.latest.map((review) => (
            <ReviewCard key={review.id} review={review} />
          ))}
        </ul>
        <p className="muted reviews__note">
          {t("reviews.checkedNote")} <a href={pathFor("reviews", locale)}>{t("reviews.how")}</a>
        </p>
        {children}
      </div>
    </section>
  );
}

/** schema.org Product with its aggregateRating from published buyers' reviews only (never the samples), once there is one. */
export function productJsonLd(
  facts: { siteName: string; reviews: ReviewsFacts },
  baseUrl: string,
  description: string,
  image: string,
): string | null {
  const { reviews } = facts;
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: facts.siteName,
    description,
    image,
    url: `${baseUrl}/`,
  };
  if (reviews.count > 0 && reviews.averageValue !== null)
    data.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: reviews.averageValue,
      reviewCount: reviews.count,
      bestRating: 5,
      worstRating: 1,
    };
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
