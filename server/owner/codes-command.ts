import type { Db } from "../../db/client";
import type { Write } from "../../db/writer";
import { type CodeStatus, createCode, disableCode, listCodes, type NewCode } from "../shop/codes/service";

// `site codes create|list|disable`: the owner's discount codes from the command line, the same
// service the console uses (server/shop/codes/service.ts).

type Print = (line: string) => void;

export const codesCreateOptions = {
  percent: { type: "string" },
  amount: { type: "string" },
  starts: { type: "string" },
  ends: { type: "string" },
  max: { type: "string" },
  note: { type: "string" },
} as const;

/** An amount as the owner writes it: "5", "4.50" or "4,50" (in the shop's currency) to minor units. */
const minorOf = (text: string): number | null =>
  /^\d{1,6}([.,]\d{1,2})?$/.test(text) ? Math.round(Number(text.replace(",", ".")) * 100) : null;
const wholeOf = (text: string | undefined): number | undefined | null =>
  text === undefined ? undefined : /^\d{1,9}$/.test(text) ? Number(text) : null;

export async function codesCreate(
  write: Write,
  code: string | undefined,
  values: { percent?: string; amount?: string; starts?: string; ends?: string; max?: string; note?: string },
  usage: string,
  currency: string,
  out: Print,
  err: Print,
): Promise<number> {
  if (code === undefined || (values.percent === undefined) === (values.amount === undefined)) {
    err(`Give the code and one of --percent or --amount: ${usage}\n`);
    return 2;
  }
  const value = values.percent !== undefined ? wholeOf(values.percent) : minorOf(values.amount ?? "");
  const maxUses = wholeOf(values.max);
  if (value === null || value === undefined || maxUses === null) {
    err(`--percent and --max take a whole number, --amount an amount such as 5 or 4.50: ${usage}\n`);
    return 2;
  }
  const input: NewCode = {
    code,
    kind: values.percent !== undefined ? "percent" : "amount",
    value,
    starts: values.starts,
    ends: values.ends,
    maxUses,
    note: values.note,
  };
  const result = await write((tx) => createCode(tx, input, new Date()));
  if (!result.ok) {
    err(`${result.error}\n`);
    return 1;
  }
  out(`Created ${result.code.code}: ${describe(result.code, currency)}.\n`);
  return 0;
}

/** What `codes list` says of a code's state (service.ts codeStatusAt). */
const STATUS_WORDS: Record<CodeStatus, string> = {
  active: "active",
  scheduled: "not yet valid",
  "used-up": "used up",
  expired: "expired",
  disabled: "disabled",
};

export function codesList(db: Db, currency: string, testOrders: boolean, testMode: boolean, out: Print, now: Date): number {
  const rows = listCodes(db, now, testOrders, testMode);
  if (rows.length === 0) {
    out("No discount codes yet (site codes create CODE --percent 20).\n");
    return 0;
  }
  out("code\treduction\tvalid\tuses\tpaid orders\trevenue\tstate\tnote\n");
  for (const r of rows) {
    const uses = r.maxUses === null ? String(r.uses) : `${r.uses}/${r.maxUses}`;
    const revenue = `${(r.revenue / 100).toFixed(2)} ${r.currency ?? currency}`;
    out(
      `${r.code}\t${reduction(r, r.currency ?? currency)}\t${validity(r)}\t${uses}\t${r.orders}\t${revenue}\t${STATUS_WORDS[r.status]}\t${r.note ?? ""}\n`,
    );
  }
  return 0;
}

export async function codesDisable(write: Write, code: string | undefined, usage: string, out: Print, err: Print): Promise<number> {
  if (code === undefined) {
    err(`Which code? ${usage}\n`);
    return 2;
  }
  const outcome = await write((tx) => disableCode(tx, code, new Date()));
  if (outcome === "not-found") {
    err(`No code ${code.toUpperCase()} (site codes list lists them).\n`);
    return 1;
  }
  out(
    outcome === "already"
      ? `${code.toUpperCase()} was disabled already.\n`
      : `${code.toUpperCase()} is disabled: no new order may use it.\n`,
  );
  return 0;
}

type Row = { kind: "percent" | "amount"; value: number; startsAt: Date | null; endsAt: Date | null; maxUses: number | null };
/** "20 %", or an amount with its currency as the revenue column writes it ("5.00 EUR off"). */
const reduction = (r: Row, currency: string) => (r.kind === "percent" ? `${r.value} %` : `${(r.value / 100).toFixed(2)} ${currency} off`);
const parisDay = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(at);
const validity = (r: Row) =>
  r.startsAt === null && r.endsAt === null
    ? "always"
    : `${r.startsAt === null ? "…" : parisDay(r.startsAt)} to ${r.endsAt === null ? "…" : parisDay(new Date(r.endsAt.getTime() - 1))}`;
const describe = (r: Row, currency: string) =>
  `${reduction(r, currency)}, ${validity(r) === "always" ? "no dates" : `valid ${validity(r)} (Paris time)`}, ${r.maxUses === null ? "no limit of uses" : `at most ${r.maxUses} ${r.maxUses === 1 ? "use" : "uses"}`}`;
