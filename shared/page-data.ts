import type { CatalogueFacts, CatalogueResults, CatalogueSearch, Picture } from "./catalogue";
import type { CompiledMessages, MessageValues } from "./i18n";
import type { LegalFacts } from "./legal";
import type { Locale } from "./locales";
import type { ReviewPageState, ReviewStopState } from "./reviews";
import type { DevicesPageState } from "./schemas/licenses";
import type { CardField, CheckoutErrorKey } from "./schemas/payment";
import type { SiteFacts } from "./site-facts";

// The page contract: what the server renders a page from, and the part of it the browser receives
// to bring the page's interactive parts ("islands") to life.

/** URLs of the static assets, content-hashed where the file allows it. */
export type AssetUrls = {
  /** The islands' loader (client/entry.ts); everything else it needs, it imports when needed. */
  js: string;
  css: string;
  font: string | null;
  poster: string;
  video: string;
  /** The demo video's length in whole seconds, read from the file (server/site/video-duration.ts); null if unreadable. */
  videoSeconds: number | null;
  /** The demo video's captions, one WebVTT file per language. */
  captions: { locale: Locale; url: string }[];
  preview640: string;
  preview960: string;
  preview1280: string;
  ogImage: string;
  favicon: string;
  appleTouchIcon: string;
};

/**
 * The links of an order's pages: `query` (`?order=REF&t=…`, signed: server/shop/checkout/order-links.ts)
 * opens its success and refund pages in any language; `invoice` is the invoice's address.
 */
export type OrderLinks = {
  query: string;
  invoice: string;
  /**
   * The order's review page's query (`?order=&k=`: server/shop/reviews/links.ts), for every language;
   * null where its review would be refused (a test-checkout order in production).
   */
  review: string | null;
};

/** What the success page knows about the order named by `session_id` or by its reference's signed link. */
/** Where the access e-mail of a paid order stands, so the page says only what is true. */
export type PaidDelivery = "sent" | "sending" | "failed" | "none";

export type SuccessOrder =
  | { state: "none" } // no session_id: nothing to confirm
  | {
      state: "paid";
      /** Nothing was paid (a 100 % code): the page says the access is ready, and offers no refund of nothing. */
      free: boolean;
      email: string | null;
      delivery: PaidDelivery;
      reference: string;
      licenseKey: string | null;
      links: OrderLinks;
    }
  /**
   * A paid order reached by the provider's return address after the bound in which it shows the
   * key (server/shop/checkout/success-order.ts): only that the access e-mail was sent.
   */
  | { state: "delivered"; reference: string; delivery: PaidDelivery }
  /** The page looks again at its own address with `query` (its meta refresh, its script). */
  | { state: "pending"; reference: string; query: string }
  | { state: "refunded"; reference: string }
  | { state: "unknown" };

/** The 7-day guarantee's refund page of one order (`?order=&t=`), per request, never cached. */
export type RefundPageState =
  | { state: "invalid" }
  | {
      state: "open";
      reference: string;
      /** The order's amount and the window's last moment, formatted for the page's language. */
      amount: string;
      deadline: string;
      /** `request`: the confirmation asks the owner, who refunds from the console. */
      mode: "auto" | "request";
      link: { order: string; t: string };
      flash?: "error" | "rate-limited";
    }
  | { state: "closed"; reference: string; deadline: string }
  | { state: "requested"; reference: string }
  | { state: "refunded"; reference: string }
  | { state: "not-paid"; reference: string }
  /** Free access (a 100 % code): nothing was paid, so nothing is offered back. */
  | { state: "free"; reference: string };

/** The built-in test checkout's card page. Errors are the texts' keys. */
export type TestCheckoutView = {
  page: "test-checkout";
  session: {
    id: string;
    amount: string;
    status: "open" | "complete" | "expired";
    cancelUrl: string;
    successUrl: string;
    paymentPath: string;
    /** The buyer's consent is recorded with this checkout (payment page); without it, it cannot be paid. */
    consented: boolean;
    /** Free access claimed with a 100 % code: the page asks no card. */
    free: boolean;
    /** The built-in test checkout (or a claim made while it runs): the page says no real payment happens. */
    testMode: boolean;
  };
  /** The first-name initial and city typed here may show in the recent-purchases notice: say so next to them. */
  purchaseNotice: boolean;
  /** What the buyer typed, sent back with the page after a problem (never the card). */
  values: { email: string; name: string; city: string; country: string };
  /**
   * The card page's country list, named in the page's language on the server (the browser's own
   * names could differ from them and break hydration), the visitor's likely country first.
   */
  countries: { code: string; name: string }[];
  errors: Partial<Record<CardField | "form", CheckoutErrorKey>>;
};

/** The outcome of a plain form post to /api/access/resend, shown on the access page (`?status=`). */
export type AccessFlag = "sent" | "invalid" | "rate-limited" | "error";

/** The outcome of a plain form post to /api/leads, shown on the landing page (`?lead=`). */
export type LeadFlag = "sent" | "invalid" | "rate-limited" | "error";

import type { BusinessPageError, BusinessTyped } from "./business-buyer";
/** Why a plain form post to /api/payment came back to the payment page (`?error=`); "consent": the box was not ticked. */
import type { CodeRefusal, CodeState } from "./discount-code";

export type PaymentPageError =
  | "provider"
  | "rate-limited"
  | "invalid"
  | "consent"
  /** A discount code refused (shared/discount-code.ts CODE_REFUSALS). */
  | "code-unknown"
  | "code-not-started"
  | "code-expired"
  | "code-used-up"
  /** The company's details refused (shared/business-buyer.ts BUSINESS_PAGE_ERRORS): the first field in error and why. */
  | BusinessPageError;

export type View =
  | { page: "landing"; lead?: LeadFlag }
  | {
      page: "payment";
      error?: PaymentPageError;
      /** Stripe's page collects the billing address whose city the recent-purchases notice may show: say so. */
      purchaseNotice: boolean;
      /** This site's purchases may show in the notice: the buyer is offered the (unchecked) box to agree. */
      noticeBox?: boolean;
      /** The company section lists every country (`?countries=all`: the no-JavaScript way to a country outside the short list). */
      allCountries?: boolean;
      /** The code of `?code=`, or of the partner of `?ref=`, checked for this request (the page is then rendered per request). */
      code?: CodeState;
      /** The partner whose link (`?ref=`) brought the buyer, sent with the pay form (plain form posts too). */
      ref?: string;
      /** The company fields a plain form post was refused with, given back (the page is then rendered per request). */
      business?: BusinessTyped;
    }
  | { page: "success"; order: SuccessOrder }
  | { page: "canceled" }
  | { page: "guide" }
  | { page: "demo" }
  /** The catalogue's titles: one page of a search (`?q=&category=&page=`), the same bytes for every visitor. */
  | { page: "catalogue"; search: CatalogueSearch }
  | { page: "legal-notice"; legal: LegalFacts }
  | { page: "terms"; legal: LegalFacts }
  | { page: "privacy"; legal: LegalFacts }
  | { page: "access"; status?: AccessFlag }
  /** The buyer's devices, from the signed link of the access e-mail (per request, never cached). */
  | { page: "devices"; devices: DevicesPageState }
  | { page: "refund"; refund: RefundPageState }
  /** How reviews work (the law's statement of how they are checked), the same for every visitor. */
  | { page: "reviews" }
  /** An order's review page, from its link (per request, never cached). */
  | { page: "review"; review: ReviewPageState }
  /** The review e-mails' stop link (per request). */
  | { page: "review-stop"; stop: ReviewStopState; link: { order: string; k: string } | null }
  /** `rate-limited`: too many tries from this client (429); nothing was changed. */
  | { page: "unsubscribe"; state: "done" | "unknown" | "rate-limited" }
  | { page: "not-found" }
  /** `busy`: a write waited its whole bound for another program's database lock (503); nothing changed. */
  | { page: "error"; reason?: "busy" }
  | TestCheckoutView;

/** Everything a page is rendered from on the server. Only `IslandData` reaches the browser. */
export type PageData = {
  view: View;
  locale: Locale;
  /** The path of this page in each language, for the switcher and hreflang; null when none. */
  alternates: Record<Locale, string> | null;
  /** The page's canonical path; null for pages that are not one of the site's (404, error, test checkout). */
  canonicalPath: string | null;
  baseUrl: string;
  /** The language's whole catalogue, compiled (server/site/locales.ts). */
  messages: CompiledMessages;
  /** The values any text may name (shared/i18n.ts siteValues). */
  values: MessageValues;
  facts: SiteFacts;
  assets: AssetUrls;
  /** The app's catalogue as the landing page shows it (poster wall, counts, rights statement). */
  catalogue: CatalogueFacts;
  /** The owner's screenshots of the app on each screen; null: none uploaded. */
  screenshots: { phone: Picture | null; tablet: Picture | null; computer: Picture | null };
  /** The catalogue page's search results; null on every other page. */
  catalogueResults: CatalogueResults | null;
};

type NoProps = Record<string, never>;

/**
 * The interactive parts of the pages, each rendered on the server inside its own container and
 * hydrated on its own, with these props. A new one is a name here, a component in client/islands/
 * (registered in client/islands/index.ts for the browser and server/site/islands.tsx for the server).
 */
export type IslandProps = {
  /** The demo video's dialog, opened by any `[data-demo-button]` link of the page. */
  demo: { poster: string; video: string; seconds: number | null; captions: AssetUrls["captions"] };
  /** The free-demo form at the end of the landing page. */
  "lead-form": { posted?: LeadFlag };
  /** The buyer's device list with a "free" form per device (devices page). */
  devices: { devices: Extract<DevicesPageState, { state: "ok" }> };
  /** "Lost your access e-mail?" (FAQ, success page, access page). */
  "access-form": { posted?: AccessFlag };
  /** `consentMissing`: the server sent the page back because the consent box was not ticked. */
  /** `codeError`: the server refused the code of a plain form post (`?error=code-…`). */
  "pay-button": {
    consentMissing: boolean;
    codeError?: CodeRefusal | undefined;
    noticeBox?: boolean;
    /** The company section's problem a plain form post came back with (`?error=business-…`). */
    businessError?: BusinessPageError | undefined;
    /** Every country in the company section's list (`?countries=all`), not only those the tax rules tell apart. */
    allCountries?: boolean;
    /** What the buyer had typed in the company section, when the server sent the page back. */
    business?: BusinessTyped | undefined;
    /** The published price, formatted: the total to pay when no code is applied. */
    price: string;
    /** The price a reverse-charged company pays, excluding VAT (SiteFacts.businessPrice); absent under the franchise. */
    businessPrice?: string | undefined;
    /** The code of `?code=` (or of the partner of `?ref=`), as the server checked it. */
    code?: CodeState | undefined;
    /** The partner of `?ref=`, when the owner created it: a hidden field of the form. */
    partnerRef?: string | undefined;
    /**
     * Where the Apply button asks (shared/api.ts CODE_PREVIEW), given by the page: the constants the
     * form's script imports from api.ts are carried by every page's first script.
     */
    codePreviewPath: string;
  };
  /** The test checkout's card form. */
  "card-form": { view: TestCheckoutView };
  /** The lead popup; `usedForm`: the visitor just posted the free-demo form without JavaScript. */
  "exit-popup": { usedForm: boolean };
  /** The floating support button, its menu and (loaded when opened) the chat window. */
  support: { supportEmail: string };
  /** Recent real purchases: the answer of GET /api/social-proof, fetched in the browser before the island is loaded. */
  "social-proof": { feed?: unknown };
  /** Where every island's notifications appear (one region per page). */
  toasts: NoProps;
  /** A pending order's success page looks again (at `path`) until the payment is confirmed. */
  "pending-refresh": { path: string; reference: string };
  /** The licence key's copy button (the key itself is plain, selectable text). */
  "copy-key": { licenseKey: string };
  /** The 404 page logs the unknown path to the console (docs/product.md, "Pages and routes"). */
  "not-found-log": NoProps;
};
export type IslandName = keyof IslandProps;

/** The page's islands and the texts they use, as a JSON script element (`ISLAND_DATA_ID`). */
export type IslandData = {
  locale: Locale;
  values: MessageValues;
  /** Only the texts the page's islands use, compiled. */
  messages: CompiledMessages;
  /** Props of each island, by the index in its container's `data-island-props`. */
  islands: IslandProps[IslandName][];
};

export const ISLAND_DATA_ID = "island-data";
