import type { MessageKey } from "../shared/i18n";
import { LOCALE_TAGS, LOCALES } from "../shared/locales";
import { ISLAND_DATA_ID, type IslandData, type PageData } from "../shared/page-data";
import { isSitePageId, pathFor } from "../shared/routes";
import { SvgDefs } from "./components/icons";
import { SkipLink } from "./components/layout";
import { productJsonLd } from "./components/reviews";
import { I18nProvider, useI18n } from "./i18n";
import { Island, type IslandRenderer, IslandRendererContext } from "./island";
import { AccessPage } from "./pages/access";
import { CataloguePage } from "./pages/catalogue";
import { DemoPage } from "./pages/demo";
import { DevicesPage } from "./pages/devices";
import { GuidePage } from "./pages/guide";
import { LandingPage } from "./pages/landing";
import { LegalNoticePage, PrivacyPage, TermsPage } from "./pages/legal";
import { PaymentPage } from "./pages/payment";
import { RefundPage } from "./pages/refund";
import { ReviewPage, ReviewStopPage, ReviewsInfoPage } from "./pages/review";
import { CanceledPage, ErrorPage, NotFoundPage, SuccessPage, UnsubscribePage } from "./pages/status-pages";
import { TestCheckoutPage } from "./pages/test-checkout";

/** Serialises data for a <script type="application/json">, safe against `</script>`. */
export function serializeJson(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The whole document, rendered on the server only. Its interactive parts are islands (island.tsx):
 * `islands` renders each one as its own root and collects its props and texts, which the document
 * ends with, together with the script that hydrates them (none on a page without islands).
 */
export function Document({ data, islands }: { data: PageData; islands: { render: IslandRenderer; data: () => IslandData | null } }) {
  return (
    <I18nProvider data={data}>
      <IslandRendererContext.Provider value={islands.render}>
        <html lang={LOCALE_TAGS[data.locale].bcp47.slice(0, 2)} dir="ltr">
          <Head />
          <body className={`page-${data.view.page}`}>
            <SvgDefs />
            <SkipLink />
            <PageBody />
            <Widgets />
            {/* Rendered last: by then every island of the page has been rendered and collected. */}
            <IslandScripts collect={islands.data} src={data.assets.js} />
          </body>
        </html>
      </IslandRendererContext.Provider>
    </I18nProvider>
  );
}

function IslandScripts({ collect, src }: { collect: () => IslandData | null; src: string }) {
  const islandData = collect();
  if (islandData === null) return null;
  return (
    <>
      <script type="application/json" id={ISLAND_DATA_ID} dangerouslySetInnerHTML={{ __html: serializeJson(islandData) }} />
      <script type="module" src={src} />
    </>
  );
}

function PageBody() {
  const { data } = useI18n();
  const view = data.view;
  switch (view.page) {
    case "landing":
      return <LandingPage />;
    case "payment":
      return (
        <PaymentPage
          error={view.error}
          purchaseNotice={view.purchaseNotice}
          noticeBox={view.noticeBox === true}
          allCountries={view.allCountries === true}
          code={view.code}
          partnerRef={view.ref}
          business={view.business}
        />
      );
    case "success":
      return <SuccessPage order={view.order} />;
    case "canceled":
      return <CanceledPage />;
    case "guide":
      return <GuidePage />;
    case "demo":
      return <DemoPage />;
    case "catalogue":
      return <CataloguePage />;
    case "legal-notice":
      return <LegalNoticePage legal={view.legal} />;
    case "terms":
      return <TermsPage legal={view.legal} />;
    case "privacy":
      return <PrivacyPage legal={view.legal} />;
    case "access":
      return <AccessPage status={view.status} />;
    case "devices":
      return <DevicesPage devices={view.devices} />;
    case "refund":
      return <RefundPage refund={view.refund} />;
    case "reviews":
      return <ReviewsInfoPage />;
    case "review":
      return <ReviewPage review={view.review} />;
    case "review-stop":
      return <ReviewStopPage stop={view.stop} link={view.link} />;
    case "unsubscribe":
      return <UnsubscribePage state={view.state} />;
    case "not-found":
      return <NotFoundPage />;
    case "error":
      return <ErrorPage reason={view.reason} />;
    case "test-checkout":
      return <TestCheckoutPage view={view} />;
  }
}

/**
 * Support and social proof on the site's pages; the lead popup and the demo video only on the
 * landing page (never on the payment pages: docs/product.md, "Leads and privacy"); the toast
 * region where any of them may show a notification.
 */
function Widgets() {
  const { data, facts } = useI18n();
  const view = data.view;
  if (!isSitePageId(view.page)) return null;
  return (
    <>
      <Island name="support" props={{ supportEmail: facts.supportEmail }} />
      {/* The buyer who just paid would be shown their own purchase. */}
      {view.page === "success" || view.page === "devices" || view.page === "refund" || view.page === "review" ? null : (
        <Island name="social-proof" props={{}} />
      )}
      {view.page === "landing" ? (
        <>
          <Island name="exit-popup" props={{ usedForm: view.lead !== undefined }} />
          <Island
            name="demo"
            props={{
              poster: data.assets.poster,
              video: data.assets.video,
              seconds: data.assets.videoSeconds,
              captions: data.assets.captions,
            }}
          />
        </>
      ) : null}
      <Island name="toasts" props={{}} />
    </>
  );
}

function Head() {
  const { t, data } = useI18n();
  const { view, assets, baseUrl, alternates, locale } = data;
  const titleKey: Record<PageData["view"]["page"], MessageKey> = {
    landing: "meta.title",
    payment: "meta.paymentTitle",
    success: "meta.successTitle",
    canceled: "meta.canceledTitle",
    guide: "meta.guideTitle",
    demo: "meta.demoTitle",
    catalogue: "meta.catalogueTitle",
    access: "meta.accessTitle",
    devices: "meta.devicesTitle",
    refund: "meta.refundTitle",
    reviews: "meta.reviewsTitle",
    review: "meta.reviewTitle",
    "review-stop": "meta.reviewStopTitle",
    "legal-notice": "meta.legalNoticeTitle",
    terms: "meta.termsTitle",
    privacy: "meta.privacyTitle",
    unsubscribe: "meta.unsubscribeTitle",
    "not-found": "meta.notFoundTitle",
    error: "meta.title",
    "test-checkout": "meta.checkoutTitle",
  };
  // The success page claims success only for a paid order; its title says what it shows.
  const successTitles = {
    paid: "meta.successTitle",
    pending: "meta.successPendingTitle",
    unknown: "meta.successUnknownTitle",
    none: "meta.successNoneTitle",
    refunded: "meta.successRefundedTitle",
    delivered: "meta.successDeliveredTitle",
  } as const;
  // The card page says "test mode" only when it is: a free-access claim made in Stripe mode is real.
  const title = t(
    view.page === "success"
      ? view.order.state === "paid" && view.order.free
        ? "meta.successFreeTitle"
        : successTitles[view.order.state]
      : view.page === "test-checkout" && !view.session.testMode
        ? "meta.claimTitle"
        : titleKey[view.page],
  );
  // The guide is what a buyer's e-mail links to and what a search for "install {siteName}" finds,
  // and the demo and legal pages are found by what they are: they say what they are about rather
  // than the sales pitch every other page shares.
  const descriptionKey: Partial<Record<PageData["view"]["page"], MessageKey>> = {
    guide: "meta.guideDescription",
    demo: "meta.demoDescription",
    catalogue: "meta.catalogueDescription",
    "legal-notice": "meta.legalNoticeDescription",
    terms: "meta.termsDescription",
    privacy: "meta.privacyDescription",
    reviews: "meta.reviewsDescription",
  };
  const description = t(descriptionKey[view.page] ?? "meta.description");
  const indexable =
    isSitePageId(view.page) &&
    view.page !== "success" &&
    view.page !== "canceled" &&
    view.page !== "access" &&
    view.page !== "devices" &&
    view.page !== "refund" &&
    view.page !== "review";
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
      <title>{title}</title>
      <meta name="description" content={description} />
      <meta name="theme-color" content="#0b0d17" />
      <meta name="color-scheme" content="dark" />
      {indexable ? null : <meta name="robots" content="noindex" />}
      {/* A pending order's page looks again by itself without JavaScript too (the script does it with). */}
      {view.page === "success" && view.order.state === "pending" ? (
        <noscript>
          <meta httpEquiv="refresh" content={`5;url=${pathFor("success", locale)}${view.order.query}`} />
        </noscript>
      ) : null}
      {assets.font ? <link rel="preload" href={assets.font} as="font" type="font/woff2" crossOrigin="anonymous" /> : null}
      <link rel="stylesheet" href={assets.css} />
      <link rel="icon" href={assets.favicon} type="image/svg+xml" />
      <link rel="apple-touch-icon" href={assets.appleTouchIcon} />
      {data.canonicalPath === null ? null : <link rel="canonical" href={`${baseUrl}${data.canonicalPath}`} />}
      {alternates ? LOCALES.map((l) => <link key={l} rel="alternate" hrefLang={l} href={`${baseUrl}${alternates[l]}`} />) : null}
      {alternates ? <link rel="alternate" hrefLang="x-default" href={`${baseUrl}${alternates.fr}`} /> : null}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={data.facts.siteName} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      {data.canonicalPath === null ? null : <meta property="og:url" content={`${baseUrl}${data.canonicalPath}`} />}
      <meta property="og:image" content={`${baseUrl}${assets.ogImage}`} />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta property="og:locale" content={LOCALE_TAGS[locale].og} />
      {LOCALES.filter((l) => l !== locale).map((l) => (
        <meta key={l} property="og:locale:alternate" content={LOCALE_TAGS[l].og} />
      ))}
      <meta name="twitter:card" content="summary_large_image" />
      {view.page === "landing" ? (
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: productJsonLd(data.facts, baseUrl, description, `${baseUrl}${assets.ogImage}`) ?? "" }}
        />
      ) : null}
    </head>
  );
}
