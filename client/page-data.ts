import type { Messages } from "../shared/i18n";
import type { LegalFacts } from "../shared/legal";
import type { Locale } from "../shared/locales";
import type { PageId } from "../shared/routes";
import type { SiteFacts } from "../shared/site-facts";

/** URLs of the static assets, content-hashed where the file allows it. */
export type AssetUrls = {
  js: string;
  css: string;
  font: string | null;
  poster: string;
  video: string;
  preview640: string;
  preview1280: string;
  ogImage: string;
  favicon: string;
  appleTouchIcon: string;
};

/** What the success page knows about the order named by `session_id` (issue 4). */
export type SuccessOrder =
  | { state: "none" } // no session_id: the spec's text
  // Where the access e-mail of a paid order stands, so the page says only what is true.
  | { state: "paid"; email: string | null; delivery: "sent" | "sending" | "failed" | "none" }
  | { state: "pending" }
  | { state: "unknown" };

/** The built-in test checkout's card page (issue 4). Errors are locale keys (`checkout.invalidCard`...). */
export type TestCheckoutView = {
  page: "test-checkout";
  session: { id: string; amount: string; status: "open" | "complete" | "expired"; cancelUrl: string; successUrl: string; paymentPath: string };
  /** What the buyer typed, sent back with the page after a problem (never the card); `terms`: the box was ticked. */
  values: { email: string; name: string; city: string; terms: boolean };
  errors: Partial<Record<"email" | "name" | "city" | "card" | "expiry" | "cvc" | "terms" | "form", string>>;
};

/** The outcome of a plain form post to /api/access/resend, shown on the access page (`?status=`). */
export type AccessFlag = "sent" | "invalid" | "rate-limited" | "error";

/** Why a plain form post to /api/payment came back to the payment page (`?error=`); "consent": the box was not ticked. */
export type PaymentPageError = "provider" | "rate-limited" | "invalid" | "consent";

export type View =
  | { page: "landing"; lead?: "sent" | "invalid" | "rate-limited" | "error" }
  | { page: "payment"; error?: PaymentPageError }
  | { page: "success"; order: SuccessOrder }
  | { page: "canceled" }
  | { page: "guide" }
  | { page: "legal-notice"; legal: LegalFacts }
  | { page: "terms"; legal: LegalFacts }
  | { page: "privacy"; legal: LegalFacts }
  | { page: "access"; status?: AccessFlag }
  | { page: "unsubscribe"; state: "done" | "unknown" }
  | { page: "not-found" }
  /** `busy`: a write waited its whole bound for another program's database lock (503); nothing changed. */
  | { page: "error"; reason?: "busy" }
  | TestCheckoutView;

export type PageData = {
  view: View;
  locale: Locale;
  /** The path of this page in each language, for the switcher and hreflang; null when none. */
  alternates: Record<Locale, string> | null;
  /** The page's canonical path; null for pages that are not one of the site's (404, error, test checkout). */
  canonicalPath: string | null;
  baseUrl: string;
  messages: Messages;
  facts: SiteFacts;
  assets: AssetUrls;
};

