import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Times are stored as integer milliseconds since the epoch (UTC).

export const emailLeads = sqliteTable(
  "email_leads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    source: text("source", { enum: ["exit_popup"] }).notNull(),
    ipHash: text("ip_hash"),
    locale: text("locale").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("email_leads_email_source_unique").on(t.email, t.source)],
);

export const ORDER_STATUSES = ["pending", "paid", "failed", "expired", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    checkoutId: text("checkout_id").notNull(),
    paymentIntentId: text("payment_intent_id"),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    locale: text("locale").notNull(),
    customerEmail: text("customer_email"),
    firstName: text("first_name"),
    city: text("city"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    refundedAt: integer("refunded_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("orders_checkout_id_unique").on(t.checkoutId),
    index("orders_payment_intent_idx").on(t.paymentIntentId),
    index("orders_status_paid_at_idx").on(t.status, t.paidAt),
  ],
);

/** Every provider event applied to orders, recorded in the same transaction as the change. */
export const processedEvents = sqliteTable(
  "processed_events",
  {
    eventId: text("event_id").primaryKey(),
    provider: text("provider", { enum: ["stripe", "test"] }).notNull(),
    type: text("type").notNull(),
    checkoutId: text("checkout_id"),
    // A refund can arrive before the checkout's completion (issue 4): the completion then finds it
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
  successUrl: text("success_url").notNull(),
  cancelUrl: text("cancel_url").notNull(),
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
  },
  (t) => [index("chat_messages_conversation_idx").on(t.conversationId, t.id)],
);
