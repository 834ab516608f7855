import { pathFor } from "../../shared/routes";
import { DemoVideo } from "../components/demo-video";
import { Icon } from "../components/icons";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";

/**
 * The demo video on a page of its own, the address of every demo link: without JavaScript a visitor
 * gets the same player as the landing page's dialog, with its captions in the page's language, not
 * the bare video file. Server HTML only; the player is the browser's own.
 */
export function DemoPage() {
  const { t, locale, data } = useI18n();
  const { assets } = data;
  const seconds = assets.videoSeconds;
  return (
    <>
      <SiteHeader />
      <Main className="page demo-page">
        <div className="container container--narrow">
          {/* The length the file really has (read by the server), never a figure typed in a text. */}
          <h1 className="page__title">{seconds === null ? t("demo.titleNoDuration") : t("demo.title", { seconds })}</h1>
          <p className="page__subtitle">{t("demo.page.intro")}</p>
          <div className="demo-page__frame">
            <DemoVideo
              poster={assets.poster}
              video={assets.video}
              captions={assets.captions}
              locale={locale}
              preload="none"
              unsupported={t("demo.unsupported")}
              download={t("demo.download")}
            />
          </div>
          <p className="muted">{t("demo.page.captions")}</p>
          <p>{t("demo.page.offer")}</p>
          <div className="button-row">
            <a className="button button--primary" href={pathFor("payment", locale)}>
              {t("cta.getAccess")}
              <Icon name="arrow" />
            </a>
            <a className="button button--ghost" href={`${pathFor("landing", locale)}#pricing`}>
              {t("demo.page.seeOffer")}
            </a>
          </div>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}
