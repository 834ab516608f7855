import { and, eq, max } from "drizzle-orm";
import { type InvoiceKind, invoices, orders } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";
import { SELLER_TIME_ZONE } from "../../../shared/offer";
import type { VatScheme } from "../../../shared/vat-scheme";
import { vatFor } from "./vat";

/** How the sale is taxed: the scheme (VAT_SCHEME) and the seller's registrations outside the EU (VAT_REGISTRATIONS). */
export type VatSettings = { vatScheme: VatScheme; vatRegistrations: Readonly<Record<string, string>> };

/**
 * The series of an order's documents: the test checkout's never take a number from the legal
 * sequence, nor does free access claimed while the site runs its test checkout (its claim id says so).
 */
export const seriesOf = (provider: string, checkoutId = ""): string =>
  provider === "test" || (provider === "free" && checkoutId.startsWith(FREE_TEST_CLAIM_PREFIX)) ? TEST_SERIES : "";
/** The id of a free-access claim made while the site runs its test checkout (free-claims.ts). */
export const FREE_TEST_CLAIM_PREFIX = "cs_free_test_";
/**
 * seriesOf's SQL twin, for the figures that count money: the condition of a real sale, neither the
 * test checkout's order nor free access claimed while the site runs it. `table` prefixes the
 * columns (`"o."`, or `""` for a query of orders alone).
 */
export const realSaleSql = (table = ""): string =>
  `${table}provider <> 'test' AND substr(${table}checkout_id, 1, ${FREE_TEST_CLAIM_PREFIX.length}) <> '${FREE_TEST_CLAIM_PREFIX}'`;
export const TEST_SERIES = "TEST";

// Invoice and credit-note numbers: one unbroken sequence per kind and per year (French tax law
// wants invoices numbered "in a continuous chronological sequence"), taken inside the transaction
// that records the payment or the refund. That transaction holds the database's write lock from its
// start (db/writer.ts), so two payments can never read the same last number, and a transaction
// that fails takes its number with it: no gap, no number used twice.

export type Invoice = typeof invoices.$inferSelect;

/** Credit notes are "avoirs" in French accounting: their own sequence, `AV-2026-000001`. */
export const CREDIT_NOTE_PREFIX = "AV-";

export function formatDocumentNumber(kind: InvoiceKind, year: number, sequence: number, series = ""): string {
  const number = `${year}-${String(sequence).padStart(6, "0")}`;
  const numbered = kind === "invoice" ? number : `${CREDIT_NOTE_PREFIX}${number}`;
  return series === "" ? numbered : `${series}-${numbered}`;
}

/** The year of a date as the seller counts it (Paris time: a sale at 00:30 on 1 January is in the new year). */
export function sellerYear(at: Date): number {
  return Number(new Intl.DateTimeFormat("en", { year: "numeric", timeZone: SELLER_TIME_ZONE }).format(at));
}

function nextSequence(tx: DbWriter, series: string, kind: InvoiceKind, year: number): number {
  const row = tx
    .select({ last: max(invoices.sequence) })
    .from(invoices)
    .where(and(eq(invoices.series, series), eq(invoices.kind, kind), eq(invoices.year, year)))
    .get();
  return (row?.last ?? 0) + 1;
}

const existing = (tx: DbWriter, orderId: number, kind: InvoiceKind): Invoice | undefined =>
  tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind)))
    .get();

/** The invoice of a paid order, issued now with the VAT of its scheme; the one it has if issued already. */
export function issueInvoice(tx: DbWriter, orderId: number, vat: VatSettings, now: Date): Invoice {
  const found = existing(tx, orderId, "invoice");
  if (found !== undefined) return found;
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  if (order === undefined) throw new Error(`no order ${orderId} to invoice`);
  const issuedAt = order.paidAt ?? now;
  const year = sellerYear(issuedAt);
  const series = seriesOf(order.provider, order.checkoutId);
  const sequence = nextSequence(tx, series, "invoice", year);
  const line = vatFor(vat.vatScheme, order.amount, order, vat.vatRegistrations);
  const [row] = tx
    .insert(invoices)
    .values({
      orderId,
      kind: "invoice",
      number: formatDocumentNumber("invoice", year, sequence, series),
      series,
      year,
      sequence,
      issuedAt,
      vatScheme: line.scheme,
      vatRule: line.rule,
      sellerVatNumber: line.sellerVatNumber,
      listAmount: order.listAmount,
      discountCode: order.discountCode,
      discountAmount: order.discountAmount,
      vatCountry: line.country,
      vatRate: line.rate,
      netAmount: line.net,
      vatAmount: line.vat,
      totalAmount: line.total,
      currency: order.currency,
    })
    .returning()
    .all();
  if (row === undefined) throw new Error("invoice insert returned no row");
  return row;
}

/**
 * The credit note of a refunded order: the whole invoice cancelled, with the invoice's own VAT
 * (not today's rate). The invoice is issued first when the refund overtook the payment's event.
 */
export function issueCreditNote(tx: DbWriter, orderId: number, vat: VatSettings, now: Date): Invoice {
  const found = existing(tx, orderId, "credit-note");
  if (found !== undefined) return found;
  const invoice = issueInvoice(tx, orderId, vat, now);
  const order = tx.select({ refundedAt: orders.refundedAt }).from(orders).where(eq(orders.id, orderId)).get();
  const issuedAt = order?.refundedAt ?? now;
  const year = sellerYear(issuedAt);
  const sequence = nextSequence(tx, invoice.series, "credit-note", year);
  const [row] = tx
    .insert(invoices)
    .values({
      ...invoice,
      id: undefined,
      kind: "credit-note",
      number: formatDocumentNumber("credit-note", year, sequence, invoice.series),
      year,
      sequence,
      issuedAt,
      creditsInvoiceId: invoice.id,
    })
    .returning()
    .all();
  if (row === undefined) throw new Error("credit note insert returned no row");
  return row;
}
