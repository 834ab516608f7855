import type { TestCheckoutView } from "../../shared/page-data";
import { Main } from "../components/layout";
import { useI18n } from "../i18n";
import { Island } from "../island";

/** The built-in test checkout's hosted-style card page; its form is an island (card-form.tsx). */
export function TestCheckoutPage({ view }: { view: TestCheckoutView }) {
  const { t } = useI18n();
  const { session } = view;
  return (
    <>
      {session.testMode ? (
        <header className="test-checkout__bar">
          <span className="test-checkout__mode" data-testid="test-mode">
            {t("checkout.testMode")}
          </span>
        </header>
      ) : null}
      <Main className="page test-checkout">
        <div className="panel test-checkout__panel">
          <h1 className="test-checkout__title">{t(session.free ? "checkout.freeTitle" : "checkout.title")}</h1>
          <p className="test-checkout__amount" data-testid="checkout-amount">
            {session.amount}
          </p>
          {session.free ? (
            <p className="test-checkout__note">{t("checkout.freeNote")}</p>
          ) : (
            <p className="test-checkout__note">
              <span className="test-checkout__mode test-checkout__mode--inline">{t("checkout.testMode")}</span> {t("checkout.testModeNote")}
            </p>
          )}
          {session.status === "complete" ? (
            <div className="test-checkout__state" role="status">
              <p>{t("checkout.alreadyPaid")}</p>
              <a className="button button--primary" href={session.successUrl}>
                {t("checkout.toOrder")}
              </a>
            </div>
          ) : session.status === "expired" || !session.consented ? (
            <div className="test-checkout__state">
              <p className="form-error" role="alert">
                {t(session.status === "expired" ? "checkout.expired" : "checkout.consentMissing")}
              </p>
              <a className="button button--primary" href={session.paymentPath}>
                {t("canceledRetry")}
              </a>
            </div>
          ) : (
            <Island name="card-form" props={{ view }} />
          )}
        </div>
      </Main>
    </>
  );
}
