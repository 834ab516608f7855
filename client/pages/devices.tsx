import { pathFor } from "../../shared/routes";
import type { DevicesPageState } from "../../shared/schemas/licenses";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";
import { Island } from "../island";

/** "Manage my devices": the page behind the access e-mail's signed link. */
export function DevicesPage({ devices }: { devices: DevicesPageState }) {
  const { t, locale } = useI18n();
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--center">
        {devices.state === "ok" ? (
          <div className="status-card status-card--neutral devices-card">
            <h1 className="page__title">{t("devices.title")}</h1>
            <p>{t("devices.text", { limit: devices.activationLimit })}</p>
            <Island name="devices" props={{ devices }} />
            {devices.review === undefined ? null : (
              <p>
                {t("review.offerText")}{" "}
                <a href={`${pathFor("review", locale)}${devices.review}`} data-testid="review-link">
                  {t("review.offer")}
                </a>
              </p>
            )}
          </div>
        ) : devices.state === "rate-limited" ? (
          <div className="status-card status-card--neutral">
            <h1 className="page__title">{t("devices.title")}</h1>
            <p>{t("devices.rateLimited")}</p>
          </div>
        ) : (
          <div className="status-card status-card--neutral access-card" id="lost-access">
            <h1 className="page__title">{t("devices.invalidTitle")}</h1>
            <p>{t("devices.invalidText")}</p>
            <Island name="access-form" props={{}} />
          </div>
        )}
      </Main>
      <SiteFooter />
    </>
  );
}
