import type { Db } from "../../db/client";
import { SELLER_TIME_ZONE } from "../../shared/offer";
import { csvCell } from "./export-csv";

// `site vat export --ereporting`: the totals France's e-reporting of consumer sales (B2C) asks a
// seller to transmit for each period: per day and VAT rate, the amounts excluding VAT, the VAT and
// the number of transactions, by category of operation (here always services, TPS1: the product is
// a service supplied electronically). docs/invoices.md says how each column maps. Credit notes count
// on the day of the refund, negative; test-checkout documents are left out, as in the VAT return.

export const EREPORTING_COLUMNS = [
  "date",
  "category",
  "vat_country",
  "vat_rule",
  "vat_rate_percent",
  "transactions",
  "credit_notes",
  "net_excl_vat",
  "vat",
  "currency",
] as const;

type Doc = {
  issuedAt: number;
  kind: string;
  vatCountry: string | null;
  vatRule: string | null;
  vatRate: number;
  net: number;
  vat: number;
  currency: string;
};

export function ereportingCsv(db: Db, write: (chunk: string) => void): number {
  const docs = db.$client
    .query<Doc, []>(
      `SELECT i.issued_at AS issuedAt, i.kind AS kind, i.vat_country AS vatCountry, i.vat_rule AS vatRule, i.vat_rate AS vatRate,
         i.net_amount AS net, i.vat_amount AS vat, i.currency AS currency
       FROM invoices i JOIN orders o ON o.id = i.order_id WHERE o.provider != 'test' AND i.series = ''
         -- Consumers' sales only: a company's purchase (B2B) is not B2C e-reporting's.
         AND o.company IS NULL ORDER BY i.issued_at`,
    )
    .all();
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: SELLER_TIME_ZONE });
  const groups = new Map<string, { key: string[]; transactions: number; creditNotes: number; net: number; vat: number }>();
  for (const d of docs) {
    const key = [day.format(new Date(d.issuedAt)), "TPS1", d.vatCountry ?? "", d.vatRule ?? "", (d.vatRate / 100).toFixed(2), d.currency];
    const id = key.join("\u0000");
    const g = groups.get(id) ?? { key, transactions: 0, creditNotes: 0, net: 0, vat: 0 };
    const sign = d.kind === "invoice" ? 1 : -1;
    if (sign === 1) g.transactions += 1;
    else g.creditNotes += 1;
    g.net += sign * d.net;
    g.vat += sign * d.vat;
    groups.set(id, g);
  }
  write(`${EREPORTING_COLUMNS.join(",")}\r\n`);
  for (const g of groups.values()) {
    const [date, category, country, rule, rate, currency] = g.key;
    const cells = [
      date,
      category,
      country,
      rule,
      rate,
      g.transactions,
      g.creditNotes,
      (g.net / 100).toFixed(2),
      (g.vat / 100).toFixed(2),
      currency,
    ];
    write(`${cells.map(csvCell).join(",")}\r\n`);
  }
  return groups.size;
}
