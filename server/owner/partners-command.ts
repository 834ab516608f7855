import type { Db } from "../../db/client";
import type { Write } from "../../db/writer";
import { SELLER_TIME_ZONE } from "../../shared/offer";
import { checkPeriod, createPartner, type PartnerRow, type Period, partnerReport } from "../shop/partners/service";
import { CSV_BOM, csvCell } from "./export-csv";

// `site partners create|list`: the owner's partners from the command line, the same service as the
// console's Partners page (server/shop/partners/service.ts).

type Print = (line: string) => void;

export const partnersCreateOptions = { commission: { type: "string" }, code: { type: "string" } } as const;
export const partnersListOptions = {
  from: { type: "string" },
  to: { type: "string" },
  csv: { type: "boolean" },
  "no-bom": { type: "boolean" },
} as const;

export async function partnersCreate(
  write: Write,
  name: string | undefined,
  values: { commission?: string; code?: string },
  usage: string,
  out: Print,
  err: Print,
): Promise<number> {
  if (name === undefined) {
    err(`Which partner? ${usage}\n`);
    return 2;
  }
  if (values.commission !== undefined && !/^\d{1,3}$/.test(values.commission)) {
    err(`--commission takes a whole percentage (20): ${usage}\n`);
    return 2;
  }
  const commission = values.commission === undefined ? undefined : Number(values.commission);
  const result = await write((tx) => createPartner(tx, { name, commission, code: values.code }, new Date()));
  if (!result.ok) {
    err(`${result.error}\n`);
    return 1;
  }
  const p = result.partner;
  out(
    `Created ${p.name}: link ?ref=${p.name}${p.commission === null ? ", no commission" : `, ${p.commission} % commission`}${p.code === null ? "" : `, code ${p.code}`}.\n`,
  );
  return 0;
}

/** The current month in Paris time, through today: the period when none is given. */
export function defaultPeriod(now: Date): Period {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: SELLER_TIME_ZONE }).format(now);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

export const PARTNER_CSV_COLUMNS = [
  "partner",
  "from",
  "to",
  "visitors",
  "paid_orders",
  "net_revenue_excl_vat",
  "commission_percent",
  "commission_owed",
  "code",
] as const;

/** The report as CSV (amounts in the currency's units with two decimals). */
export function partnersCsv(rows: PartnerRow[], period: Period): string {
  const money = (minor: number) => (minor / 100).toFixed(2);
  const lines = rows.map((r) =>
    [
      r.name,
      period.from,
      period.to,
      r.visitors,
      r.paidOrders,
      money(r.netRevenue),
      r.commission ?? "",
      money(r.commissionOwed),
      r.code ?? "",
    ]
      .map(csvCell)
      .join(","),
  );
  return `${[PARTNER_CSV_COLUMNS.join(","), ...lines].join("\r\n")}\r\n`;
}

export function partnersList(
  db: Db,
  values: { from?: string; to?: string; csv?: boolean; "no-bom"?: boolean },
  currency: string,
  testOrders: boolean,
  out: Print,
  err: Print,
): number {
  const period = {
    ...defaultPeriod(new Date()),
    ...(values.from === undefined ? {} : { from: values.from }),
    ...(values.to === undefined ? {} : { to: values.to }),
  };
  const problem = checkPeriod(period);
  if (problem !== null) {
    err(`${problem}\n`);
    return 2;
  }
  const rows = partnerReport(db, period, testOrders);
  if (values.csv === true) {
    out(`${values["no-bom"] === true ? "" : CSV_BOM}${partnersCsv(rows, period)}`);
    return 0;
  }
  if (rows.length === 0) {
    out("No partners yet (site partners create NAME --commission 20).\n");
    return 0;
  }
  out(`${period.from} to ${period.to} (Paris time), amounts excluding VAT in ${currency}\n`);
  out("partner\tvisitors\tpaid orders\tnet revenue\tcommission\towed\tcode\n");
  for (const r of rows)
    out(
      `${r.name}\t${r.visitors}\t${r.paidOrders}\t${(r.netRevenue / 100).toFixed(2)}\t${r.commission === null ? "—" : `${r.commission} %`}\t${(r.commissionOwed / 100).toFixed(2)}\t${r.code ?? ""}\n`,
    );
  return 0;
}
