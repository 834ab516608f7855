import { CODE_PREVIEW } from "../../shared/api";
import { BUSINESS_PAGE_ERRORS, type BusinessPageError, type BusinessTyped } from "../../shared/business-buyer";
import { CODE_REFUSALS, type CodeRefusal, type CodeState } from "../../shared/discount-code";
import type { PaymentPageError } from "../../shared/page-data";
import { pathFor } from "../../shared/routes";
import { Icon } from "../components/icons";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";
import { Island } from "../island";

/** The business section's problem a plain form post came back with. */
const businessErrorOf = (error: PaymentPageError | undefined): BusinessPageError | undefined =>
  BUSINESS_PAGE_ERRORS.find((e) => e === error);

const DELIVERY_STEPS = [1, 2, 3] as const;

/** The code refusal a plain form post came back with (`?error=code-expired`). */
function codeRefusalOf(error: PaymentPageError | undefined): CodeRefusal | undefined {
  const reason = error?.startsWith("code-") ? error.slice("code-".length) : undefined;
  return CODE_REFUSALS.find((r) => r === reason);
}

export function PaymentPage({
  error,
  purchaseNotice,
  noticeBox = false,
  allCountries = false,
  code,
  partnerRef,
  business,
}: {
  error?: PaymentPageError;
  code?: CodeState | undefined;
  partnerRef?: string | undefined;
  business?: BusinessTyped | undefined;
  purchaseNotice: boolean;
  noticeBox?: boolean;
  allCountries?: boolean;
}) {
  const { t, locale, facts } = useI18n();
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--narrow">
        <div className="container container--narrow">
          <h1 className="page__title">{t("paymentTitle")}</h1>
          <p className="page__subtitle">{t("paymentSubtitle")}</p>
          <div className="payment-grid">
            <section className="panel order-summary" aria-labelledby="summary-title">
              <div className="order-summary__head">
                <h2 id="summary-title">{t("orderSummary")}</h2>
                {facts.offer.on ? (
                  <span className="badge badge--glow" data-testid="early-bird">
                    {t("earlyBird")}
                  </span>
                ) : null}
              </div>
              <div className="order-line">
                <div>
                  <p className="order-line__name">{t("orderProduct")}</p>
                  <p className="muted">{t("orderProductDesc")}</p>
                </div>
                <p className="order-line__price" data-price="">
                  {facts.offer.on ? (
                    <del data-testid="old-price">
                      <span className="sr-only">{t("pricing.oldPrice")}</span>
                      <span aria-hidden="true">{facts.offer.oldPrice}</span>
                    </del>
                  ) : null}
                  <span>{facts.price}</span>
                </p>
              </div>
              {facts.offer.on ? (
                <p className="muted order-summary__offer" data-testid="offer-end">
                  {t("offer.endsOn")}
                </p>
              ) : null}
              <p className="order-summary__fineprint" data-testid="fineprint">
                {t("offer.fineprint")}
              </p>
              {error !== undefined && error !== "consent" && !error.startsWith("code-") && !error.startsWith("business-") ? (
                <p className="form-error" role="alert">
                  <strong>{t("paymentError")}</strong> {t(error === "rate-limited" ? "paymentRateLimit" : "paymentErrorDesc")}
                </p>
              ) : null}
              <Island
                name="pay-button"
                props={{
                  consentMissing: error === "consent",
                  codeError: codeRefusalOf(error),
                  noticeBox,
                  businessError: businessErrorOf(error),
                  allCountries,
                  business,
                  // The total, and the code's reduction when the page came with one (`?code=`), are the form's to change.
                  price: facts.price,
                  ...(facts.businessPrice === null ? {} : { businessPrice: facts.businessPrice }),
                  code,
                  partnerRef,
                  codePreviewPath: CODE_PREVIEW.path,
                }}
              />
              <p className="secure-note">
                <Icon name="lock" /> {t("securePayment")}
              </p>
              {purchaseNotice ? (
                <p className="muted purchase-notice" data-testid="purchase-notice">
                  {`${t("purchaseNotice.billing")} ${t("purchaseNotice.text")}`}
                </p>
              ) : null}
            </section>
            <div className="payment-side">
              <section className="panel" aria-labelledby="delivery-title">
                <h2 id="delivery-title">{t("deliveryTitle")}</h2>
                <ol className="delivery-steps" role="list">
                  {DELIVERY_STEPS.map((n) => (
                    <li key={n} data-testid="delivery-step">
                      <span className="step__number" aria-hidden="true">
                        {n}
                      </span>
                      <span>{t(`deliveryStep${n}`)}</span>
                    </li>
                  ))}
                </ol>
              </section>
              <section className="panel money-back" aria-labelledby="money-back-title">
                <h2 id="money-back-title">
                  <Icon name="shield" /> {t("moneyBackTitle")}
                </h2>
                <p>{t("moneyBackText", { email: facts.supportEmail })}</p>
                <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a>
              </section>
            </div>
          </div>
          <p className="page__back">
            <a href={pathFor("landing", locale)}>{t("payment.back")}</a>
          </p>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}
