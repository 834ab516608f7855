import type { VatScheme } from "../../../shared/vat-scheme";
import { EU_VAT_RATES, isEuCountry, SELLER_COUNTRY } from "./vat-rates";

// The VAT inside a price paid VAT included. The buyer always pays the price; what changes with the
// scheme, the buyer's country and the seller's registrations is how much of it is VAT, and which
// rule says so (recorded on the invoice: the evidence of why).

/**
 * franchise: no VAT at all (art. 293 B du CGI). seller-country: French VAT (scheme `fr` in the EU,
 * or no country known). eu-consumer: the buyer's EU country's VAT (scheme `oss`). outside-eu: a
 * consumer outside the EU, no VAT (the place of supply of an electronic service to a consumer is
 * where the consumer lives: Directive 2006/112/EC art. 58, CGI art. 259 D). registered: a country
 * outside the EU where the seller is registered (VAT_REGISTRATIONS), its VAT.
 */
export const VAT_RULES = ["franchise", "seller-country", "eu-consumer", "outside-eu", "registered"] as const;
export type VatRule = (typeof VAT_RULES)[number];

export type VatLine = {
  scheme: VatScheme;
  rule: VatRule;
  /** The country whose VAT applies; under "outside-eu" the buyer's country (no VAT); null under the franchise. */
  country: string | null;
  /** Basis points: 2000 is 20 %. */
  rate: number;
  net: number;
  vat: number;
  total: number;
  /** The seller's VAT number in `country` under "registered". */
  sellerVatNumber: string | null;
};

/** Where the buyer lives, as the checkout recorded it. */
export type CountryEvidence = { billingCountry: string | null; cardCountry: string | null };

/**
 * Standard rates of the countries outside the EU where a foreign seller of electronic services to
 * consumers registers from the first sale (no threshold): the UK (20 %), Switzerland (8.1 %; its
 * threshold counts worldwide turnover, the owner checks it), Norway (25 %). Basis points.
 */
export const REGISTRATION_RATES: Readonly<Record<string, number>> = { GB: 2000, CH: 810, NO: 2500 };

/** The buyer's country as the evidence states it: the billing address first, the card's country without one. */
export const statedCountry = (evidence: CountryEvidence): string | null => evidence.billingCountry ?? evidence.cardCountry;

/** The country whose VAT an OSS sale to an EU consumer carries (the seller's own when none is known). */
export function vatCountryOf(evidence: CountryEvidence): string {
  const stated = statedCountry(evidence);
  return isEuCountry(stated) ? stated : SELLER_COUNTRY;
}

/**
 * The VAT of a sale of `total` (minor units, VAT included). A buyer of no known country pays French
 * VAT, as at the seller's place of establishment: charging the seller's own VAT never leaves VAT
 * unpaid where the evidence is missing.
 */
export function vatFor(
  scheme: VatScheme,
  total: number,
  evidence: CountryEvidence,
  registrations: Readonly<Record<string, string>> = {},
): VatLine {
  const line = (rule: VatRule, country: string | null, rate: number, sellerVatNumber: string | null = null): VatLine => {
    // The net is rounded to the cent and the VAT is what remains, so that net + VAT is exactly the price.
    const net = Math.round((total * 10_000) / (10_000 + rate));
    return { scheme, rule, country, rate, net, vat: total - net, total, sellerVatNumber };
  };
  if (scheme === "franchise") return line("franchise", null, 0);
  const stated = statedCountry(evidence);
  if (stated !== null && !isEuCountry(stated)) {
    const number = registrations[stated];
    const rate = REGISTRATION_RATES[stated];
    if (number !== undefined && rate !== undefined) return line("registered", stated, rate, number);
    return line("outside-eu", stated, 0);
  }
  if (scheme === "oss" && isEuCountry(stated)) return line("eu-consumer", stated, EU_VAT_RATES[stated]);
  return line("seller-country", SELLER_COUNTRY, EU_VAT_RATES[SELLER_COUNTRY]);
}
