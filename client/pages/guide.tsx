import { pathFor } from "../../shared/routes";
import { LinkedText } from "../components/linked-text";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { useI18n } from "../i18n";

// The anchors are part of the page's address: access e-mails link straight to `/guide#tv`, so an id
// must never change once sent.
const GUIDE_DEVICES = ["android", "ios", "windows", "mac", "tv"] as const;
type Device = (typeof GUIDE_DEVICES)[number];

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
              {GUIDE_DEVICES.map((device) => (
                <li key={device}>
                  <a href={`#${device}`}>{t(`guide.${device}.title`)}</a>
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

          {GUIDE_DEVICES.map((device) => (
            <DeviceSteps key={device} device={device} />
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

function DeviceSteps({ device }: { device: Device }) {
  const { t } = useI18n();
  // Getting the app differs per device; once it is installed, every device asks for the same thing.
  const steps = [`guide.${device}.store`, `guide.${device}.install`, "guide.step.open", "guide.step.key", "guide.step.watch"] as const;
  return (
    <section className="guide-device" id={device} aria-labelledby={`${device}-title`} data-testid="guide-device">
      <h2 id={`${device}-title`}>{t(`guide.${device}.title`)}</h2>
      <ol className="delivery-steps guide-steps" role="list">
        {steps.map((key, i) => (
          <li key={key}>
            <span className="step__number" aria-hidden="true">
              {i + 1}
            </span>
            <span>{t(key)}</span>
          </li>
        ))}
      </ol>
      {device === "tv" ? <p className="guide-tip">{t("guide.tv.tip")}</p> : null}
      <p className="guide-device__back">
        <a href={`#${TOC_ID}`}>{t("guide.otherDevice")}</a>
      </p>
    </section>
  );
}
