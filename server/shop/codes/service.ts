import { and, asc, count, desc, eq, gt, inArray, or, sql, sum } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { discountCodes, orders } from "../../../db/schema";
import type { DbWriter } from "../../../db/writer";
import { type CodeRefusal, normalizeDiscountCode, reductionOf } from "../../../shared/discount-code";
import { endOfDayIn, SELLER_TIME_ZONE } from "../../../shared/offer";
import { realSaleSql } from "../paperwork/numbering";

// The owner's discount codes: created and disabled from the console or the CLI, applied when a
// checkout starts. A use is reserved in the writer's transaction that records the pending order
// (one write lock for the whole site), so a code limited to 50 never gets a 51st order however
// many buyers apply it at once; an abandoned checkout gives its use back when it expires.

export type DiscountCode = typeof discountCodes.$inferSelect;

/**
 * How long a started checkout holds a use of a limited code: the test checkout's session lasts an
 * hour, and Stripe's sessions of a code are created to expire as soon (their expiry frees the use
 * by the webhook; this bound frees it even if that event never arrives).
 */
export const CODE_HOLD_MS = 60 * 60 * 1000;

/** A day `YYYY-MM-DD` checked as a real calendar date. */
export const isCalendarDay = (day: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  // A month 13 or a day 32 makes an invalid Date, whose toISOString throws: that is "not a date".
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
};

/** The first instant of a Paris day. */
export function startOfParisDay(day: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  const before = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) - 1)).toISOString().slice(0, 10);
  return new Date(endOfDayIn(SELLER_TIME_ZONE, before).getTime() + 1);
}

/** The first instant after a Paris day: a code that "ends" on it applies through the whole day. */
export const afterParisDay = (day: string): Date => new Date(endOfDayIn(SELLER_TIME_ZONE, day).getTime() + 1);

export type NewCode = {
  code: string;
  kind: "percent" | "amount";
  value: number;
  starts?: string | undefined;
  ends?: string | undefined;
  maxUses?: number | undefined;
  note?: string | undefined;
};

/** What is wrong with a new code, for the console to say in the owner's language (`admin.codes.problem.<key>`). */
export type CodeProblem = "code" | "value" | "percent" | "date" | "order" | "max" | "exists";
export type CreateResult = { ok: true; code: DiscountCode } | { ok: false; error: string; problem: CodeProblem };

/** Checks what the owner typed; the text of an error says what to change. */
export function checkNewCode(
  input: NewCode,
): { ok: true; values: Omit<DiscountCode, "id" | "createdAt" | "disabledAt"> } | { ok: false; error: string; problem: CodeProblem } {
  const code = normalizeDiscountCode(input.code);
  if (code === null)
    return { ok: false, error: "The code must be 3 to 32 letters, digits, dashes or underscores (SUMMER-20).", problem: "code" };
  if (!Number.isInteger(input.value) || input.value < 1)
    return { ok: false, error: "The reduction must be a whole number above 0.", problem: "value" };
  if (input.kind === "percent" && input.value > 100)
    return { ok: false, error: "A percentage goes up to 100 (100 gives free access).", problem: "percent" };
  for (const day of [input.starts, input.ends])
    if (day !== undefined && !isCalendarDay(day)) return { ok: false, error: `${day} is not a date such as 2026-12-31.`, problem: "date" };
  if (input.starts !== undefined && input.ends !== undefined && input.ends < input.starts)
    return { ok: false, error: "The end date is before the start date.", problem: "order" };
  if (input.maxUses !== undefined && (!Number.isInteger(input.maxUses) || input.maxUses < 1))
    return { ok: false, error: "The maximum of uses must be a whole number above 0.", problem: "max" };
  const note = input.note?.trim().slice(0, 200);
  return {
    ok: true,
    values: {
      code,
      kind: input.kind,
      value: input.value,
      startsAt: input.starts === undefined ? null : startOfParisDay(input.starts),
      endsAt: input.ends === undefined ? null : afterParisDay(input.ends),
      maxUses: input.maxUses ?? null,
      note: note === undefined || note === "" ? null : note,
    },
  };
}

export function createCode(tx: DbWriter, input: NewCode, now: Date): CreateResult {
  const checked = checkNewCode(input);
  if (!checked.ok) return checked;
  const [row] = tx
    .insert(discountCodes)
    .values({ ...checked.values, createdAt: now })
    .onConflictDoNothing()
    .returning()
    .all();
  if (row === undefined)
    return {
      ok: false,
      error: `The code ${checked.values.code} exists already (codes are never reused: orders name them).`,
      problem: "exists",
    };
  return { ok: true, code: row };
}

/** Stops new uses of a code; orders made with it keep it. */
export function disableCode(tx: DbWriter, code: string, now: Date): "disabled" | "already" | "not-found" {
  const normalized = normalizeDiscountCode(code);
  const row = normalized === null ? undefined : tx.select().from(discountCodes).where(eq(discountCodes.code, normalized)).get();
  if (row === undefined) return "not-found";
  if (row.disabledAt !== null) return "already";
  tx.update(discountCodes).set({ disabledAt: now }).where(eq(discountCodes.id, row.id)).run();
  return "disabled";
}

/**
 * The orders of one mode: the test checkout's (and free access claimed while it runs) or real sales.
 * A code's uses are counted within the mode of the order being made, so the owner trying a limited
 * code with the test checkout never uses up what real buyers may use once payments are live.
 */
const ofMode = (testMode: boolean) => sql.raw(testMode ? `NOT (${realSaleSql("")})` : `(${realSaleSql("")})`);

/**
 * The uses a code has now in one mode: paid (or refunded) orders, and checkouts started within the
 * hold that still may be paid.
 */
function usesHeld(tx: Pick<Db, "select">, code: string, now: Date, testMode: boolean): number {
  const row = tx
    .select({ n: count() })
    .from(orders)
    .where(
      and(
        eq(orders.discountCode, code),
        ofMode(testMode),
        or(
          inArray(orders.status, ["paid", "refunded"]),
          and(eq(orders.status, "pending"), gt(orders.createdAt, new Date(now.getTime() - CODE_HOLD_MS))),
        ),
      ),
    )
    .get();
  return row?.n ?? 0;
}

/** The API's own words for a refused code: the payment and the preview endpoints (the page shows its translation of `code`). */
export const CODE_REFUSAL_TEXT: Record<CodeRefusal, string> = {
  unknown: "This discount code does not exist",
  "not-started": "This discount code is not valid yet",
  expired: "This discount code has expired",
  "used-up": "This discount code has been used as many times as it may be",
};

export type AppliedCode = { code: string; listAmount: number; discountAmount: number; amount: number };
export type CodeCheck = { ok: true; applied: AppliedCode } | { ok: false; reason: CodeRefusal };

/**
 * Whether `typed` applies to a price now, and what it takes off. Called inside the transaction that
 * records the pending order, a code at its maximum is refused there. `testMode`: the order would be
 * the test checkout's (its uses are counted apart from real sales').
 */
export function checkCode(reader: Pick<Db, "select">, typed: string, listAmount: number, now: Date, testMode: boolean): CodeCheck {
  const code = normalizeDiscountCode(typed);
  const row = code === null ? undefined : reader.select().from(discountCodes).where(eq(discountCodes.code, code)).get();
  if (row === undefined || row.disabledAt !== null) return { ok: false, reason: "unknown" };
  if (row.startsAt !== null && now < row.startsAt) return { ok: false, reason: "not-started" };
  if (row.endsAt !== null && now >= row.endsAt) return { ok: false, reason: "expired" };
  if (row.maxUses !== null && usesHeld(reader, row.code, now, testMode) >= row.maxUses) return { ok: false, reason: "used-up" };
  const discountAmount = reductionOf(row, listAmount);
  return { ok: true, applied: { code: row.code, listAmount, discountAmount, amount: listAmount - discountAmount } };
}

/**
 * Where a code stands at an instant, as every list of codes says it (CLI, console): `disabled` by the
 * owner, `expired` once its last day (Paris time) is over, `used-up` at its maximum of uses,
 * `scheduled` before its first day, `active` otherwise. The first that holds wins: a disabled code
 * is disabled whatever its dates, an ended one is expired even if it was also used up.
 */
export const CODE_STATUSES = ["active", "scheduled", "used-up", "expired", "disabled"] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];

export function codeStatusAt(
  code: Pick<DiscountCode, "disabledAt" | "startsAt" | "endsAt" | "maxUses">,
  uses: number,
  now: Date,
): CodeStatus {
  if (code.disabledAt !== null) return "disabled";
  if (code.endsAt !== null && now >= code.endsAt) return "expired";
  if (code.maxUses !== null && uses >= code.maxUses) return "used-up";
  if (code.startsAt !== null && now < code.startsAt) return "scheduled";
  return "active";
}

export type CodeFigures = DiscountCode & {
  uses: number;
  orders: number;
  revenue: number;
  refunded: number;
  currency: string | null;
  status: CodeStatus;
};

/**
 * Every code with its uses (paid or refunded orders), paid orders, net revenue and its state at
 * `now`: the codes a buyer may use now first, then those to come, used up, ended and disabled; newest
 * first within each. Without `testOrders` (production) the paid orders, revenue and refunds leave
 * out the test checkout's orders, as the overview does: they took no money. The uses are those of
 * the site's checkout now (`testMode`: the test checkout's), the ones its limit is checked against.
 */
export function listCodes(db: Pick<Db, "select">, now: Date, testOrders: boolean, testMode: boolean): CodeFigures[] {
  const counted = testOrders ? sql`1` : sql.raw(`(${realSaleSql("")})`);
  const figures = db
    .select({
      code: orders.discountCode,
      uses: sql<number>`sum(${ofMode(testMode)})`,
      paid: sql<number>`sum(${orders.status} = 'paid' AND ${counted})`,
      revenue: sum(sql`CASE WHEN ${orders.status} = 'paid' AND ${counted} THEN ${orders.amount} ELSE 0 END`),
      refunded: sql<number>`sum(${orders.status} = 'refunded' AND ${counted})`,
      currency: sql<string | null>`max(${orders.currency})`,
    })
    .from(orders)
    .where(and(sql`${orders.discountCode} IS NOT NULL`, inArray(orders.status, ["paid", "refunded"])))
    .groupBy(orders.discountCode)
    .all();
  const byCode = new Map(figures.map((f) => [f.code, f]));
  return db
    .select()
    .from(discountCodes)
    .orderBy(asc(discountCodes.id))
    .all()
    .reverse()
    .map((row) => {
      const f = byCode.get(row.code);
      const uses = Number(f?.uses ?? 0);
      return {
        ...row,
        uses,
        orders: Number(f?.paid ?? 0),
        revenue: Number(f?.revenue ?? 0),
        refunded: Number(f?.refunded ?? 0),
        currency: f?.currency ?? null,
        status: codeStatusAt(row, uses, now),
      };
    })
    .sort((a, b) => CODE_STATUSES.indexOf(a.status) - CODE_STATUSES.indexOf(b.status));
}

/** `test`: the test checkout's order (or free access claimed while it ran), marked as the orders list marks it. */
export type CodeOrder = Pick<typeof orders.$inferSelect, "id" | "reference" | "status" | "amount" | "currency" | "paidAt"> & {
  test: boolean;
};

/** The paid and refunded orders made with a code, newest first (the console's list under each code). */
export function ordersOfCode(db: Pick<Db, "select">, code: string, limit = 50): CodeOrder[] {
  return db
    .select({
      id: orders.id,
      reference: orders.reference,
      status: orders.status,
      amount: orders.amount,
      currency: orders.currency,
      paidAt: orders.paidAt,
      test: sql<number>`${ofMode(true)}`,
    })
    .from(orders)
    .where(and(eq(orders.discountCode, code), inArray(orders.status, ["paid", "refunded"])))
    .orderBy(desc(orders.id))
    .limit(limit)
    .all()
    .map((o) => ({ ...o, test: Boolean(o.test) }));
}
