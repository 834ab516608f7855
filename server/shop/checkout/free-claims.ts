import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { testCheckoutSessions } from "../../../db/schema";
import type { DbTransaction, DbWriter, Write } from "../../../db/writer";
import { testCheckoutPath } from "../../../shared/api";
import { isLocale, type Locale } from "../../../shared/locales";
import type { ClaimDetails } from "../../../shared/schemas/payment";
import { FREE_TEST_CLAIM_PREFIX } from "../paperwork/numbering";
import type { DeliverySettings } from "./delivery";
import { applyInTransaction } from "./fulfilment";
import type { CheckoutSnapshot, OrderEvent } from "./provider";
import { TEST_SESSION_TTL_MS, type TestSession } from "./test-provider";

// Free access claimed with a 100 % discount code: no payment provider sees it (there is nothing to
// pay, and Stripe cannot take a payment of 0). The site keeps the claim as it keeps a test
// checkout (test_checkout_sessions, `free`), serves its page at the card page's address with the
// card fields left out, and completes it through the same fulfilment as a payment: an order at 0
// whose provider is "free", a licence, the access e-mail and an invoice at 0.

/** A claim id: `cs_free_…` in Stripe mode, `cs_free_test_…` with the test checkout (its invoice is in the TEST series). */
export const FREE_CLAIM_ID = /^cs_free_(?:test_)?[A-Za-z0-9]{1,64}$/;

export type ClaimOutcome =
  | { kind: "claimed"; successUrl: string }
  | { kind: "already-claimed"; successUrl: string }
  | { kind: "expired" }
  | { kind: "not-found" };

export type FreeClaims = {
  /** Opens a claim inside the transaction that reserves the code's use and records the order. */
  open(tx: DbWriter, request: { locale: Locale; currency: string; successPath: string; cancelPath: string; testMode: boolean }): string;
  /** The claim as its page shows it (an open claim past its hour is expired first); null when unknown. */
  session(id: string): Promise<TestSession | null>;
  claim(id: string, details: ClaimDetails): Promise<ClaimOutcome>;
};

export function createFreeClaims(db: Db, write: Write, now: () => Date, delivery: DeliverySettings): FreeClaims {
  const select = (reader: Pick<Db, "select">, id: string) => {
    const row = reader.select().from(testCheckoutSessions).where(eq(testCheckoutSessions.id, id)).get();
    return row?.free === true ? row : undefined;
  };
  const isDue = (row: TestSession) => row.status === "open" && row.expiresAt.getTime() <= now().getTime();
  const expireIfDue = (tx: DbTransaction, id: string): void => {
    const row = select(tx, id);
    if (row === undefined || !isDue(row)) return;
    tx.update(testCheckoutSessions).set({ status: "expired" }).where(eq(testCheckoutSessions.id, id)).run();
    // The order becomes expired, which gives the code's use back.
    applyInTransaction(tx, eventFor({ ...row, status: "expired" }, "checkout.session.expired", delivery.siteOrigin), now(), delivery);
  };

  return {
    open(tx, request) {
      const id = `${request.testMode ? FREE_TEST_CLAIM_PREFIX : "cs_free_"}${randomBytes(18).toString("base64url").replace(/[-_]/g, "0")}`;
      const created = now();
      tx.insert(testCheckoutSessions)
        .values({
          id,
          status: "open",
          paymentStatus: "unpaid",
          amount: 0,
          currency: request.currency.toUpperCase(),
          locale: request.locale,
          successUrl: `${request.successPath}?session_id=${id}`,
          cancelUrl: request.cancelPath,
          free: true,
          createdAt: created,
          // As long as the code's use is held for it (CODE_HOLD_MS): a claim never outlives its use.
          expiresAt: new Date(created.getTime() + TEST_SESSION_TTL_MS),
        })
        .run();
      return id;
    },

    async session(id) {
      if (!FREE_CLAIM_ID.test(id)) return null;
      const row = select(db, id);
      if (row === undefined || !isDue(row)) return row ?? null;
      await write((tx) => expireIfDue(tx, id));
      return select(db, id) ?? null;
    },

    claim(id, details) {
      return write((tx): ClaimOutcome => {
        expireIfDue(tx, id);
        const row = select(tx, id);
        if (row === undefined) return { kind: "not-found" };
        if (row.status === "complete") return { kind: "already-claimed", successUrl: row.successUrl };
        if (row.status === "expired") return { kind: "expired" };
        const done: TestSession = {
          ...row,
          status: "complete",
          paymentStatus: "paid",
          customerEmail: details.email,
          customerName: details.name,
          city: details.city,
          country: details.country ?? null,
        };
        tx.update(testCheckoutSessions)
          .set({
            status: done.status,
            paymentStatus: done.paymentStatus,
            customerEmail: done.customerEmail,
            customerName: done.customerName,
            city: done.city,
            country: done.country,
          })
          .where(eq(testCheckoutSessions.id, id))
          .run();
        applyInTransaction(tx, eventFor(done, "checkout.session.completed", delivery.siteOrigin), now(), delivery);
        return { kind: "claimed", successUrl: row.successUrl };
      });
    },
  };
}

function eventFor(row: TestSession, type: "checkout.session.completed" | "checkout.session.expired", site: string): OrderEvent {
  return { eventId: `evt_${row.id}_${type.split(".").at(-1)}`, provider: "free", type, checkout: snapshotOf(row, site) };
}

function snapshotOf(row: TestSession, site: string): CheckoutSnapshot {
  return {
    id: row.id,
    status: row.status,
    // Nothing to pay: settled at 0 once claimed (isSettled), as Stripe says of a checkout of 0.
    paymentStatus: row.status === "complete" ? "no_payment_required" : "unpaid",
    amount: 0,
    currency: row.currency,
    locale: isLocale(row.locale) ? row.locale : null,
    site,
    email: row.customerEmail,
    name: row.customerName,
    city: row.city,
    country: row.country,
    cardCountry: null,
    paymentIntentId: null,
  };
}

/** The claim's page address, the card page's. */
export const freeClaimPath = testCheckoutPath;
