// The site's endpoints other than its pages (pages are in shared/routes.ts): one typed table read
// by the client's scripts, the forms' actions, the server's controllers and its method and origin
// checks.

type Method = "GET" | "POST";

export type Endpoint = {
  path: string;
  /** The methods it takes: any other gets 405 with an Allow header listing these. */
  methods: readonly Method[];
  /**
   * "page": called by the site's own pages, so a browser's cross-site request is refused.
   * "anywhere": called by programs that prove themselves otherwise (Stripe signs its webhook, mail
   * providers post one-click unsubscribe under RFC 8058, the desktop app calls the licence API).
   */
  from: "page" | "anywhere";
};

/** Everything under it is the desktop app's licence API. */
export const LICENSE_API_PREFIX = "/api/licenses/";

// Each endpoint is a constant of its own, so that a browser script takes only those it calls (the
// bundler leaves the others out); ENDPOINTS gathers them for the server.
export const LEADS = { path: "/api/leads", methods: ["POST"], from: "page" } as const satisfies Endpoint;
export const PAYMENT = { path: "/api/payment", methods: ["POST"], from: "page" } as const satisfies Endpoint;
/**
 * What a discount code takes off the price, before paying (the payment page's Apply button): JSON for
 * its script; a plain form post is sent to the payment page with `?code=`, which shows the same.
 */
export const CODE_PREVIEW = { path: "/api/payment/code", methods: ["POST"], from: "page" } as const satisfies Endpoint;
export const CHAT = { path: "/api/chat", methods: ["POST"], from: "page" } as const satisfies Endpoint;
export const ACCESS_RESEND = { path: "/api/access/resend", methods: ["POST"], from: "page" } as const satisfies Endpoint;
/** The page's script reports page views and events here (sendBeacon: text/plain JSON). */
export const BEACON = { path: "/api/beacon", methods: ["POST"], from: "page" } as const satisfies Endpoint;
export const SOCIAL_PROOF = { path: "/api/social-proof", methods: ["GET"], from: "page" } as const satisfies Endpoint;
export const STRIPE_WEBHOOK = { path: "/api/stripe/webhook", methods: ["POST"], from: "anywhere" } as const satisfies Endpoint;
export const LICENSE_VERIFY = { path: `${LICENSE_API_PREFIX}verify`, methods: ["POST"], from: "anywhere" } as const satisfies Endpoint;
export const LICENSE_ACTIVATE = { path: `${LICENSE_API_PREFIX}activate`, methods: ["POST"], from: "anywhere" } as const satisfies Endpoint;
export const LICENSE_DEACTIVATE = {
  path: `${LICENSE_API_PREFIX}deactivate`,
  methods: ["POST"],
  from: "anywhere",
} as const satisfies Endpoint;
export const UNSUBSCRIBE = { path: "/unsubscribe", methods: ["GET", "POST"], from: "anywhere" } as const satisfies Endpoint;
/** The buyer frees one of their devices from the devices page (a form post, or JSON with JavaScript). */
export const DEVICES_FREE = { path: "/api/devices/free", methods: ["POST"], from: "page" } as const satisfies Endpoint;
/** The buyer confirms the 7-day guarantee's refund from the refund page (a plain form post). */
export const REFUND = { path: "/api/refund", methods: ["POST"], from: "page" } as const satisfies Endpoint;
/** The review page's form: write or edit the review of an order (a plain form post, or JSON). */
export const REVIEW_POST = { path: "/api/reviews", methods: ["POST"], from: "page" } as const satisfies Endpoint;
export const REVIEW_DELETE = { path: "/api/reviews/delete", methods: ["POST"], from: "page" } as const satisfies Endpoint;
/** The review e-mails' stop link: GET shows the button, POST stops (mail providers post it too, RFC 8058). */
export const REVIEW_STOP = { path: "/reviews/stop", methods: ["GET", "POST"], from: "anywhere" } as const satisfies Endpoint;
/** The public keys that verify licence tokens offline. */
export const JWKS = { path: "/.well-known/jwks.json", methods: ["GET"], from: "anywhere" } as const satisfies Endpoint;
/** The built-in test checkout's card page (its id in the path: testCheckoutPath). */
export const TEST_CHECKOUT = { path: "/checkout/test/:id", methods: ["GET", "POST"], from: "page" } as const satisfies Endpoint;

/**
 * An order's invoice or credit note as a PDF (`invoice.pdf`, `credit-note.pdf`), with its capability
 * in `?k=`: the link of the access e-mail and the success page, followed from a mail client.
 */
export const DOCUMENT_DOWNLOAD = { path: "/documents/:reference/:file", methods: ["GET"], from: "anywhere" } as const satisfies Endpoint;

export const ENDPOINTS = {
  leads: LEADS,
  payment: PAYMENT,
  codePreview: CODE_PREVIEW,
  chat: CHAT,
  accessResend: ACCESS_RESEND,
  socialProof: SOCIAL_PROOF,
  beacon: BEACON,
  stripeWebhook: STRIPE_WEBHOOK,
  licenseVerify: LICENSE_VERIFY,
  licenseActivate: LICENSE_ACTIVATE,
  licenseDeactivate: LICENSE_DEACTIVATE,
  unsubscribe: UNSUBSCRIBE,
  devicesFree: DEVICES_FREE,
  refund: REFUND,
  reviewPost: REVIEW_POST,
  reviewDelete: REVIEW_DELETE,
  reviewStop: REVIEW_STOP,
  jwks: JWKS,
  testCheckout: TEST_CHECKOUT,
  documentDownload: DOCUMENT_DOWNLOAD,
} as const satisfies Record<string, Endpoint>;

/** The endpoint at exactly this path, if any. */
export const endpointAt = (path: string): Endpoint | undefined => Object.values(ENDPOINTS).find((endpoint) => endpoint.path === path);

/** The test checkout's card page of one checkout. */
export const testCheckoutPath = (id: string) => TEST_CHECKOUT.path.replace(":id", id);
