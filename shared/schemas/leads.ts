import * as v from "valibot";
import { DEFAULT_LOCALE, LOCALES } from "../locales";

// The one schema for the free-demo lead (docs/product.md, "Validation and error messages"), used by
// the popup and footer forms before sending and by POST /api/leads.

/**
 * Where a demo request was made: the timed popup (the specification's value) or the form at the end
 * of the landing page. Stored with the lead, so the owner sees in the leads export which one works.
 */
export const LEAD_SOURCES = ["exit_popup", "landing_form"] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

export const EMAIL_MIN = 5;
export const EMAIL_MAX = 255;

/**
 * The original English messages (docs/product.md, "Validation and error messages"); the forms show
 * the translated text for each (see below).
 */
export const EMAIL_MESSAGES = {
  required: "Email is required",
  invalid: "Invalid email address",
  tooShort: "Email too short",
  tooLong: "Email too long",
} as const;

export const LeadEmailSchema = v.pipe(
  v.string(EMAIL_MESSAGES.required),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty(EMAIL_MESSAGES.required),
  // The address's shape first: "a@b" is not an address, whatever its length, and the visitor is
  // told so rather than that it is short.
  v.email(EMAIL_MESSAGES.invalid),
  v.minLength(EMAIL_MIN, EMAIL_MESSAGES.tooShort),
  v.maxLength(EMAIL_MAX, EMAIL_MESSAGES.tooLong),
);

export const LeadSchema = v.object({
  email: LeadEmailSchema,
  source: v.picklist(LEAD_SOURCES, "Unknown source"),
  // The browser sends null, as the original payload does. The server computes the keyed hash itself
  // and never trusts a value from the client, so anything but null/absent is refused rather than
  // silently dropped.
  ip_hash: v.optional(v.null("ip_hash must be null"), null),
  // Not in the original payload: the language the visitor read the offer in, so the demo can be sent
  // in it. Optional so that the original three-field payload is accepted as is.
  locale: v.optional(v.picklist(LOCALES, "Unknown locale"), DEFAULT_LOCALE),
});

export type LeadInput = v.InferInput<typeof LeadSchema>;
export type Lead = v.InferOutput<typeof LeadSchema>;

/** The texts a visitor may see for an e-mail validation failure. */
export const EMAIL_ISSUE_KEYS = ["lead.emailRequired", "lead.emailInvalid", "lead.emailTooShort", "lead.emailTooLong"] as const;

/** The locale key of the text a visitor sees for an e-mail validation failure. */
export function emailIssueKey(message: string): (typeof EMAIL_ISSUE_KEYS)[number] {
  switch (message) {
    case EMAIL_MESSAGES.required:
      return "lead.emailRequired";
    case EMAIL_MESSAGES.tooShort:
      return "lead.emailTooShort";
    case EMAIL_MESSAGES.tooLong:
      return "lead.emailTooLong";
    default:
      return "lead.emailInvalid";
  }
}

/** Client-side check of the field alone: the normalised address, or the first problem's message. */
export function checkLeadEmail(raw: string): { ok: true; email: string } | { ok: false; message: string } {
  const result = v.safeParse(LeadEmailSchema, raw);
  if (result.success) return { ok: true, email: result.output };
  return { ok: false, message: result.issues[0].message };
}
