import * as v from "valibot";
import { isCountryCode } from "../countries";
import type { MessageKey } from "../i18n";
import { LOCALES } from "../locales";

// Payloads of the checkout feature: the pay button's request, the answer it
// reads, and the built-in test checkout's card form. Shared by the browser and the endpoints.

/**
 * The payment page's box: the terms of sale accepted, immediate access asked for and the
 * loss of the withdrawal right acknowledged. `true` from the pay button, "yes" from the plain form;
 * absent when not ticked (a browser sends nothing for an unticked box). The endpoint refuses to
 * start a checkout without it.
 */
const AcceptTerms = v.pipe(
  v.optional(v.union([v.literal(true), v.literal(false), v.literal("yes")], 'acceptTerms must be true or "yes"'), false),
  v.transform((value) => value === true || value === "yes"),
);

const optionalText = (name: string, max: number) =>
  v.optional(v.pipe(v.string(`${name} must be text`), v.maxLength(max, `${name} is too long`)), "");

/** POST /api/payment, as JSON from the pay button or as a plain form post without JavaScript. */
export const PaymentRequestSchema = v.object({
  locale: v.picklist(LOCALES, "Unknown locale"),
  acceptTerms: AcceptTerms,
  /** A discount code as the buyer typed it (any case); empty or absent: none. */
  code: v.optional(v.pipe(v.string("code must be text"), v.trim(), v.maxLength(64, "code is too long")), ""),
  /** The partner whose link (`?ref=NAME`) brought the buyer; an unknown name is ignored. */
  ref: v.optional(v.pipe(v.string("ref must be text"), v.trim(), v.maxLength(64, "ref is too long")), ""),
  /**
   * "Buying for a company?": the company's name, address, country and VAT number, all empty for a
   * consumer's purchase; checked by shared/business-buyer.ts checkBusiness (the same in the page).
   */
  company: optionalText("company", 200),
  companyAddress: optionalText("companyAddress", 400),
  companyCountry: optionalText("companyCountry", 8),
  vatNumber: optionalText("vatNumber", 40),
  /** The unchecked box: the buyer's initial and city may show in the recent-purchases notice. */
  showInNotice: v.pipe(
    v.optional(v.union([v.literal(true), v.literal(false), v.literal("yes")], 'showInNotice must be true or "yes"'), false),
    v.transform((value) => value === true || value === "yes"),
  ),
});

/**
 * POST /api/payment/code: a code to preview in the page's language (the Apply button: JSON from its
 * script, or the pay form's fields posted without JavaScript, of which only these are read).
 */
export const CodePreviewRequestSchema = v.object({
  locale: v.picklist(LOCALES, "Unknown locale"),
  code: v.optional(v.pipe(v.string("code must be text"), v.trim(), v.maxLength(64, "code is too long")), ""),
  /** The partner of the page's link (its hidden field), kept in the address the plain form goes back to. */
  ref: v.optional(v.pipe(v.string("ref must be text"), v.trim(), v.maxLength(64, "ref is too long")), ""),
});

/** The preview's answer (shared/discount-code.ts CodePreview), as the pay button reads it. */
export const CodePreviewSchema = v.object({
  code: v.string(),
  list: v.string(),
  off: v.string(),
  total: v.string(),
  free: v.boolean(),
  business: v.optional(v.object({ list: v.string(), off: v.string(), total: v.string() })),
});

/** The answer the pay button reads (`url`, the original payment response). An answer without url is a failure. */
export const PaymentResponseSchema = v.object({ url: v.pipe(v.string(), v.nonEmpty()) });

/** Test cards of the built-in checkout, the same numbers Stripe's test mode uses. */
export const TEST_CARDS = { pays: "4242424242424242", declined: "4000000000000002" } as const;

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * An expiry as people type it, as hosted card forms take it: "MM/YY", "MM / YY", "MM/YYYY", "M/YY",
 * or without the slash "MMYY" and "MMYYYY" (the card form adds the slash as digits are typed, but a
 * form sent without JavaScript gets what was typed).
 */
const EXPIRY = /^\s*(?:(\d{1,2})\s*\/\s*(\d{2}|\d{4})|(\d{2})(\d{2}|\d{4}))\s*$/;

/** An expiry (see EXPIRY) not before the current month. */
export function expiryValid(raw: string, now: Date): boolean {
  const match = EXPIRY.exec(raw);
  if (match === null) return false;
  const month = Number(match[1] ?? match[3]);
  const yearDigits = match[2] ?? match[4] ?? "";
  const year = yearDigits.length === 2 ? 2000 + Number(yearDigits) : Number(yearDigits);
  if (month < 1 || month > 12) return false;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiry = year * 12 + (month - 1);
  return expiry >= current && expiry <= current + 12 * 20;
}

/**
 * The card page's fields. No consent box: the buyer gave it on the payment page, which is recorded
 * with the checkout before the card page exists, and a hosted provider's page does not ask again.
 */
export const CARD_FIELDS = ["email", "name", "city", "country", "card", "expiry", "cvc"] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** Messages are locale keys: the page shows their translation next to the field. */
export const CARD_FIELD_KEYS = {
  email: "checkout.invalidEmail",
  name: "checkout.invalidName",
  city: "checkout.invalidCity",
  country: "checkout.invalidCountry",
  card: "checkout.invalidCard",
  expiry: "checkout.invalidExpiry",
  cvc: "checkout.invalidCvc",
} as const satisfies Record<CardField, MessageKey>;

/**
 * Every text the test checkout's form may show as a problem: a field's, a declined card, the
 * database busy with another program's lock, or too many attempts from one client.
 */
export const CHECKOUT_ERROR_KEYS = [
  ...Object.values(CARD_FIELD_KEYS),
  "checkout.declined",
  "checkout.busy",
  "checkout.rateLimited",
] as const;
export type CheckoutErrorKey = (typeof CHECKOUT_ERROR_KEYS)[number];

const text = (key: string, max: number) => v.pipe(v.string(key), v.trim(), v.nonEmpty(key), v.maxLength(max, key));

/** The test checkout's form; `now` decides which expiry dates have passed. */
export function testCardSchema(now: Date) {
  return v.object({
    email: v.pipe(
      v.string(CARD_FIELD_KEYS.email),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(255, CARD_FIELD_KEYS.email),
      v.email(CARD_FIELD_KEYS.email),
    ),
    name: text(CARD_FIELD_KEYS.name, 120),
    city: text(CARD_FIELD_KEYS.city, 80),
    // The billing country, which sets the VAT of an OSS sale. The page's select always sends one; a
    // post without it (a script of the owner's) is a sale of unknown country, taxed as in France.
    country: v.optional(
      v.pipe(v.string(CARD_FIELD_KEYS.country), v.trim(), v.toUpperCase(), v.check(isCountryCode, CARD_FIELD_KEYS.country)),
    ),
    card: v.pipe(
      v.string(CARD_FIELD_KEYS.card),
      v.transform((s) => s.replace(/[\s-]/g, "")),
      v.check(luhnValid, CARD_FIELD_KEYS.card),
    ),
    expiry: v.pipe(
      v.string(CARD_FIELD_KEYS.expiry),
      v.check((s) => expiryValid(s, now), CARD_FIELD_KEYS.expiry),
    ),
    cvc: v.pipe(v.string(CARD_FIELD_KEYS.cvc), v.trim(), v.regex(/^\d{3,4}$/, CARD_FIELD_KEYS.cvc)),
  });
}
export type TestCard = v.InferOutput<ReturnType<typeof testCardSchema>>;

/** Every field's problem at once (the form shows them all), as locale keys. */
export function checkTestCard(
  value: unknown,
  now: Date,
): { ok: true; card: TestCard } | { ok: false; errors: Partial<Record<CardField, CheckoutErrorKey>> } {
  const result = v.safeParse(testCardSchema(now), value, { abortPipeEarly: true });
  if (result.success) return { ok: true, card: result.output };
  return { ok: false, errors: fieldErrors(result.issues, CARD_FIELDS) };
}

/** The fields of a free-access claim (a 100 % code): the card page's, without a card. */
export const CLAIM_FIELDS = ["email", "name", "city", "country"] as const satisfies readonly CardField[];
const claimSchema = v.omit(testCardSchema(new Date(0)), ["card", "expiry", "cvc"]);
export type ClaimDetails = v.InferOutput<typeof claimSchema>;

export function checkFreeClaim(
  value: unknown,
): { ok: true; details: ClaimDetails } | { ok: false; errors: Partial<Record<CardField, CheckoutErrorKey>> } {
  const result = v.safeParse(claimSchema, value, { abortPipeEarly: true });
  if (result.success) return { ok: true, details: result.output };
  return { ok: false, errors: fieldErrors(result.issues, CLAIM_FIELDS) };
}

function fieldErrors(
  issues: readonly { path?: readonly { key: unknown }[] | undefined }[],
  fields: readonly CardField[],
): Partial<Record<CardField, CheckoutErrorKey>> {
  const errors: Partial<Record<CardField, CheckoutErrorKey>> = {};
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    const field = fields.find((f) => f === key);
    if (field !== undefined && errors[field] === undefined) errors[field] = CARD_FIELD_KEYS[field];
  }
  // A missing object (no body at all) has no path: report every field.
  if (Object.keys(errors).length === 0) for (const f of fields) errors[f] = CARD_FIELD_KEYS[f];
  return errors;
}
