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

/**
 * A code applied to the published price, as the payment page shows it: the amounts formatted in the
 * page's language by the server (the page and the code-preview endpoint alike), `free` when nothing
 * is left to pay.
 */
export type CodePreview = {
  code: string;
  list: string;
  off: string;
  total: string;
  free: boolean;
  /** The same for a reverse-charged company, excluding VAT (shared/reverse-charge.ts businessFigures). */
  business?: { list: string; off: string; total: string };
};

/**
 * What the payment page knows of a code (`?code=`, or the Apply button with JavaScript): applied,
 * refused with its reason, or not checked because this client tried too many (`rate-limited`). The
 * code as typed comes back in the field.
 */
export type CodeState =
  /** `partner`: the code came with that partner's link (`?ref=`), the buyer typed none. */
  | { state: "applied"; preview: CodePreview; partner?: string }
  | { state: "refused"; code: string; reason: CodeRefusal }
  | { state: "rate-limited"; code: string };
