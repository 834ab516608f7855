import type { AccessFlag } from "../../shared/page-data";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";
import { Island } from "../island";

/** The page of the access-recovery form: where the support chat sends a buyer who got nothing. */
export function AccessPage({ status }: { status?: AccessFlag }) {
  const { t } = useI18n();
  return (
    <>
      <SiteHeader minimal />
      <Main className="page page--center">
        <div className="status-card status-card--neutral access-card" id="lost-access">
          <h1 className="page__title">{t("access.title")}</h1>
          <p>{t("access.text")}</p>
          <Island name="access-form" props={{ posted: status }} />
          <p className="muted">{t("access.help")}</p>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}
