import type { ReactNode } from "react";
import type { MessageKey } from "../../shared/i18n";
import type { PageData } from "../../shared/page-data";
import { pathFor } from "../../shared/routes";
import { offerTextKeys } from "../../shared/site-facts";
import { CatalogueSection, OwnerPicture } from "../components/catalogue";
import { DemoButton } from "../components/demo-button";
import { FaqList } from "../components/faq";
import { Icon, type IconName } from "../components/icons";
import { Main, SiteFooter, SiteHeader } from "../components/layout";
import { ReviewsSection } from "../components/reviews";
import { useI18n } from "../i18n";
import { Island } from "../island";

// Numbered texts (`feature2Title`...) are built from these numbers: a number with no text fails the typecheck.
const TRUST_BADGES = [
  [1, "lock"],
  [2, "shield"],
  [3, "bolt"],
] as const satisfies readonly (readonly [number, IconName])[];
const FEATURES = [
  [1, "hd"],
  [2, "devices"],
  [3, "unlock"],
  [4, "refresh"],
] as const satisfies readonly (readonly [number, IconName])[];
const BENEFITS = [
  [1, "offline"],
  [2, "noAds"],
  [3, "update"],
  [4, "support"],
  [5, "guide"],
  [6, "shield"],
] as const satisfies readonly (readonly [number, IconName])[];
const PREVIEW_POINTS = [1, 2, 3] as const;
const STEPS = [1, 2, 3, 4] as const;
const PRICING_FEATURES = [1, 2, 3, 4, 5, 6] as const;

/**
 * The app in the hero, so that the first screen shows the product: beside the text on computers
 * (1024 px and up), under the buttons on phones and tablets, where the stylesheet keeps it within
 * the first screen. Width and height keep its box from moving anything when it arrives; its sizes
 * follow its width in the layout, so a 2x phone takes the 640 or 960 px file (24 and 44 KB).
 */
function HeroVisual() {
  const { t, data } = useI18n();
  const preview = appPreview(data, "(min-width: 1240px) 520px, (min-width: 1024px) 42vw, min(calc(100vw - 40px), 520px)");
  const img = (
    <img
      className="hero__visual"
      {...preview.img}
      src={preview.sources === null ? data.assets.preview960 : preview.img.src}
      alt={t("preview.alt")}
      fetchPriority="high"
      data-testid="hero-visual"
    />
  );
  return preview.sources === null ? (
    img
  ) : (
    <picture className="hero__picture">
      {preview.sources}
      {img}
    </picture>
  );
}

/**
 * The app's preview picture: the owner's computer screenshot in the formats made on upload (AVIF,
 * then WebP, each at the widths the box needs; the <img> is its JPEG, for browsers that read
 * neither), or the build's own WebP at three widths.
 */
function appPreview(
  data: PageData,
  sizes: string,
): { sources: ReactNode | null; img: { src: string; srcSet?: string; sizes?: string; width: number; height: number } } {
  const owner = data.screenshots.computer;
  const { assets } = data;
  if (owner === null) {
    return {
      sources: null,
      img: {
        src: assets.preview1280,
        srcSet: `${assets.preview640} 640w, ${assets.preview960} 960w, ${assets.preview1280} 1280w`,
        sizes,
        width: 1280,
        height: 800,
      },
    };
  }
  return {
    sources: (
      <>
        <source type="image/avif" srcSet={owner.avif} sizes={sizes} />
        <source type="image/webp" srcSet={owner.webp} sizes={sizes} />
      </>
    ),
    img: { src: owner.fallback, width: owner.width, height: owner.height },
  };
}

/** The pair of buttons that ends a marketing section: exactly five on the page (docs/product.md). */
function CtaRow({ titleKey }: { titleKey: MessageKey }) {
  const { t, locale } = useI18n();
  return (
    <div className="cta-row">
      <h3 className="cta-row__title">{t(titleKey)}</h3>
      <div className="button-row">
        <a className="button button--primary" href={pathFor("payment", locale)}>
          {t("cta.getAccess")}
          <Icon name="arrow" />
        </a>
        <DemoButton className="button button--ghost">
          <Icon name="play" filled />
          {t("cta.seeDemo")}
        </DemoButton>
      </div>
    </div>
  );
}

function AccessButtons({ hero = false }: { hero?: boolean }) {
  const { t, locale } = useI18n();
  return (
    <div className={hero ? "button-row hero__buttons" : "button-row"}>
      <a className="button button--primary button--large" href={pathFor("payment", locale)}>
        {t("hero.getAccess")}
        <Icon name="arrow" />
      </a>
      <DemoButton className="button button--ghost button--large">
        <Icon name="play" filled />
        {t("hero.seeDetails")}
      </DemoButton>
    </div>
  );
}

/** The owner's screenshots of the app on a phone, a tablet and a computer, when uploaded. */
// The preview's width in the layout (styles.css: beside the text from 900 px, else the container
// less its padding), so a 2x phone takes the 640 or 960 px file.
const PREVIEW_SIZES = "(min-width: 900px) 568px, calc(100vw - 40px)";

function Screenshots() {
  const { t, data } = useI18n();
  const shots = [
    ["phone", data.screenshots.phone, "preview.shotPhone"],
    ["tablet", data.screenshots.tablet, "preview.shotTablet"],
    ["computer", data.screenshots.computer, "preview.shotComputer"],
  ] as const;
  const present = shots.filter(([, picture]) => picture !== null);
  if (present.length === 0) return null;
  return (
    <div className="container">
      <h3 className="screenshots__title">{t("preview.shotsTitle")}</h3>
      <ul className="screenshots">
        {present.map(([name, picture, alt]) =>
          picture === null ? null : (
            <li key={name} className={`screenshots__item screenshots__item--${name}`}>
              <OwnerPicture picture={picture} alt={t(alt)} sizes="(min-width: 900px) 360px, calc(100vw - 40px)" />
            </li>
          ),
        )}
      </ul>
    </div>
  );
}

function SectionHeading({ id, title, subtitle }: { id: string; title: string; subtitle?: string }) {
  return (
    <div className="section-heading">
      <h2 id={id}>{title}</h2>
      {subtitle ? <p>{subtitle}</p> : null}
    </div>
  );
}

/** A dash for sighted readers, "lifetime" for screen readers (our offer has no monthly price). */
function NotApplicable() {
  const { t } = useI18n();
  return (
    <>
      <span aria-hidden="true">{t("comparison.notApplicable")}</span>
      <span className="sr-only">{t("comparison.lifetime")}</span>
    </>
  );
}

/**
 * An amount of the comparison. On phones the rows stack (client/styles.css) and each amount shows
 * its column's name above it; screen readers have the real column header, so the copy is hidden
 * from them.
 */
function ComparisonCell({ labelKey, children }: { labelKey: MessageKey; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <td>
      <span className="comparison__label" aria-hidden="true">
        {t(labelKey)}
      </span>
      {children}
    </td>
  );
}

export function LandingPage() {
  const { t, facts, data, locale } = useI18n();
  const preview = appPreview(data, PREVIEW_SIZES);
  const offerText = offerTextKeys(facts.offer);
  return (
    <>
      <SiteHeader />
      <Main>
        <section className="hero" aria-labelledby="hero-title">
          <div className="hero__backdrop" aria-hidden="true">
            {Array.from({ length: 12 }, (_, i) => (
              <span key={i} className={`tile tile--${(i % 6) + 1}`} />
            ))}
          </div>
          <div className="container hero__inner">
            <p className="badge" data-testid="hero-badge">
              <Icon name="gift" /> {t(offerText.heroBadge)}
            </p>
            <h1 id="hero-title" className="hero__title">
              {t("heroTitle")}
            </h1>
            <p className="hero__subtitle">{t("heroSubtitle")}</p>
            <AccessButtons hero />
            <HeroVisual />
            <p className="hero__meta">
              <span className="hero__price" data-price="">
                {t(offerText.priceNote)}
              </span>
              {facts.users === null ? null : (
                <>
                  <span aria-hidden="true"> · </span>
                  <span data-testid="user-count">{t(facts.usersKind === "devices" ? "hero.devices" : "hero.buyers")}</span>
                </>
              )}
            </p>
          </div>
        </section>

        <div className="trust">
          <ul className="container trust__list" role="list">
            {TRUST_BADGES.map(([n, icon]) => (
              <li key={icon} className="trust-badge" data-testid="trust-badge">
                <Icon name={icon} />
                {t(`trustBadge${n}`)}
              </li>
            ))}
          </ul>
        </div>

        <section className="section" id="features" aria-labelledby="features-title">
          <div className="container">
            <SectionHeading id="features-title" title={t("featuresTitle")} subtitle={t("featuresSubtitle")} />
            <ul className="card-grid card-grid--4" role="list">
              {FEATURES.map(([n, icon]) => (
                <li key={icon} className="card feature-card" data-testid="feature-card">
                  <span className="card__icon">
                    <Icon name={icon} />
                  </span>
                  <h3>{t(`feature${n}Title`)}</h3>
                  <p>{t(`feature${n}Desc`)}</p>
                </li>
              ))}
            </ul>
            <CtaRow titleKey="cta.featuresTitle" />
          </div>
        </section>

        <CatalogueSection />

        <section className="section section--alt preview" aria-labelledby="preview-title">
          <div className="container preview__inner">
            <div className="preview__text">
              <SectionHeading id="preview-title" title={t("preview.title")} subtitle={t("preview.text")} />
              <ul className="check-list" role="list">
                {PREVIEW_POINTS.map((n) => (
                  <li key={n}>
                    <Icon name="check" />
                    {t(`preview.point${n}`)}
                  </li>
                ))}
              </ul>
              <AccessButtons />
            </div>
            <picture className="preview__image">
              {preview.sources}
              <img {...preview.img} alt={t("preview.alt")} loading="lazy" decoding="async" />
            </picture>
          </div>
          <Screenshots />
        </section>

        {/* Only buyers' reviews, published by the owner (development: marked samples while none is). */}
        <ReviewsSection
          reviews={facts.reviews}
          heading={(id) => <SectionHeading id={id} title={t("reviews.title")} subtitle={t("reviews.subtitle")} />}
        >
          <CtaRow titleKey="cta.testimonialsTitle" />
        </ReviewsSection>

        <section className="section section--alt" id="why" aria-labelledby="why-title">
          <div className="container">
            <SectionHeading id="why-title" title={t("whyTitle")} subtitle={t("whySubtitle")} />
            <ul className="card-grid card-grid--3" role="list">
              {BENEFITS.map(([n, icon]) => (
                <li key={n} className="card benefit-card" data-testid="benefit-card">
                  <span className="card__icon">
                    <Icon name={icon} />
                  </span>
                  <h3>{t(`whyAppBenefit${n}`)}</h3>
                  <p>{t(`whyAppBenefit${n}Desc`)}</p>
                  {icon === "guide" ? (
                    <p className="benefit-card__link">
                      <a href={pathFor("guide", locale)}>{t("guide.landingLink")}</a>
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
            <CtaRow titleKey="cta.whyTitle" />
          </div>
        </section>

        <section className="section" id="comparison" aria-labelledby="comparison-title">
          <div className="container container--narrow">
            <SectionHeading id="comparison-title" title={t("comparison")} subtitle={t("comparisonSubtitle")} />
            <div className="table-wrap">
              <table className="comparison">
                <thead>
                  <tr>
                    <th scope="col">{t("comparison.service")}</th>
                    <th scope="col">{t("comparison.perMonth")}</th>
                    <th scope="col">{t("comparison.perYear")}</th>
                    <th scope="col">{t("comparison.fiveYears")}</th>
                  </tr>
                </thead>
                <tbody>
                  {facts.comparison.map((row) => (
                    <tr key={row.name} className={row.highlight ? "comparison__ours" : undefined} data-testid="comparison-row">
                      <th scope="row">
                        {row.name}
                        {row.highlight ? <span className="pill">{t("comparison.ourOffer")}</span> : null}
                      </th>
                      <ComparisonCell labelKey="comparison.perMonth">{row.monthly ?? <NotApplicable />}</ComparisonCell>
                      <ComparisonCell labelKey="comparison.perYear">{row.yearly ?? <NotApplicable />}</ComparisonCell>
                      <ComparisonCell labelKey="comparison.fiveYears">
                        {row.fiveYears}
                        {row.highlight ? <span className="muted"> {t("comparison.oneTime")}</span> : null}
                      </ComparisonCell>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="savings" data-testid="savings">
              <Icon name="check" /> {t("savingsMessage")}
            </p>
            {facts.comparisonChecked !== null ? (
              <p className="muted" data-testid="comparison-checked">
                {t("comparison.checked", { date: facts.comparisonChecked.date, source: facts.comparisonChecked.source })}
              </p>
            ) : null}
            <CtaRow titleKey="cta.comparisonTitle" />
          </div>
        </section>

        <section className="section section--alt" id="how" aria-labelledby="how-title">
          <div className="container">
            <SectionHeading id="how-title" title={t("howTitle")} subtitle={t("howSubtitle")} />
            <ol className="steps" role="list">
              {STEPS.map((n) => (
                <li key={n} className="step" data-testid="step">
                  <span className="step__number" aria-hidden="true">
                    {n}
                  </span>
                  <h3>{t(`howStep${n}`)}</h3>
                  <p>{t(`howStep${n}Desc`)}</p>
                </li>
              ))}
            </ol>
            <CtaRow titleKey="cta.howTitle" />
          </div>
        </section>

        <section className="section" id="pricing" aria-labelledby="pricing-title">
          <div className="container">
            <SectionHeading id="pricing-title" title={t("pricingTitle")} subtitle={t(offerText.pricingSubtitle)} />
            <PricingCard />
          </div>
        </section>

        <section className="section section--alt" id="faq" aria-labelledby="faq-title">
          <div className="container container--narrow">
            <SectionHeading id="faq-title" title={t("faqTitle")} />
            <FaqList />
          </div>
        </section>
        <FreeDemoSection />
      </Main>
      <SiteFooter />
    </>
  );
}

/** The free-demo form at the end of the page: the no-JavaScript path to a lead. */
function FreeDemoSection() {
  const { t, data } = useI18n();
  // The outcome of a plain form post comes back in the URL (server/shop/leads/controller.ts).
  const posted = data.view.page === "landing" ? data.view.lead : undefined;
  return (
    <section className="section lead-section" id="free-demo" aria-labelledby="free-demo-title">
      <div className="container container--narrow">
        <div className="lead-section__card">
          <h2 id="free-demo-title">{t("freeDemo.title")}</h2>
          <p className="muted">{t("exitPopup.text")}</p>
          <Island name="lead-form" props={{ posted }} />
        </div>
      </div>
    </section>
  );
}

function PricingCard() {
  const { t, locale, facts } = useI18n();
  return (
    <article className="pricing-card" aria-labelledby="pricing-plan">
      {/* The early-bird badge and the struck-through price exist only while the offer runs. */}
      {facts.offer.on ? (
        <p className="badge badge--glow" data-testid="early-bird">
          {t("earlyBird")}
        </p>
      ) : null}
      <h3 id="pricing-plan">{t("pricing.plan")}</h3>
      <p className="pricing-card__price" data-price="">
        <span className="pricing-card__amount" data-testid="price">
          {facts.price}
        </span>
        {facts.offer.on ? (
          <del className="pricing-card__old" data-testid="old-price">
            <span className="sr-only">{t("pricing.oldPrice")}</span>
            <span aria-hidden="true">{facts.offer.oldPrice}</span>
          </del>
        ) : null}
      </p>
      <p className="muted">
        {t("pricing.once")} · {t("pricing.vat")}
      </p>
      {/* What "lifetime" means and the device limit, where the price is (the terms say the same). */}
      <p className="pricing-card__fineprint" data-testid="fineprint">
        {t("offer.fineprint")}
      </p>
      <ul className="check-list" role="list">
        {PRICING_FEATURES.map((n) => (
          <li key={n}>
            <Icon name="check" />
            {t(`pricing.feature${n}`)}
          </li>
        ))}
      </ul>
      <a className="button button--primary button--large button--block" href={pathFor("payment", locale)}>
        {t("pricing.cta")}
        <Icon name="arrow" />
      </a>
      <p className="pricing-card__guarantee">
        <Icon name="shield" /> {t("pricing.guarantee")}
      </p>
    </article>
  );
}
