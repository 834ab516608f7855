import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { paymentAttempts, testCheckoutSessions } from "../../../db/schema";
import type { DbTransaction, Write } from "../../../db/writer";
import { testCheckoutPath } from "../../../shared/api";
import { isLocale } from "../../../shared/locales";
import { TEST_CARDS, type TestCard } from "../../../shared/schemas/payment";
import type { DeliverySettings } from "./delivery";
import { applyInTransaction } from "./fulfilment";
import { type CheckoutProvider, type CheckoutSnapshot, type OrderEvent, WebhookSignatureError } from "./provider";

// The built-in test checkout (docs/checkout.md): without Stripe keys, the site plays the hosted card
// page and keeps the session state a provider would keep, in test_checkout_sessions. Paying applies
// the same `checkout.session.completed` event a Stripe webhook would, through the same fulfilment.

/** Like Stripe's minimum, long enough for a visitor who steps away; short enough to clean up. */
export const TEST_SESSION_TTL_MS = 60 * 60 * 1000;

export type TestSession = typeof testCheckoutSessions.$inferSelect;

export type PayOutcome =
  | { kind: "paid"; successUrl: string }
  | { kind: "already-paid"; successUrl: string }
  | { kind: "declined" }
  | { kind: "expired" }
  | { kind: "not-found" };

export type TestCheckout = CheckoutProvider & {
  name: "test";
  /** The session as the card page shows it (an open session past its time is expired first). */
  session(id: string): Promise<TestSession | null>;
  pay(id: string, card: TestCard): Promise<PayOutcome>;
};

export function createTestProvider(db: Db, write: Write, now: () => Date, delivery: DeliverySettings): TestCheckout {
  const isDue = (row: TestSession) => row.status === "open" && row.expiresAt.getTime() <= now().getTime();
  const select = (reader: Pick<Db, "select">, id: string) =>
    reader.select().from(testCheckoutSessions).where(eq(testCheckoutSessions.id, id)).get();

  const expireIfDue = (tx: DbTransaction, id: string): void => {
    const row = select(tx, id);
    if (row === undefined || !isDue(row)) return;
    tx.update(testCheckoutSessions).set({ status: "expired" }).where(eq(testCheckoutSessions.id, id)).run();
    applyInTransaction(tx, eventFor({ ...row, status: "expired" }, "checkout.session.expired", delivery.siteOrigin), now(), delivery);
  };

  const read = async (id: string): Promise<TestSession | null> => {
    const row = select(db, id);
    // Showing a session writes nothing, unless it is past its time and must become expired.
    if (row === undefined || !isDue(row)) return row ?? null;
    await write((tx) => expireIfDue(tx, id));
    return select(db, id) ?? null;
  };

  return {
    name: "test",

    async createCheckout(request) {
      const id = `cs_test_${randomBytes(18).toString("base64url").replace(/[-_]/g, "0")}`;
      const created = now();
      await write((tx) =>
        tx
          .insert(testCheckoutSessions)
          .values({
            id,
            status: "open",
            paymentStatus: "unpaid",
            amount: request.amount,
            currency: request.currency.toUpperCase(),
            locale: request.locale,
            successUrl: `${request.successPath}?session_id=${id}`,
            cancelUrl: request.cancelPath,
            createdAt: created,
            expiresAt: new Date(created.getTime() + TEST_SESSION_TTL_MS),
          })
          .run(),
      );
      return { id, url: testCheckoutPath(id) };
    },

    async lookupCheckout(id) {
      const row = await read(id);
      return row === null ? null : snapshotOf(row, delivery.siteOrigin);
    },

    async readWebhook() {
      // Nothing outside this process can speak for the test checkout: paying fulfils directly.
      throw new WebhookSignatureError("The test checkout has no webhook");
    },

    session: read,

    pay(id, card) {
      // One transaction: the session expires, or is paid and its order fulfilled, or nothing changes.
      return write((tx): PayOutcome => {
        expireIfDue(tx, id);
        const row = select(tx, id);
        if (row === undefined) return { kind: "not-found" };
        // A second submit of the form (double click, back button, retry) finds the session
        // complete: it goes to the success page without running fulfilment again.
        if (row.status === "complete") return { kind: "already-paid", successUrl: row.successUrl };
        if (row.status === "expired") return { kind: "expired" };
        // Like Stripe's test mode: only the documented test numbers are accepted. The refusal is kept
        // with Stripe's own wording, so the owner sees on the order's page why it is not paid.
        if (card.card !== TEST_CARDS.pays) {
          tx.insert(paymentAttempts)
            .values({
              checkoutId: id,
              provider: "test",
              outcome: "declined",
              reason:
                card.card === TEST_CARDS.declined
                  ? "card_declined: Your card was declined."
                  : "card_declined: Your card number is not a test card.",
              email: card.email === "" ? null : card.email,
              at: now(),
            })
            .run();
          return { kind: "declined" };
        }
        const paid: TestSession = {
          ...row,
          status: "complete",
          paymentStatus: "paid",
          customerEmail: card.email,
          customerName: card.name,
          city: card.city,
          country: card.country ?? null,
        };
        tx.update(testCheckoutSessions)
          .set({
            status: paid.status,
            paymentStatus: paid.paymentStatus,
            customerEmail: paid.customerEmail,
            customerName: paid.customerName,
            city: paid.city,
            country: paid.country,
          })
          .where(eq(testCheckoutSessions.id, id))
          .run();
        applyInTransaction(tx, eventFor(paid, "checkout.session.completed", delivery.siteOrigin), now(), delivery);
        return { kind: "paid", successUrl: row.successUrl };
      });
    },
  };
}

function eventFor(row: TestSession, type: "checkout.session.completed" | "checkout.session.expired", site: string): OrderEvent {
  // One event id per session and type: the unique key makes a repeat a no-op, as with Stripe.
  return { eventId: `evt_${row.id}_${type.split(".").at(-1)}`, provider: "test", type, checkout: snapshotOf(row, site) };
}

/** `site`: this site's origin, as Stripe's checkouts carry it: every test session is this site's own. */
function snapshotOf(row: TestSession, site: string): CheckoutSnapshot {
  return {
    id: row.id,
    status: row.status,
    paymentStatus: row.paymentStatus,
    amount: row.amount,
    currency: row.currency,
    locale: isLocale(row.locale) ? row.locale : null,
    site,
    email: row.customerEmail,
    name: row.customerName,
    city: row.city,
    country: row.country,
    // The test card has no issuing country: only the chosen country is evidence.
    cardCountry: null,
    // Like Stripe, a paid checkout has a payment, which a refund names (the owner's CLI refunds test orders).
    paymentIntentId: row.paymentStatus === "paid" ? testPaymentIdOf(row.id) : null,
  };
}

/** The payment of a paid test checkout, as Stripe's payment_intent of a session. */
export const testPaymentIdOf = (checkoutId: string) => `pi_${checkoutId}`;
