// Discount codes (server/shop/codes/): what a buyer may type, and what a code takes off a price.
// Shared by the payment page (which shows the reduced price) and the server (which charges it).

/** Letters, digits, dashes and underscores, 3 to 32 of them; the buyer may type it in any case. */
export const DISCOUNT_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

/** The code as stored and compared (upper case, no surrounding space); null when it cannot be one. */
export function normalizeDiscountCode(value: string): string | null {
  const code = value.trim().toUpperCase();
  return DISCOUNT_CODE_PATTERN.test(code) ? code : null;
}

export type Reduction = { kind: "percent" | "amount"; value: number };

/**
 * What a code takes off `listMinor`: a percentage rounded to the cent (half up), or an amount, never
 * more than the price (a code worth more than the price gives it free).
 */
export function reductionOf(reduction: Reduction, listMinor: number): number {
  const off = reduction.kind === "percent" ? Math.round((listMinor * reduction.value) / 100) : reduction.value;
  return Math.max(0, Math.min(listMinor, off));
}

/** Why a code cannot be applied, as the payment page says it (locale key `payment.code.<reason>`). */
export const CODE_REFUSALS = ["unknown", "not-started", "expired", "used-up"] as const;
export type CodeRefusal = (typeof CODE_REFUSALS)[number];
