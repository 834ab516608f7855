import * as v from "valibot";
import { isCountryCode } from "./countries";
import type { MessageKey } from "./i18n";
import { normalizeVatNumber, vatNumberProblem } from "./vat-number";

// A company buying on the payment page ("Buying for a company?"): its name, address, country and
// VAT number, checked by the same schema in the browser and on the server. What it changes (reverse
// charge, the price excluding VAT) is decided on the server (server/shop/paperwork/vat.ts).

export const BUSINESS_FIELDS = ["company", "companyAddress", "companyCountry", "vatNumber"] as const;
export type BusinessField = (typeof BUSINESS_FIELDS)[number];

/** The locale key of each field's problem, shown beside it and in the error summary. */
export const BUSINESS_ERROR_KEYS = {
  company: "business.error.company",
  companyAddress: "business.error.address",
  companyCountry: "business.error.country",
  vatNumber: "business.error.vatNumber",
  vatCheck: "business.error.vatCheck",
  vatCountry: "business.error.vatCountry",
} as const satisfies Record<string, MessageKey>;
export type BusinessErrorKey = (typeof BUSINESS_ERROR_KEYS)[keyof typeof BUSINESS_ERROR_KEYS];

/** The countries whose VAT numbers the site checks: the EU's member states (Greece's numbers start "EL"). */
export const EU_MEMBER_STATES = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;
/**
 * The countries the tax rules tell apart for a company (server/shop/paperwork/vat.ts): the member
 * states, and the three outside the EU where a seller may register (VAT_REGISTRATIONS). The payment
 * page lists only these at first; every other country follows the same rule, and the full list is
 * one link away (a no-JavaScript buyer) or filled in by the page's script.
 */
export const COUNTRIES_RULES_TELL_APART: readonly string[] = [...EU_MEMBER_STATES, "GB", "CH", "NO"];

export const isEuMemberState = (country: string | null | undefined): boolean =>
  country != null && (EU_MEMBER_STATES as readonly string[]).includes(country);

/** What the order keeps of a company buyer; `vatNumber` normalized (prefix, no spaces), null when none was given. */
export type BusinessBuyer = { company: string; address: string; country: string; vatNumber: string | null };

const text = (key: BusinessErrorKey, max: number) => v.pipe(v.string(key), v.trim(), v.nonEmpty(key), v.maxLength(max, key));

const BusinessSchema = v.pipe(
  v.object({
    company: text(BUSINESS_ERROR_KEYS.company, 120),
    companyAddress: text(BUSINESS_ERROR_KEYS.companyAddress, 300),
    companyCountry: v.pipe(
      v.string(BUSINESS_ERROR_KEYS.companyCountry),
      v.trim(),
      v.toUpperCase(),
      v.check(isCountryCode, BUSINESS_ERROR_KEYS.companyCountry),
    ),
    vatNumber: v.optional(v.pipe(v.string(BUSINESS_ERROR_KEYS.vatNumber), v.trim(), v.maxLength(20, BUSINESS_ERROR_KEYS.vatNumber)), ""),
  }),
  // Only EU numbers are checked (format and check digits); a company elsewhere may give its own tax number as it is.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { companyCountry, vatNumber } = dataset.value;
    if (vatNumber === "" || !isEuMemberState(companyCountry)) return;
    const problem = vatNumberProblem(normalizeVatNumber(vatNumber, companyCountry), companyCountry);
    if (problem === null) return;
    const message =
      problem === "check"
        ? BUSINESS_ERROR_KEYS.vatCheck
        : problem === "country"
          ? BUSINESS_ERROR_KEYS.vatCountry
          : BUSINESS_ERROR_KEYS.vatNumber;
    addIssue({ message, path: [{ type: "object", origin: "value", input: dataset.value, key: "vatNumber", value: vatNumber }] });
  }),
);

export type BusinessInput = Partial<Record<BusinessField, string | undefined>>;

/** What the buyer typed in the company section, as typed: given back with the page a plain form post was refused on. */
export type BusinessTyped = Partial<Record<BusinessField, string>>;

/** The longest each field's text may be (the fields' own maxLength): a longer value is not given back. */
export const BUSINESS_FIELD_MAX: Record<BusinessField, number> = { company: 120, companyAddress: 300, companyCountry: 2, vatNumber: 20 };

/**
 * The company fields of a query (`?company=…`: the page a plain form post was refused on), each
 * kept when it is a string within its field's length; empty when none is there.
 */
export function businessTypedOf(query: URLSearchParams): BusinessTyped {
  const typed: BusinessTyped = {};
  for (const f of BUSINESS_FIELDS) {
    const value = query.get(f);
    if (value !== null && value !== "" && value.length <= BUSINESS_FIELD_MAX[f]) typed[f] = value;
  }
  return typed;
}
export type BusinessCheck =
  | { ok: true; business: BusinessBuyer | null }
  | { ok: false; errors: Partial<Record<BusinessField, BusinessErrorKey>> };

/** Whether the buyer filled in anything of the company's: an empty section is a consumer's purchase. */
export const isBuyingAsBusiness = (input: BusinessInput): boolean => BUSINESS_FIELDS.some((f) => (input[f] ?? "").trim() !== "");

/** The company section as typed: null when left empty, every field's problem at once otherwise. */
export function checkBusiness(input: BusinessInput): BusinessCheck {
  if (!isBuyingAsBusiness(input)) return { ok: true, business: null };
  const result = v.safeParse(BusinessSchema, input);
  if (result.success) {
    const { company, companyAddress, companyCountry, vatNumber } = result.output;
    return {
      ok: true,
      business: {
        company,
        address: companyAddress,
        country: companyCountry,
        vatNumber: vatNumber === "" ? null : isEuMemberState(companyCountry) ? normalizeVatNumber(vatNumber, companyCountry) : vatNumber,
      },
    };
  }
  const errors: Partial<Record<BusinessField, BusinessErrorKey>> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    const field = BUSINESS_FIELDS.find((f) => f === key);
    const message = Object.values(BUSINESS_ERROR_KEYS).find((k) => k === issue.message);
    if (field !== undefined && message !== undefined && errors[field] === undefined) errors[field] = message;
  }
  if (Object.keys(errors).length === 0) errors.company = BUSINESS_ERROR_KEYS.company;
  return { ok: false, errors };
}

/**
 * A plain form post refused for the company's details comes back to the payment page with one of
 * these (`?error=business-vatCheck`): the first field in error and its message key's last part.
 */
export const BUSINESS_PAGE_ERRORS = [
  "business-company",
  "business-address",
  "business-country",
  "business-vatNumber",
  "business-vatCheck",
  "business-vatCountry",
] as const;
export type BusinessPageError = (typeof BUSINESS_PAGE_ERRORS)[number];

const FIELD_OF_FLAG: Record<BusinessPageError, BusinessField> = {
  "business-company": "company",
  "business-address": "companyAddress",
  "business-country": "companyCountry",
  "business-vatNumber": "vatNumber",
  "business-vatCheck": "vatNumber",
  "business-vatCountry": "vatNumber",
};

/** The flag of the first problem, for a plain form post's redirect. */
export function businessPageError(errors: Partial<Record<BusinessField, BusinessErrorKey>>): BusinessPageError {
  for (const field of BUSINESS_FIELDS) {
    const key = errors[field];
    if (key !== undefined) {
      const flag = `business-${key.slice("business.error.".length)}`;
      const found = BUSINESS_PAGE_ERRORS.find((f) => f === flag);
      if (found !== undefined) return found;
    }
  }
  return "business-company";
}

/** The field and message of a flag the payment page came back with. */
export function businessErrorsOf(flag: string | undefined): Partial<Record<BusinessField, BusinessErrorKey>> {
  const found = BUSINESS_PAGE_ERRORS.find((f) => f === flag);
  if (found === undefined) return {};
  const key = Object.values(BUSINESS_ERROR_KEYS).find((k) => k === `business.error.${found.slice("business-".length)}`);
  return key === undefined ? {} : { [FIELD_OF_FLAG[found]]: key };
}
