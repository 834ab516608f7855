import type { VatScheme } from "../../../shared/vat-scheme";
import { EU_VAT_RATES, isEuCountry, SELLER_COUNTRY } from "./vat-rates";

// The VAT inside a price paid VAT included. The buyer always pays PRICE; what changes with the
// scheme and the country is how much of it is VAT.

export type VatLine = {
  scheme: VatScheme;
  /** The country whose VAT applies; null under the franchise, where there is none. */
  country: string | null;
  /** Basis points: 2000 is 20 %. */
  rate: number;
  net: number;
  vat: number;
  total: number;
};

/** Where the buyer lives, as the checkout recorded it. */
export type CountryEvidence = { billingCountry: string | null; cardCountry: string | null };

/**
 * The country whose VAT an OSS sale carries. The billing address the buyer gave comes first, the
 * card's country when there is no address. A buyer outside the EU, or of no known country, pays
 * French VAT, as at the seller's place of establishment: the price is the same everywhere, and
 * charging the seller's own VAT never leaves VAT unpaid where the evidence is missing or points
 * outside the Union (the owner settles any non-EU sale with the accountant; the CSV export lists
 * them by country).
 */
export function vatCountryOf(evidence: CountryEvidence): string {
  const stated = evidence.billingCountry ?? evidence.cardCountry;
  return isEuCountry(stated) ? stated : SELLER_COUNTRY;
}

/** The VAT of a sale of `total` (minor units, VAT included) under a scheme. */
export function vatFor(scheme: VatScheme, total: number, evidence: CountryEvidence): VatLine {
  if (scheme === "franchise") return { scheme, country: null, rate: 0, net: total, vat: 0, total };
  const country = scheme === "fr" ? SELLER_COUNTRY : vatCountryOf(evidence);
  const rate = isEuCountry(country) ? EU_VAT_RATES[country] : EU_VAT_RATES[SELLER_COUNTRY];
  // The net is rounded to the cent and the VAT is what remains, so that net + VAT is exactly the price.
  const net = Math.round((total * 10_000) / (10_000 + rate));
  return { scheme, country, rate, net, vat: total - net, total };
}
