import { REFUND } from "../../shared/api";
import type { RefundPageState } from "../../shared/page-data";
import { pathFor } from "../../shared/routes";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";

/** The 7-day guarantee's refund page of one order, behind its signed link; a plain form, no script. */
export function RefundPage({ refund }: { refund: RefundPageState }) {
  const { t, locale, facts } = useI18n();
  const email = facts.supportEmail;
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--center">
        <div className="status-card status-card--neutral refund-card">
          <RefundBody refund={refund} />
          <p className="refund-card__support">{t("refund.support", { email })}</p>
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

function RefundBody({ refund }: { refund: RefundPageState }) {
  const { t, locale } = useI18n();
  switch (refund.state) {
    case "invalid":
      return <Message title={t("refund.invalidTitle")} text={t("refund.invalidText")} />;
    case "closed":
      return (
        <Message
          title={t("refund.closedTitle")}
          text={t("refund.closedText", { reference: refund.reference, deadline: refund.deadline })}
        />
      );
    case "requested":
      return <Message title={t("refund.requestedTitle")} text={t("refund.requestedText", { reference: refund.reference })} />;
    case "refunded":
      return <Message title={t("refund.refundedTitle")} text={t("refund.refundedText", { reference: refund.reference })} />;
    case "not-paid":
      return <Message title={t("refund.notPaidTitle")} text={t("refund.notPaidText", { reference: refund.reference })} />;
    case "free":
      return <Message title={t("refund.notPaidTitle")} text={t("refund.freeText", { reference: refund.reference })} />;
    case "open": {
      const request = refund.mode === "request";
      return (
        <>
          <h1 className="page__title">{t("refund.title")}</h1>
          {refund.flash === undefined ? null : (
            <p className="form-error" role="alert">
              {t(refund.flash === "rate-limited" ? "refund.rateLimited" : "refund.error")}
            </p>
          )}
          <p>{t("refund.text", { reference: refund.reference, amount: refund.amount, deadline: refund.deadline })}</p>
          <p>{t(request ? "refund.requestText" : "refund.autoText", { amount: refund.amount })}</p>
          <form method="post" action={REFUND.path} className="refund-card__form">
            <input type="hidden" name="order" value={refund.link.order} />
            <input type="hidden" name="t" value={refund.link.t} />
            <input type="hidden" name="locale" value={locale} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" className="button button--primary">
              {t(request ? "refund.requestButton" : "refund.button", { amount: refund.amount })}
            </button>
          </form>
        </>
      );
    }
  }
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <>
      <h1 className="page__title">{title}</h1>
      <p>{text}</p>
    </>
  );
}
