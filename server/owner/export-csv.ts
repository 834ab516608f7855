import type { Db } from "../../db/client";

/**
 * An amount kept in cents, written as an accountant's spreadsheet reads it (`24.99`, a dot before
 * the cents as in the VAT export); empty where there is none (an order not paid has no invoice).
 */
const units = (column: string, name: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL ELSE printf('%.2f', ${column} / 100.0) END AS ${name}`;

/** Owner exports (`site leads export > leads.csv`): one table as RFC 4180 CSV, oldest first. */
export const EXPORTS = {
  leads:
    "SELECT id, email, source, locale, ip_hash, datetime(created_at / 1000, 'unixepoch') AS created_at, datetime(unsubscribed_at / 1000, 'unixepoch') AS unsubscribed_at FROM email_leads ORDER BY id",
  orders:
    `SELECT o.id, o.reference, o.provider, o.checkout_id, o.status, ${units("o.amount", "amount")}, o.currency, o.locale, o.customer_email, o.first_name, o.city, datetime(o.created_at / 1000, 'unixepoch') AS created_at, datetime(o.paid_at / 1000, 'unixepoch') AS paid_at, datetime(o.refunded_at / 1000, 'unixepoch') AS refunded_at, datetime(o.refund_requested_at / 1000, 'unixepoch') AS refund_requested_at, datetime(o.terms_accepted_at / 1000, 'unixepoch') AS terms_accepted_at, o.terms_version, l.key AS license_key, l.status AS license_status, ` +
    // What an accountant matches the orders against: the documents' numbers, the buyer's country
    // (billing address, else card), and the VAT frozen on the invoice; the discount code and what it took off.
    `i.number AS invoice_number, c.number AS credit_note_number, coalesce(o.company_country, o.billing_country, o.card_country) AS country, i.vat_scheme, i.vat_rule, i.vat_country, ${units("i.vat_rate", "vat_rate_percent")}, ${units("i.net_amount", "net_amount")}, ${units("i.vat_amount", "vat_amount")}, ${units("coalesce(o.list_amount, o.amount)", "list_amount")}, o.discount_code, ${units("o.discount_amount", "discount_amount")}, o.partner, ` +
    // A company buyer and the evidence of its VAT rule: the country it declared, its VAT number, the
    // billing and card countries, and why the rule applied (tax_evidence, written at checkout).
    "o.company, o.company_address, o.company_country, o.buyer_vat_number, o.billing_country, o.card_country, json_extract(o.tax_evidence, '$.rule') AS evidence_rule, json_extract(o.tax_evidence, '$.why') AS evidence_why, json_extract(o.tax_evidence, '$.vatNumberChecked') AS vat_number_checked " +
    "FROM orders o LEFT JOIN licenses l ON l.order_id = o.id LEFT JOIN invoices i ON i.order_id = o.id AND i.kind = 'invoice' LEFT JOIN invoices c ON c.order_id = o.id AND c.kind = 'credit-note' ORDER BY o.id",
  licenses:
    "SELECT l.key, l.status, l.disabled_reason, l.order_id, o.reference AS order_reference, o.customer_email, o.status AS order_status, (SELECT count(*) FROM license_activations a WHERE a.license_id = l.id AND a.deactivated_at IS NULL) AS activations, datetime(l.created_at / 1000, 'unixepoch') AS created_at FROM licenses l JOIN orders o ON o.id = l.order_id ORDER BY l.id",
  chats:
    // handed_over: "yes" on the assistant's replies that gave the question to the support address.
    "SELECT conversation_id, id, role, locale, datetime(created_at / 1000, 'unixepoch') AS created_at, CASE WHEN handed_over THEN 'yes' ELSE '' END AS handed_over, content FROM chat_messages ORDER BY conversation_id, id",
  // What the OSS (or French) VAT return needs: invoices and credit notes per quarter, country and
  // rate, with the VAT frozen on each document; a credit note counts in the quarter of the refund.
  // Quarters start on 1 April, 1 July and 1 October, Paris summer time (UTC+2), and on 1 January,
  // taken from the document's own year (Paris time); test-checkout sales are left out.
  vat: `WITH d AS (
      SELECT i.*, CASE WHEN CAST(strftime('%Y', i.issued_at / 1000 + 7200, 'unixepoch') AS INTEGER) > i.year THEN 4
        ELSE (CAST(strftime('%m', i.issued_at / 1000 + 7200, 'unixepoch') AS INTEGER) - 1) / 3 + 1 END AS q,
        CASE i.kind WHEN 'invoice' THEN 1 ELSE -1 END AS sign
      FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.provider != 'test' AND i.series = '')
    SELECT year || '-Q' || q AS quarter, vat_scheme, coalesce(vat_country, '') AS country, printf('%.2f', vat_rate / 100.0) AS vat_rate_percent,
      sum(sign = 1) AS invoices, sum(sign = -1) AS credit_notes, printf('%.2f', sum(sign * net_amount) / 100.0) AS net,
      printf('%.2f', sum(sign * vat_amount) / 100.0) AS vat, printf('%.2f', sum(sign * total_amount) / 100.0) AS total, currency
    FROM d GROUP BY year, q, vat_scheme, vat_country, vat_rate, currency ORDER BY year, q, country, vat_rate`,
} as const;
export type ExportName = keyof typeof EXPORTS;
export const isExportName = (name: string | undefined): name is ExportName => name !== undefined && Object.hasOwn(EXPORTS, name);

/**
 * The test checkout's sales that the VAT export leaves out (every document of the TEST series: test
 * cards and free access claimed under the test checkout): their invoices and credit notes. An
 * export of only a header then says why it is empty.
 */
export function testSalesLeftOut(db: Db): { invoices: number; creditNotes: number } {
  const row = db.$client
    .query<{ invoices: number | null; creditNotes: number | null }, []>(
      `SELECT sum(i.kind = 'invoice') AS invoices, sum(i.kind != 'invoice') AS creditNotes
       FROM invoices i WHERE i.series <> ''`,
    )
    .get();
  return { invoices: row?.invoices ?? 0, creditNotes: row?.creditNotes ?? 0 };
}

/**
 * Written first in every CSV meant for a spreadsheet (the console's downloads, the CLI's exports
 * unless --no-bom): without it Excel reads UTF-8 as the system's code page ("FriedrichstraÃŸe").
 */
export const CSV_BOM = "\uFEFF";

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  // Quote when needed; neutralise spreadsheet formulas (CSV injection) in visitor-provided text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function exportCsv(db: Db, name: ExportName, write: (chunk: string) => void): number {
  const query = db.$client.query<Record<string, unknown>, []>(EXPORTS[name]);
  const columns = query.columnNames;
  write(`${columns.join(",")}\r\n`);
  let count = 0;
  for (const row of query.iterate()) {
    write(`${columns.map((c) => csvCell(row[c])).join(",")}\r\n`);
    count += 1;
  }
  return count;
}
