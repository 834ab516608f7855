import type { ReactNode } from "react";
import { pathFor } from "../../shared/routes";
import { useI18n } from "../i18n";
import { SUPPORT_BUTTON_ATTRIBUTE } from "../islands/triggers";
import { Icon, Logo } from "./icons";
import { LanguageSwitcher } from "./language-switcher";

/**
 * On a production site taking orders with the built-in test checkout: at the top of every page's
 * header, so no visitor takes an order there for a real purchase. Part of the page's bytes (the
 * setting is known when the pages are rendered), not a script's doing.
 */
export function TestBanner() {
  const { t } = useI18n();
  return (
    <p className="test-banner">
      <strong className="test-banner__mark">TEST</strong> {t("testCheckout.banner")}
    </p>
  );
}

export function SiteHeader({ minimal = false }: { minimal?: boolean }) {
  const { t, locale, facts } = useI18n();
  const home = pathFor("landing", locale);
  return (
    <header className="site-header">
      {facts.testCheckout ? <TestBanner /> : null}
      <div className="container site-header__inner">
        <a className="brand" href={home} aria-label={t("nav.home")}>
          <Logo className="brand__logo" />
          <span className="brand__name">{facts.siteName}</span>
        </a>
        {minimal ? null : (
          <nav className="site-nav" aria-label={facts.siteName}>
            <a href={`${home}#features`}>{t("features")}</a>
            <a href={`${home}#pricing`}>{t("pricing")}</a>
          </nav>
        )}
        <div className="site-header__end">
          {minimal ? <HelpButton /> : null}
          <LanguageSwitcher />
          {minimal ? null : (
            <a className="button button--primary button--small site-header__cta" href={pathFor("payment", locale)}>
              {t("nav.lifetimeAccess")}
            </a>
          )}
        </div>
      </div>
    </header>
  );
}

/**
 * Help within reach on the payment page, where a hesitating buyer is: in the header, which stays on
 * screen, so it never covers the consent or the pay button (the floating button waits below the
 * first screen on phones). Without JavaScript a mailto: link; with it, it opens the support
 * widget's menu (chat or e-mail), whose loader starts when a visitor reaches for it.
 */
function HelpButton() {
  const { t, facts } = useI18n();
  return (
    <a
      className="button button--ghost button--small site-header__help"
      href={`mailto:${facts.supportEmail}`}
      {...{ [SUPPORT_BUTTON_ATTRIBUTE]: "" }}
    >
      <Icon name="support" />
      {t("support.help")}
    </a>
  );
}

export function SiteFooter() {
  const { t, locale, facts } = useI18n();
  const home = pathFor("landing", locale);
  // Always with the page's path: the footer is also on pages that do not have these sections.
  const anchor = (id: string) => `${home}#${id}`;
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div>
          <a className="brand" href={home} aria-label={t("nav.home")}>
            <Logo className="brand__logo" />
            <span className="brand__name">{facts.siteName}</span>
          </a>
          <p className="muted">{t("footer.tagline")}</p>
        </div>
        <nav aria-label={t("footer.product")}>
          <h2 className="site-footer__title">{t("footer.product")}</h2>
          <ul role="list">
            <li>
              <a href={anchor("features")}>{t("features")}</a>
            </li>
            <li>
              <a href={anchor("pricing")}>{t("pricing")}</a>
            </li>
            <li>
              <a href={pathFor("payment", locale)}>{t("nav.lifetimeAccess")}</a>
            </li>
          </ul>
        </nav>
        <nav aria-label={t("footer.help")}>
          <h2 className="site-footer__title">{t("footer.help")}</h2>
          <ul role="list">
            <li>
              <a href={anchor("faq")}>{t("footer.faq")}</a>
            </li>
            <li>
              <a href={pathFor("guide", locale)}>{t("footer.guide")}</a>
            </li>
            <li>
              <a href={pathFor("access", locale)}>{t("access.title")}</a>
            </li>
            <li>
              <a href={`mailto:${facts.supportEmail}`}>{t("footer.contact")}</a>
            </li>
            <li className="muted">{t("footer.support")}</li>
          </ul>
        </nav>
        <nav aria-label={t("footer.legal")}>
          <h2 className="site-footer__title">{t("footer.legal")}</h2>
          <ul role="list">
            <li>
              <a href={pathFor("legal-notice", locale)}>{t("footer.legalNotice")}</a>
            </li>
            <li>
              <a href={pathFor("terms", locale)}>{t("footer.terms")}</a>
            </li>
            <li>
              <a href={pathFor("privacy", locale)}>{t("footer.privacy")}</a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container site-footer__bottom">
        <p>{t("footer.rights")}</p>
        <p>
          <Icon name="shield" className="icon--inline" /> {t("footer.noCookies")}
        </p>
      </div>
    </footer>
  );
}

export function SkipLink() {
  const { t } = useI18n();
  return (
    <a className="skip-link" href="#main">
      {t("nav.skip")}
    </a>
  );
}

export function Main({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <main id="main" tabIndex={-1} className={className}>
      {children}
    </main>
  );
}
