import { pathFor } from "../../shared/routes";
import type { GuideDeviceFact } from "../../shared/site-facts";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { LinkedText } from "../components/linked-text";
import { useI18n } from "../i18n";

// The devices and their steps are the owner's published content (shared/content.ts, filled in by the
// server for the page's language). A device's id is part of the page's address: access e-mails
// link straight to `/guide#tv`, so it never changes once made.

// What a licence key looks like in the access e-mail, shown so that the buyer knows what to look for.
const KEY_SHAPE = "XXXXX-XXXXX-XXXXX-XXXXX-XXXXX";
const TOC_ID = "devices";

/** How to install the app on each kind of device (linked from the access e-mail: docs/product.md). */
export function GuidePage() {
  const { t, facts, locale } = useI18n();
  return (
    <>
      <SiteHeader />
      <Main className="page guide">
        <div className="container container--narrow">
          <h1 className="page__title">{t("guide.title")}</h1>
          <p className="page__subtitle">{t("guide.subtitle")}</p>

          <nav className="guide-toc" id={TOC_ID} aria-labelledby="guide-toc-title">
            <h2 id="guide-toc-title" className="guide-toc__title">
              {t("guide.toc")}
            </h2>
            <ul className="guide-toc__list" role="list">
              {facts.guide.map((device) => (
                <li key={device.id}>
                  <a href={`#${device.id}`}>{device.title}</a>
                </li>
              ))}
            </ul>
          </nav>

          <section className="panel guide-before" aria-labelledby="guide-before-title">
            <h2 id="guide-before-title">{t("guide.before.title")}</h2>
            <p>{t("guide.before.text")}</p>
            {/* The sentence above already describes the key; read aloud, the X's would only be noise. */}
            <p className="guide-key" aria-hidden="true">
              {KEY_SHAPE}
            </p>
            <p className="muted">
              <LinkedText text={t("guide.before.lost")} href={pathFor("access", locale)} />
            </p>
          </section>

          {facts.guide.map((device) => (
            <DeviceSteps key={device.id} device={device} />
          ))}

          <section className="panel money-back guide-help" aria-labelledby="guide-help-title">
            <h2 id="guide-help-title">{t("guide.help.title")}</h2>
            <p>
              {t("guide.help.text")} <a href={`mailto:${facts.supportEmail}`}>{facts.supportEmail}</a>
            </p>
            <p>{t("guide.help.guarantee")}</p>
          </section>
        </div>
      </Main>
      <SiteFooter />
    </>
  );
}

function DeviceSteps({ device }: { device: GuideDeviceFact }) {
  const { t } = useI18n();
  return (
    <section className="guide-device" id={device.id} aria-labelledby={`${device.id}-title`} data-testid="guide-device">
      <h2 id={`${device.id}-title`}>{device.title}</h2>
      <ol className="delivery-steps guide-steps" role="list">
        {device.steps.map((step, i) => (
          // Two steps may read the same; their place in the list is what tells them apart.
          <li key={i}>
            <span className="step__number" aria-hidden="true">
              {i + 1}
            </span>
            <span>{step}</span>
          </li>
        ))}
      </ol>
      {device.tip !== null ? <p className="guide-tip">{device.tip}</p> : null}
      <p className="guide-device__back">
        <a href={`#${TOC_ID}`}>{t("guide.otherDevice")}</a>
      </p>
    </section>
  );
}
