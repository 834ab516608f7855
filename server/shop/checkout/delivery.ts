import { eq } from "drizzle-orm";
import { licenses, orders } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../../../shared/locales";
import { latestOwnerLocale } from "../../owner/console/sessions";
import type { Config } from "../../platform/config";
import { generateLicenseKey } from "../licenses/key";
import { enqueueMail } from "../mail/outbox";
import { issueCreditNote, issueInvoice, type VatSettings } from "../paperwork/numbering";

// What a paid or refunded order sets off, written inside the transaction that records the change
// (fulfilment.ts): the licence key and every e-mail exist exactly when the order's new status does.

export type DeliverySettings = VatSettings & {
  domain: string;
  ownerEmail: string | undefined;
  /** PUBLIC_BASE_URL's origin: how the provider's checkouts this site created are marked (fulfilment.ts). */
  siteOrigin: string;
};

export const deliverySettings = (config: Pick<Config, "mail" | "vatScheme" | "vatRegistrations" | "publicBaseUrl">): DeliverySettings => ({
  domain: config.mail.domain,
  ownerEmail: config.mail.ownerEmail,
  vatScheme: config.vatScheme,
  vatRegistrations: config.vatRegistrations,
  siteOrigin: new URL(config.publicBaseUrl).origin,
});

type Order = typeof orders.$inferSelect;

/** The order just became paid: its invoice number, its licence key, the buyer's access e-mail, the owner's notice. */
export function deliverPaidOrder(tx: DbWriter, orderId: number, settings: DeliverySettings, now: Date): void {
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  if (order === undefined) return;
  // Numbered here, in the payment's own transaction; the PDF is made when the e-mail is sent.
  issueInvoice(tx, order.id, settings, now);
  const key = createLicense(tx, order.id, "active", now);
  if (order.customerEmail !== null) queueAccessMail(tx, order, order.customerEmail, key, settings, now);
  notifyOwner(tx, order, "owner-sale", key, settings, now);
}

/** The order was refunded: its licence is disabled, the buyer and the owner are told. */
export function deliverRefund(tx: DbWriter, orderId: number, settings: DeliverySettings, now: Date): void {
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  if (order === undefined) return;
  // A refund that overtook the payment's own event: the order was paid, so it gets its (disabled) key.
  const existing = tx.select().from(licenses).where(eq(licenses.orderId, order.id)).get();
  const key = existing?.key ?? createLicense(tx, order.id, "disabled", now);
  tx.update(licenses).set({ status: "disabled", disabledReason: "refunded", updatedAt: now }).where(eq(licenses.orderId, order.id)).run();
  issueCreditNote(tx, order.id, settings, now);
  if (order.customerEmail !== null) {
    enqueueMail(
      tx,
      settings.domain,
      {
        kind: "refund",
        recipient: order.customerEmail,
        locale: localeOf(order),
        orderId: order.id,
        payload: {
          orderId: order.id,
          reference: order.reference,
          licenseKey: key,
          refundedAt: (order.refundedAt ?? now).getTime(),
          amountMinor: order.amount,
          currency: order.currency,
        },
      },
      now,
    );
  }
  notifyOwner(tx, order, "owner-refund", key, settings, now);
}

/** Queues the access e-mail of a paid order once more (the owner's CLI; a buyer who lost it). */
export function queueAccessMailAgain(
  tx: DbWriter,
  orderId: number,
  settings: DeliverySettings,
  now: Date,
): "queued" | "not-found" | "not-paid" | "no-email" {
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  if (order === undefined) return "not-found";
  if (order.status !== "paid") return "not-paid";
  if (order.customerEmail === null) return "no-email";
  const license = tx.select().from(licenses).where(eq(licenses.orderId, order.id)).get();
  const key = license?.key ?? createLicense(tx, order.id, "active", now);
  queueAccessMail(tx, order, order.customerEmail, key, settings, now);
  return "queued";
}

function queueAccessMail(tx: DbWriter, order: Order, recipient: string, key: string, settings: DeliverySettings, now: Date): void {
  enqueueMail(
    tx,
    settings.domain,
    {
      kind: "access",
      recipient,
      locale: localeOf(order),
      orderId: order.id,
      payload: {
        orderId: order.id,
        reference: order.reference,
        licenseKey: key,
        paidAt: (order.paidAt ?? now).getTime(),
        amountMinor: order.amount,
        currency: order.currency,
        email: recipient,
        termsAcceptedAt: order.termsAcceptedAt?.getTime() ?? null,
        termsVersion: order.termsVersion,
        ...(order.discountCode === null
          ? {}
          : {
              listAmountMinor: order.listAmount ?? order.amount + order.discountAmount,
              discountCode: order.discountCode,
              discountMinor: order.discountAmount,
            }),
      },
    },
    now,
  );
}

function createLicense(tx: DbWriter, orderId: number, status: "active" | "disabled", now: Date): string {
  // 124 random bits: a collision is not a practical concern, but the unique index would turn one
  // into a failed transaction (and a retried webhook) rather than two orders sharing a key.
  const key = generateLicenseKey();
  tx.insert(licenses)
    .values({ orderId, key, status, disabledReason: status === "disabled" ? "refunded" : null, createdAt: now, updatedAt: now })
    .run();
  return key;
}

/** Tells the owner of a sale, a refund, or a buyer's refund request waiting for approval. */
export function notifyOwner(
  tx: DbWriter,
  order: Order,
  kind: "owner-sale" | "owner-refund" | "owner-refund-request",
  licenseKey: string | null,
  settings: DeliverySettings,
  now: Date,
): void {
  if (settings.ownerEmail === undefined) return;
  enqueueMail(
    tx,
    settings.domain,
    {
      kind,
      recipient: settings.ownerEmail,
      // The owner's language, the one the console spoke at their latest sign-in (as the digest is).
      locale: latestOwnerLocale(tx),
      orderId: order.id,
      payload: {
        orderId: order.id,
        reference: order.reference,
        amountMinor: order.amount,
        currency: order.currency,
        locale: localeOf(order),
        city: order.city,
        licenseKey,
        customerEmail: order.customerEmail,
        provider: order.provider,
        at: now.getTime(),
        code: order.discountCode,
      },
    },
    now,
  );
}

const localeOf = (order: Order): Locale => (isLocale(order.locale) ? order.locale : DEFAULT_LOCALE);
