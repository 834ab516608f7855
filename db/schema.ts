import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { generateOrderReference } from "../shared/order-reference";

// Times are stored as integer milliseconds since the epoch (UTC).

export const emailLeads = sqliteTable(
  "email_leads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    /** Where the address was first given (shared/schemas/leads.ts LEAD_SOURCES). */
    source: text("source", { enum: ["exit_popup", "landing_form"] }).notNull(),
    ipHash: text("ip_hash"),
    locale: text("locale").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** Secret of the lead's unsubscribe link (List-Unsubscribe); unguessable, so the link proves nothing else. */
    unsubscribeToken: text("unsubscribe_token"),
    /** Set once the address asked to hear no more: it is never mailed again. */
    unsubscribedAt: integer("unsubscribed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // One row per address, whatever form it came from: the repeat window and an unsubscribe apply to the address.
    uniqueIndex("email_leads_email_unique").on(t.email),
    uniqueIndex("email_leads_unsubscribe_token_unique").on(t.unsubscribeToken),
  ],
);

export const ORDER_STATUSES = ["pending", "paid", "failed", "expired", "refunded"] as const;
/**
 * Who took the payment: Stripe, the built-in test checkout, or nobody: "free" is an order at 0 made
 * by a 100 % discount code (press, partners), which never goes through a payment provider.
 */
export const ORDER_PROVIDERS = ["stripe", "test", "free"] as const;
export type OrderProvider = (typeof ORDER_PROVIDERS)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /**
     * What the buyer knows the order by (shared/order-reference.ts): random, never the row number,
     * made by every insert so no path can create an order without one.
     */
    reference: text("reference").notNull().$defaultFn(generateOrderReference),
    provider: text("provider", { enum: ORDER_PROVIDERS }).notNull(),
    checkoutId: text("checkout_id").notNull(),
    paymentIntentId: text("payment_intent_id"),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    locale: text("locale").notNull(),
    customerEmail: text("customer_email"),
    firstName: text("first_name"),
    city: text("city"),
    /** The buyer's whole name as given at checkout, for the invoice (the toast shows only `first_name`). */
    billingName: text("billing_name"),
    /**
     * The evidence of where the buyer lives, which sets the VAT under the OSS scheme: the billing
     * address's country and the paying card's country (ISO 3166-1 alpha-2), each when known.
     */
    billingCountry: text("billing_country"),
    cardCountry: text("card_country"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    refundedAt: integer("refunded_at", { mode: "timestamp_ms" }),
    /**
     * When the buyer ticked the payment page's box: the terms of sale accepted, immediate access
     * asked for and the withdrawal right's loss acknowledged (Directive 2011/83/EU art. 16(m)).
     * Null only for an order the site did not start itself (a checkout found by a webhook alone).
     */
    termsAcceptedAt: integer("terms_accepted_at", { mode: "timestamp_ms" }),
    /** The TERMS_VERSION (shared/legal.ts) the buyer accepted. */
    termsVersion: text("terms_version"),
    /** When the buyer asked for the guarantee's refund from the refund page and the owner approves refunds (REFUND_MODE=request). */
    refundRequestedAt: integer("refund_requested_at", { mode: "timestamp_ms" }),
    /**
     * Set while a refund is being asked of the payment provider, in its own transaction before the
     * call: a second refund (a double click, another process) sees it and never calls the provider
     * again. Cleared when the provider refuses.
     */
    refundStartedAt: integer("refund_started_at", { mode: "timestamp_ms" }),
    /** The published price before a discount code (null on orders made before codes existed: `amount`). */
    listAmount: integer("list_amount"),
    /** The discount code the buyer applied (upper case), and what it took off `listAmount`. */
    discountCode: text("discount_code"),
    discountAmount: integer("discount_amount").notNull().default(0),
    /** The partner whose link (`?ref=NAME`) brought the buyer, as named in `partners` (lower case). */
    partner: text("partner"),
    /**
     * The payment page's unchecked box: the buyer agreed to their first name's initial and city
     * showing in the recent-purchases notice. Without it the order never appears there.
     */
    inNotice: integer("in_notice", { mode: "boolean" }).notNull().default(false),
    /**
     * A company buyer, as given on the payment page ("Buying for a company?"; shared/business-buyer.ts):
     * its name, address, country and VAT number (normalized, prefixed; checked for format and check
     * digits, not in VIES). Null for a consumer's purchase. Printed on the invoice and the credit note.
     */
    company: text("company"),
    companyAddress: text("company_address"),
    companyCountry: text("company_country"),
    buyerVatNumber: text("buyer_vat_number"),
    /**
     * The evidence of the VAT rule decided when the checkout started (JSON, server/shop/paperwork/vat.ts
     * TaxEvidence): the rule, why, and what it rests on (country declared, VAT number and how it was
     * checked, IP country when known). The card's country, known once paid, is `card_country`.
     */
    taxEvidence: text("tax_evidence"),
  },
  (t) => [
    uniqueIndex("orders_checkout_id_unique").on(t.checkoutId),
    uniqueIndex("orders_reference_unique").on(t.reference),
    index("orders_payment_intent_idx").on(t.paymentIntentId),
    index("orders_status_paid_at_idx").on(t.status, t.paidAt),
    // The console's search by address (any case, by its beginning).
    index("orders_email_idx").on(sql`lower(${t.customerEmail})`),
    // The console's revenue per period, each read from an index alone (amount included).
    index("orders_revenue_idx").on(t.status, t.paidAt, t.amount),
    index("orders_refunds_idx").on(t.status, t.refundedAt, t.amount),
    // The console's list of refund requests waiting for the owner.
    index("orders_refund_requests_idx").on(t.refundRequestedAt),
    // A code's uses (its limit is checked in the transaction that reserves one).
    index("orders_discount_code_idx").on(t.discountCode, t.status),
    index("orders_partner_idx").on(t.partner, t.paidAt),
  ],
);

export const INVOICE_KINDS = ["invoice", "credit-note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/**
 * Invoices and credit notes (server/shop/paperwork/numbering.ts). An invoice is written in the
 * transaction that marks its order paid, a credit note in the one that marks it refunded; each
 * kind has its own unbroken sequence per year, never reused. The VAT is frozen here at the time
 * of the sale: a later change of rate or scheme never rewrites a document already issued.
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    kind: text("kind", { enum: INVOICE_KINDS }).notNull(),
    /** `2026-000001` for an invoice, `AV-2026-000001` for a credit note. */
    number: text("number").notNull(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    /** On a credit note: the invoice it cancels. */
    creditsInvoiceId: integer("credits_invoice_id"),
    vatScheme: text("vat_scheme", { enum: ["franchise", "fr", "oss"] }).notNull(),
    /** The country whose VAT applies (null under the franchise). */
    vatCountry: text("vat_country"),
    /** Basis points: 2000 is 20 %. */
    vatRate: integer("vat_rate").notNull(),
    netAmount: integer("net_amount").notNull(),
    vatAmount: integer("vat_amount").notNull(),
    totalAmount: integer("total_amount").notNull(),
    currency: text("currency").notNull(),
    /**
     * "" for the legal sequence; "TEST" for orders of the built-in test checkout, numbered in their
     * own series (`TEST-2026-000001`) so that a shop tried out on its production data keeps an
     * unbroken legal sequence.
     */
    series: text("series").notNull().default(""),
    /** Which VAT rule applied and why (server/shop/paperwork/vat.ts VAT_RULES); null on invoices issued before rules were recorded. */
    vatRule: text("vat_rule"),
    /** The seller's VAT number in `vat_country` when it is a registration outside the EU (VAT_REGISTRATIONS). */
    sellerVatNumber: text("seller_vat_number"),
    /** The list price before a discount, the code and what it took off, as the invoice prints them. */
    listAmount: integer("list_amount"),
    discountCode: text("discount_code"),
    discountAmount: integer("discount_amount").notNull().default(0),
  },
  (t) => [
    uniqueIndex("invoices_number_unique").on(t.number),
    uniqueIndex("invoices_series_sequence_unique").on(t.series, t.kind, t.year, t.sequence),
    uniqueIndex("invoices_order_kind_unique").on(t.orderId, t.kind),
  ],
);

/**
 * The owner's discount codes (server/shop/codes/): a percentage or an amount off the published
 * price, usable between two Paris days, at most `max_uses` times. Never deleted (orders name
 * them); disabling one stops new uses.
 */
export const discountCodes = sqliteTable(
  "discount_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Upper case letters, digits, dashes and underscores: what the buyer types, in any case. */
    code: text("code").notNull(),
    kind: text("kind", { enum: ["percent", "amount"] }).notNull(),
    /** 1 to 100 for a percentage; minor units (cents) for an amount. */
    value: integer("value").notNull(),
    /** The first instant it applies (00:00 Paris time of its first day), and the first instant it no longer does. */
    startsAt: integer("starts_at", { mode: "timestamp_ms" }),
    endsAt: integer("ends_at", { mode: "timestamp_ms" }),
    maxUses: integer("max_uses"),
    note: text("note"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("discount_codes_code_unique").on(t.code)],
);

/**
 * The owner's partners: a link `?ref=NAME` attributes a visit and its order to one; the commission
 * (a percentage of what was paid excluding VAT, less refunds) is counted here and paid outside.
 */
export const partners = sqliteTable(
  "partners",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Lower case letters, digits, dashes and underscores: what the link carries. */
    name: text("name").notNull(),
    /** Whole percent, 0 to 100; null: no commission. */
    commission: integer("commission"),
    /** A discount code given with the partner's link (applied when the buyer types none). */
    code: text("code"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("partners_name_unique").on(t.name)],
);

/**
 * Payment attempts that failed at the provider (a declined card, a failed delayed payment), with
 * the provider's reason, so the owner sees on the order's page why it is not paid.
 */
export const paymentAttempts = sqliteTable(
  "payment_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    checkoutId: text("checkout_id").notNull(),
    provider: text("provider", { enum: ORDER_PROVIDERS }).notNull(),
    outcome: text("outcome", { enum: ["declined", "failed"] }).notNull(),
    /** The provider's reason as it gives it ("card_declined: Your card was declined."). */
    reason: text("reason").notNull(),
    /** The address the buyer typed, when the provider tells it: the owner can offer help. */
    email: text("email"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("payment_attempts_checkout_idx").on(t.checkoutId), index("payment_attempts_at_idx").on(t.at)],
);

/** Every provider event applied to orders, recorded in the same transaction as the change. */
export const processedEvents = sqliteTable(
  "processed_events",
  {
    eventId: text("event_id").primaryKey(),
    provider: text("provider", { enum: ORDER_PROVIDERS }).notNull(),
    type: text("type").notNull(),
    checkoutId: text("checkout_id"),
    // A refund can arrive before the checkout's completion: the completion then finds it
    // here by payment intent and records the order as refunded, never as paid.
    paymentIntentId: text("payment_intent_id"),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("processed_events_payment_intent_idx").on(t.paymentIntentId, t.type)],
);

/** The built-in test checkout's own sessions: the state a hosted provider would keep on its side. */
export const testCheckoutSessions = sqliteTable("test_checkout_sessions", {
  id: text("id").primaryKey(),
  status: text("status", { enum: ["open", "complete", "expired"] }).notNull(),
  paymentStatus: text("payment_status", { enum: ["unpaid", "paid"] }).notNull(),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull(),
  locale: text("locale").notNull(),
  customerEmail: text("customer_email"),
  customerName: text("customer_name"),
  city: text("city"),
  /** The country chosen on the card page (ISO 3166-1 alpha-2), as a billing address would give it. */
  country: text("country"),
  successUrl: text("success_url").notNull(),
  cancelUrl: text("cancel_url").notNull(),
  /**
   * A claim of free access (a 100 % discount code): the site's own page asks for the address and
   * name, no card, in Stripe mode as well; its order's provider is "free".
   */
  free: integer("free", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    conversationId: text("conversation_id").notNull(),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    locale: text("locale").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** On an assistant reply: it gave the question to the support address instead of answering it. */
    handedOver: integer("handed_over", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("chat_messages_conversation_idx").on(t.conversationId, t.id)],
);

export const LICENSE_STATUSES = ["active", "disabled"] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/**
 * The licence key of a paid order, created in the same transaction as the paid transition, so there
 * is exactly one per paid order. Disabled by a refund or by the owner; never deleted.
 */
export const licenses = sqliteTable(
  "licenses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    /** Upper case, in dash-separated groups, as printed in the access e-mail. */
    key: text("key").notNull(),
    status: text("status", { enum: LICENSE_STATUSES }).notNull(),
    disabledReason: text("disabled_reason", { enum: ["refunded", "owner"] }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("licenses_order_unique").on(t.orderId), uniqueIndex("licenses_key_unique").on(t.key)],
);

export const MAIL_KINDS = [
  "access",
  "refund",
  "demo",
  "owner-sale",
  "owner-refund",
  "owner-refund-request",
  "owner-digest",
  "review-invite",
  "review-refused",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const MAIL_STATUSES = ["pending", "sending", "sent", "failed", "cancelled"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * The transactional outbox: every e-mail is a row written in the same transaction as the change it
 * reports, then delivered by the sender. `payload` holds what the template needs (JSON), so the
 * message does not depend on rows that change later; `message_id` is fixed at write time, so a
 * resend after a crash carries the same Message-ID and is recognisable as the same message.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: MAIL_KINDS }).notNull(),
    recipient: text("recipient").notNull(),
    locale: text("locale").notNull(),
    payload: text("payload").notNull(),
    messageId: text("message_id").notNull(),
    status: text("status", { enum: MAIL_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When the sender may next try: a retry's backoff, or for "sending" the end of the sender's lease. */
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    /** Process id of the sender holding a "sending" row, so a restart can take back a dead one's rows. */
    leaseOwner: integer("lease_owner"),
    /**
     * Which run of that process holds it (a random id, the boot, the process's start time): a pid
     * alone comes back after a restart in a container without init, or for another program.
     */
    leaseHolder: text("lease_holder"),
    lastError: text("last_error"),
    orderId: integer("order_id").references(() => orders.id),
    leadId: integer("lead_id").references(() => emailLeads.id),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_order_idx").on(t.orderId),
    index("mail_outbox_lead_idx").on(t.leadId),
    uniqueIndex("mail_outbox_message_id_unique").on(t.messageId),
  ],
);

/**
 * A device or installation of the app using a licence (the app calls /api/licenses/activate). The
 * activation limit counts the rows not deactivated; deactivated rows are kept as history.
 */
export const licenseActivations = sqliteTable(
  "license_activations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    licenseId: integer("license_id")
      .notNull()
      .references(() => licenses.id),
    /** Unguessable id handed to the app, which names the activation to deactivate it. */
    instanceId: text("instance_id").notNull(),
    instanceName: text("instance_name").notNull(),
    /** The app's own stable id of the device, when it sends one: the same device activates again into the same instance. */
    deviceId: text("device_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    deactivatedAt: integer("deactivated_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("license_activations_instance_unique").on(t.instanceId),
    index("license_activations_license_idx").on(t.licenseId, t.deactivatedAt),
    index("license_activations_device_idx").on(t.licenseId, t.deviceId),
  ],
);

/**
 * "Lost your access e-mail?" requests not yet handled: the form's answer only records the request
 * (the same work whatever the address), and the lookup and e-mails happen after the answer. A row
 * is deleted when handled, so an address that bought nothing is not kept.
 */
export const accessRequests = sqliteTable("access_requests", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Every "lost your access e-mail?" request that queued an e-mail, by address (lower case), so an
 * address gets at most a few copies a day however often the form is sent.
 */
export const accessResends = sqliteTable(
  "access_resends",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("access_resends_email_idx").on(t.email, t.createdAt)],
);

/**
 * Facts about the site itself, each written once and never changed: `first_started_at` (ms since
 * the epoch) is the default early-bird offer's starting point (server/site/offer.ts);
 * `digest_started_at` when the server first ran the owner's digest (server/owner/digest/).
 */
export const siteSettings = sqliteTable("site_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Place names the owner approved for the purchase toast, beside the list shipped with the site
 * (server/shop/social-proof/places.ts). `key` is the name without accents, case or punctuation.
 */
export const approvedPlaces = sqliteTable("approved_places", {
  key: text("key").primaryKey(),
  name: text("name").notNull(),
  approvedAt: integer("approved_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * The owner's passkeys (WebAuthn credentials): the only way into the console besides a recovery
 * code. The public key is COSE-encoded as the authenticator gave it; `counter` guards against a
 * cloned authenticator.
 */
export const ownerPasskeys = sqliteTable(
  "owner_passkeys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** base64url, as the browser names the credential. */
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull(),
    /** JSON array of the authenticator's transports ("internal", "hybrid"...), a hint for the browser. */
    transports: text("transports").notNull(),
    name: text("name").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("owner_passkeys_credential_unique").on(t.credentialId)],
);

/**
 * A signed-in console session. The cookie holds a random token; only its SHA-256 is stored, so a
 * copy of the database does not sign anyone in. `verifiedAt` is the last passkey check (refunds,
 * erasure and exports want one younger than five minutes).
 */
export const ownerSessions = sqliteTable(
  "owner_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    method: text("method", { enum: ["passkey", "recovery", "invite"] }).notNull(),
    /** A short description of the browser that signed in ("Chrome on Android"), to tell sessions apart. */
    label: text("label").notNull(),
    /**
     * The language the console spoke in when the session began (the browser's): the owner's e-mails
     * that no browser asks for (the digest) are written in the latest one. Null before it was recorded.
     */
    locale: text("locale"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    verifiedAt: integer("verified_at", { mode: "timestamp_ms" }),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("owner_sessions_token_unique").on(t.tokenHash)],
);

/** One-time links printed by `site owner invite`: stored hashed, usable once, before `expires_at`. */
export const ownerInvites = sqliteTable("owner_invites", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

/**
 * WebAuthn challenges handed out and not yet answered, shared by every server process. A challenge
 * is deleted when it is answered, so a replayed answer finds nothing.
 */
export const ownerChallenges = sqliteTable("owner_challenges", {
  challenge: text("challenge").primaryKey(),
  purpose: text("purpose", { enum: ["register", "sign-in", "confirm"] }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

/** Single-use recovery codes, shown once at the first passkey; only their SHA-256 is stored. */
export const ownerRecoveryCodes = sqliteTable(
  "owner_recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    codeHash: text("code_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("owner_recovery_codes_hash_unique").on(t.codeHash)],
);

/** The owner's actions as the console and the CLI name them in the activity log. */
export const OWNER_ACTIONS = [
  "sign-in",
  "sign-in-recovery",
  "sign-out",
  "session-ended",
  "passkey-added",
  "passkey-removed",
  "passkey-check",
  "invite-created",
  "refund",
  "resend",
  "license-disabled",
  "license-enabled",
  "device-freed",
  "devices-reset",
  "erasure",
  "export",
  "mail-retry",
  "digest-sent",
  "review-published",
  "review-refused",
  "review-reply",
  "proof-figures",
  "code-created",
  "code-disabled",
  "content-published",
  "content-restored",
  "content-imported",
  "catalogue-imported",
  "catalogue-changed",
  "media-uploaded",
] as const;
export type OwnerAction = (typeof OWNER_ACTIONS)[number];

/** What the owner did, when and from which session: written with the change, never deleted. */
export const ownerActivity = sqliteTable(
  "owner_activity",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    action: text("action", { enum: OWNER_ACTIONS }).notNull(),
    /** What it was done to ("order 12", a masked address...), for the owner to read. */
    detail: text("detail").notNull(),
    /** Null for the CLI. */
    sessionId: integer("session_id").references(() => ownerSessions.id),
  },
  (t) => [index("owner_activity_at_idx").on(t.at)],
);

/** What the page's script reports (shared/schemas/analytics.ts), plus the checkouts the server starts. */
export const ANALYTICS_KINDS = ["pageview", "demo_opened", "pay_clicked", "lead_sent", "chat_opened", "vital"] as const;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];

/**
 * One page view or event of a visitor (server/shop/analytics/). `visitor` is the day's keyed hash of
 * address and browser, unlinkable to another day's once that day's key is deleted; no address or
 * User-Agent is stored. Deleted after ANALYTICS_RETENTION_DAYS; analytics_daily keeps the totals.
 */
export const analyticsEvents = sqliteTable(
  "analytics_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The UTC day (YYYY-MM-DD) whose key made `visitor`. */
    day: text("day").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    visitor: text("visitor").notNull(),
    kind: text("kind", { enum: ANALYTICS_KINDS }).notNull(),
    /** The page (shared/routes.ts PageId) and its language. */
    page: text("page").notNull(),
    locale: text("locale").notNull(),
    /** utm_source, else the referring site's host, else "direct". */
    source: text("source").notNull(),
    campaign: text("campaign"),
    medium: text("medium"),
    device: text("device", { enum: ["mobile", "tablet", "desktop"] }).notNull(),
    /** A real-user speed measure (kind "vital"): LCP and INP in ms, CLS unitless. */
    metric: text("metric", { enum: ["LCP", "INP", "CLS"] }),
    value: real("value"),
  },
  (t) => [index("analytics_events_day_kind_idx").on(t.day, t.kind, t.at)],
);

/**
 * Per UTC day, the totals the console reads: for the whole site (dimension "all", key "") and per
 * source, campaign, language, device class, page and event. Visitors are distinct per day; a
 * visitor's source, campaign, language and device are those of its first page view of the day.
 * Kept after the events are deleted.
 */
export const analyticsDaily = sqliteTable(
  "analytics_daily",
  {
    day: text("day").notNull(),
    dimension: text("dimension", { enum: ["all", "source", "campaign", "locale", "device", "page", "event"] }).notNull(),
    key: text("key").notNull(),
    visitors: integer("visitors").notNull(),
    /** Page views (events for the "event" dimension). */
    hits: integer("hits").notNull(),
    /** Of those visitors, how many saw the payment page. */
    paymentVisitors: integer("payment_visitors").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.key] })],
);

/**
 * How many rows of analytics_events each UTC day has taken, counted as they are written, by every
 * server process alike: past ANALYTICS_MAX_EVENTS_PER_DAY a day takes no more, so a flood from many
 * addresses fills at most that many rows a day, which the retention deletes as fast as they come.
 */
export const analyticsDayCounts = sqliteTable("analytics_day_counts", {
  day: text("day").primaryKey(),
  stored: integer("stored").notNull(),
  /** Rows refused because the day was full. */
  refused: integer("refused").notNull().default(0),
});

/** Real-user speed per UTC day, page, device class and measure, as a histogram (server/shop/analytics/vitals.ts). */
export const analyticsVitalsDaily = sqliteTable(
  "analytics_vitals_daily",
  {
    day: text("day").notNull(),
    page: text("page").notNull(),
    device: text("device").notNull(),
    metric: text("metric").notNull(),
    bucket: integer("bucket").notNull(),
    samples: integer("samples").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.page, t.device, t.metric, t.bucket] })],
);

/**
 * The visit that started a checkout: its day's visitor hash when it started, and the source,
 * campaign and language of that visitor's first page view of the day, filled in by the roll-up.
 * The paid order is attributed to that source. The hash is cleared with the events.
 */
export const checkoutVisits = sqliteTable(
  "checkout_visits",
  {
    checkoutId: text("checkout_id").primaryKey(),
    day: text("day").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    visitor: text("visitor"),
    source: text("source"),
    campaign: text("campaign"),
    locale: text("locale").notNull(),
  },
  (t) => [index("checkout_visits_day_idx").on(t.day)],
);

/**
 * The owner's digest e-mails queued, one row per period (a Paris day `2026-11-24`, or an ISO week
 * `2026-W47`): the row is written in the transaction that queues the message, and the period is the
 * key, so a restart, a second process or the command line never queue a period's digest twice.
 */
export const ownerDigests = sqliteTable("owner_digests", {
  period: text("period").primaryKey(),
  frequency: text("frequency", { enum: ["daily", "weekly"] }).notNull(),
  /** The outbox row of the message (no foreign key: erasing the owner's address deletes the row). */
  mailId: integer("mail_id").notNull(),
  queuedAt: integer("queued_at", { mode: "timestamp_ms" }).notNull(),
  /** Whether the owner queued it by hand (`site digest send`) rather than the server at its hour. */
  byHand: integer("by_hand", { mode: "boolean" }).notNull(),
});

/**
 * The owner's published content (docs/content.md): every publish is a new version, kept, so any
 * earlier one can be restored (a restore is itself a new version with `restoredFrom`). Version 0,
 * the built-in defaults (the locales' texts, the specification's FAQ and comparison), is not
 * stored. `document` is the whole content as JSON (shared/content.ts); `changes` the paths of what
 * differs from the version before, as JSON.
 */
export const contentVersions = sqliteTable("content_versions", {
  version: integer("version").primaryKey(),
  document: text("document").notNull(),
  publishedAt: integer("published_at", { mode: "timestamp_ms" }).notNull(),
  /** Who published: the console's passkey name, "command line" or "environment". */
  publishedBy: text("published_by").notNull(),
  changes: text("changes").notNull(),
  restoredFrom: integer("restored_from"),
});

/**
 * The one draft the console edits (row 1): the version it was opened from and a revision counted
 * up by every save, so that a save or publish from a page opened before another owner's change is
 * told so instead of overwriting it.
 */
export const contentDraft = sqliteTable("content_draft", {
  id: integer("id").primaryKey(),
  document: text("document").notNull(),
  baseVersion: integer("base_version").notNull(),
  revision: integer("revision").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  updatedBy: text("updated_by").notNull(),
});

/**
 * Every price the site has charged, from when (`since`): a reduction may only be shown against the
 * lowest of the 30 days before it began (Directive 98/6/EC art. 6a), read from here, never typed.
 */
export const priceHistory = sqliteTable(
  "price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    priceMinor: integer("price_minor").notNull(),
    currency: text("currency").notNull(),
    since: integer("since", { mode: "timestamp_ms" }).notNull(),
    /** The content version that set it (0: the defaults, at the first start). */
    version: integer("version").notNull(),
  },
  (t) => [index("price_history_since").on(t.since)],
);

/**
 * The owner's pictures and videos (docs/decisions/019-catalogue-and-media.md): one row per upload,
 * named by the hash of what was uploaded, so the same file uploaded twice is one medium. The bytes
 * live in `media_files`, in this database, so the backups replicate them and `site restore` brings
 * them back with everything else.
 */
export const media = sqliteTable("media", {
  id: text("id").primaryKey(),
  /** shared/catalogue.ts MEDIA_KINDS: poster, preview, og, video, video-poster. */
  kind: text("kind").notNull(),
  /** The name the file had when uploaded (a poster is found by it in the catalogue's CSV). */
  name: text("name").notNull(),
  width: integer("width"),
  height: integer("height"),
  /** A video's length in whole seconds, read from the file. */
  seconds: integer("seconds"),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/** The files made from one medium, once, at upload: each size and format the pages use. */
export const mediaFiles = sqliteTable(
  "media_files",
  {
    /** The public name under /media/: `<media id>-<width>.<ext>`, immutable. */
    name: text("name").primaryKey(),
    mediaId: text("media_id").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width"),
    size: integer("size").notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
  },
  (t) => [index("media_files_media").on(t.mediaId)],
);

/** One imported catalogue, kept whole: a content version names the one it publishes, so a restore brings an older one back. */
export const catalogueSets = sqliteTable("catalogue_sets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  titles: integer("titles").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  createdBy: text("created_by").notNull(),
});

export const catalogueTitles = sqliteTable(
  "catalogue_titles",
  {
    setId: integer("set_id").notNull(),
    /** The row's place in the imported file, from 0. */
    position: integer("position").notNull(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    year: integer("year"),
    category: text("category").notNull(),
    /** The poster's medium (media.id); null when the row names none. */
    posterId: text("poster_id"),
    featured: integer("featured", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.position] })],
);

export const REVIEW_STATUSES = ["pending", "published", "refused"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * A buyer's review of their order (one per order), written from the order's review link. The owner
 * publishes or refuses it (with a reason) and may answer it, never edit it. A review edited by its
 * author waits for the owner again.
 */
export const reviews = sqliteTable(
  "reviews",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    /** The language it was written in (the page's), named on the pages of the other languages. */
    locale: text("locale").notNull(),
    rating: integer("rating").notNull(),
    text: text("text").notNull(),
    /** The name shown, made from the order's name when posted: "Marie D." or "M. D.". */
    displayName: text("display_name").notNull(),
    nameStyle: text("name_style", { enum: ["first-initial", "initials"] }).notNull(),
    city: text("city"),
    status: text("status", { enum: REVIEW_STATUSES }).notNull(),
    refusalReason: text("refusal_reason"),
    reply: text("reply"),
    repliedAt: integer("replied_at", { mode: "timestamp_ms" }),
    /** When the buyer agreed to its publication (the page's box). */
    consentAt: integer("consent_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    /** The date shown: when the owner published this text (a new edit is a new date). */
    publishedAt: integer("published_at", { mode: "timestamp_ms" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("reviews_order_unique").on(t.orderId), index("reviews_status_published_idx").on(t.status, t.publishedAt)],
);

/**
 * The review invitation of an order, written with its outbox row in one transaction: a row here
 * is an invitation queued, so it is never queued twice. `stopped_at`: the buyer followed the
 * e-mail's stop link; no review e-mail goes to that address again (any of its orders).
 */
export const reviewInvites = sqliteTable("review_invites", {
  orderId: integer("order_id")
    .primaryKey()
    .references(() => orders.id),
  mailId: integer("mail_id"),
  invitedAt: integer("invited_at", { mode: "timestamp_ms" }),
  stoppedAt: integer("stopped_at", { mode: "timestamp_ms" }),
});
