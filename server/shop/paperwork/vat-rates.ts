import { SELLER_COUNTRY as SELLER, SELLER_VAT_RATE } from "../../../shared/reverse-charge";

// The standard VAT rate of each EU member state for services supplied electronically to consumers,
// in basis points (19 % = 1900), as the EU's "VAT rates applied in the Member States" lists them on
// 1 August 2025. When a country changes its rate, change it here and this date: invoices already
// issued keep the rate stored on them. France's, the seller's, is shared with the payment page.

export const EU_VAT_RATES = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: SELLER_VAT_RATE,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
} as const;

export type EuCountry = keyof typeof EU_VAT_RATES;

export const isEuCountry = (code: string | null | undefined): code is EuCountry => code != null && Object.hasOwn(EU_VAT_RATES, code);

/** Where the seller is established: its VAT applies where no other country's may. */
export const SELLER_COUNTRY: EuCountry = SELLER;
