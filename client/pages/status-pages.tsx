import type { ReactNode } from "react";
import type { Translate } from "../../shared/i18n";
import type { SuccessOrder } from "../../shared/page-data";
import { pathFor } from "../../shared/routes";
import { Icon, type IconName } from "../components/icons";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";
import { Island } from "../island";

function StatusCard({
  icon,
  tone,
  title,
  text,
  children,
  after,
}: {
  icon: IconName;
  tone: "success" | "warning" | "neutral";
  title: string;
  text: string;
  children?: ReactNode;
  after?: ReactNode;
}) {
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--center">
        <div className={`status-card status-card--${tone}`}>
          <span className="status-card__icon">
            <Icon name={icon} />
          </span>
          <h1 className="page__title">{title}</h1>
          <p>{text}</p>
          <div className="button-row button-row--center">{children}</div>
          {after}
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}

export function SuccessPage({ order }: { order: SuccessOrder }) {
  const { t, locale, facts } = useI18n();
  const home = (
    <a className="button button--primary" href={pathFor("landing", locale)}>
      {t("successHome")}
    </a>
  );
  if (order.state === "pending") {
    const self = `${pathFor("success", locale)}${order.query}`;
    return (
      <StatusCard
        icon="refresh"
        tone="neutral"
        title={t("successPendingTitle")}
        text={t("successPendingText")}
        after={<p className="order-facts__line">{t("success.referenceLine", { reference: order.reference })}</p>}
      >
        <Island name="pending-refresh" props={{ path: self, reference: order.reference }} />
        <a className="button button--ghost" href={self}>
          {t("successRefresh")}
        </a>
        {home}
      </StatusCard>
    );
  }
  if (order.state === "delivered") {
    // The key is no longer shown at this address (an hour after payment): where it is instead.
    const sent = order.delivery === "sent" || order.delivery === "sending";
    return (
      <StatusCard
        icon="mail"
        tone="neutral"
        title={t("successDeliveredTitle")}
        text={sent ? t("successDeliveredText", { reference: order.reference }) : t("successMailMissing")}
        after={<LostAccess />}
      >
        {home}
      </StatusCard>
    );
  }
  if (order.state === "refunded") {
    return (
      <StatusCard
        icon="mail"
        tone="neutral"
        title={t("successRefundedTitle")}
        text={t("successRefundedText", { reference: order.reference, email: facts.supportEmail })}
      >
        {home}
      </StatusCard>
    );
  }
  if (order.state === "unknown") {
    return (
      <StatusCard
        icon="mail"
        tone="neutral"
        title={t("successUnknownTitle")}
        text={t("successUnknownText", { email: facts.supportEmail })}
        after={<LostAccess />}
      >
        {home}
      </StatusCard>
    );
  }
  // Without an order id there is no payment to confirm: the page says what it is for
  // and offers the access e-mail again, never "payment successful" to whoever opens it.
  if (order.state === "none") {
    return (
      <StatusCard icon="mail" tone="neutral" title={t("successNoneTitle")} text={t("successNoneText")} after={<LostAccess />}>
        {home}
      </StatusCard>
    );
  }
  return (
    <StatusCard
      icon="check"
      tone="success"
      title={t(order.free ? "successFreeTitle" : "successTitle")}
      text={deliveryText(t, order)}
      after={<PaidOrder order={order} />}
    >
      <a className="button button--primary" href={pathFor("guide", locale)}>
        {t("success.guide")}
      </a>
    </StatusCard>
  );
}

/** What a paid order's page gives the buyer at once: the key, the reference, the invoice, the guarantee. */
function PaidOrder({ order }: { order: Extract<SuccessOrder, { state: "paid" }> }) {
  const { t, locale } = useI18n();
  return (
    <div className="order-facts">
      {order.licenseKey === null ? null : (
        <div className="order-key">
          <p className="order-key__label">{t("success.keyLabel")}</p>
          <div className="order-key__row">
            <code className="order-key__value">{order.licenseKey}</code>
            <Island name="copy-key" props={{ licenseKey: order.licenseKey }} />
          </div>
          <p className="order-key__hint">{t("success.keyHint")}</p>
        </div>
      )}
      <dl className="order-facts__list">
        <div>
          <dt>{t("success.referenceLabel")}</dt>
          <dd>{order.reference}</dd>
        </div>
        {order.email === null ? null : (
          <div>
            <dt>{t("success.emailLabel")}</dt>
            <dd>{order.email}</dd>
          </div>
        )}
      </dl>
      <ul className="order-facts__links">
        <li>
          <a href={order.links.invoice}>{t("success.invoice")}</a>
        </li>
        {/* Nothing was paid: there is nothing to refund. */}
        {order.free ? null : (
          <li>
            <a href={`${pathFor("refund", locale)}${order.links.query}`}>{t("success.refundLink")}</a>
          </li>
        )}
        {order.links.review === null ? null : (
          <li>
            <a href={`${pathFor("review", locale)}${order.links.review}`} data-testid="review-link">
              {t("review.offer")}
            </a>
          </li>
        )}
      </ul>
    </div>
  );
}

/** The access-recovery form, for a buyer who does not find the e-mail. */
function LostAccess() {
  const { t } = useI18n();
  return (
    <section className="status-card__access" id="lost-access" aria-labelledby="lost-access-title">
      <h2 id="lost-access-title" className="status-card__access-title">
        {t("access.title")}
      </h2>
      <Island name="access-form" props={{}} />
    </section>
  );
}

/** Says where the access e-mail is, as the outbox knows it: never "sent" before the mail server took it. */
function deliveryText(t: Translate, order: Extract<SuccessOrder, { state: "paid" }>): string {
  if (order.email === null || order.delivery === "none") return t("successMailMissing");
  switch (order.delivery) {
    case "sent":
      return t("successMailSent", { address: order.email });
    case "sending":
      return t("successMailSending", { address: order.email });
    case "failed":
      return t("successMailFailed", { address: order.email });
  }
}

const UNSUBSCRIBE_TEXTS = {
  done: { title: "unsubscribe.title", text: "unsubscribe.text" },
  unknown: { title: "unsubscribe.unknownTitle", text: "unsubscribe.unknownText" },
  "rate-limited": { title: "unsubscribe.rateLimitedTitle", text: "unsubscribe.rateLimitedText" },
} as const;

export function UnsubscribePage({ state }: { state: "done" | "unknown" | "rate-limited" }) {
  const { t, locale } = useI18n();
  const texts = UNSUBSCRIBE_TEXTS[state];
  return (
    <StatusCard icon={state === "done" ? "check" : "mail"} tone="neutral" title={t(texts.title)} text={t(texts.text)}>
      <a className="button button--primary" href={pathFor("landing", locale)}>
        {t("successHome")}
      </a>
    </StatusCard>
  );
}

export function CanceledPage() {
  const { t, locale } = useI18n();
  return (
    <StatusCard icon="close" tone="warning" title={t("canceledTitle")} text={t("canceledText")}>
      <a className="button button--primary" href={pathFor("payment", locale)}>
        {t("canceledRetry")}
      </a>
      <a className="button button--ghost" href={pathFor("landing", locale)}>
        {t("canceledHome")}
      </a>
    </StatusCard>
  );
}

export function NotFoundPage() {
  const { t, locale } = useI18n();
  return (
    <StatusCard
      icon="globe"
      tone="neutral"
      title={t("notFoundTitle")}
      text={t("notFoundText")}
      after={<Island name="not-found-log" props={{}} />}
    >
      <a className="button button--primary" href={pathFor("landing", locale)}>
        {t("notFoundHome")}
      </a>
    </StatusCard>
  );
}

export function ErrorPage({ reason }: { reason?: "busy" }) {
  const { t, locale } = useI18n();
  const busy = reason === "busy";
  return (
    <StatusCard
      icon={busy ? "refresh" : "noAds"}
      tone={busy ? "neutral" : "warning"}
      title={t(busy ? "errorBusyTitle" : "errorTitle")}
      text={t(busy ? "errorBusyText" : "errorText")}
    >
      <a className="button button--primary" href={pathFor("landing", locale)}>
        {t("errorHome")}
      </a>
    </StatusCard>
  );
}
