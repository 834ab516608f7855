import { isReverseCharged, netOf } from "../../../shared/reverse-charge";
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
 * outside the EU where the seller is registered (VAT_REGISTRATIONS), its VAT. reverse-charge: a
 * business established in another member state, with a VAT number: no VAT, the buyer accounts for it
 * (Directive 2006/112/EC art. 44 and 196, CGI art. 259-1° and 283-2).
 */
export const VAT_RULES = ["franchise", "seller-country", "eu-consumer", "outside-eu", "registered", "reverse-charge"] as const;
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

/**
 * Where the buyer lives, as the checkout recorded it; for a company buyer, the country it declared
 * and its VAT number (the place of supply of a service to a business is where it is established).
 */
export type CountryEvidence = {
  billingCountry: string | null;
  cardCountry: string | null;
  companyCountry?: string | null;
  buyerVatNumber?: string | null;
};

/**
 * Standard rates of the countries outside the EU where a foreign seller of electronic services to
 * consumers registers from the first sale (no threshold): the UK (20 %), Switzerland (8.1 %; its
 * threshold counts worldwide turnover, the owner checks it), Norway (25 %). Basis points.
 */
export const REGISTRATION_RATES: Readonly<Record<string, number>> = { GB: 2000, CH: 810, NO: 2500 };

/** The buyer's country as the evidence states it: the billing address first, the card's country without one. */
export const statedCountry = (evidence: CountryEvidence): string | null =>
  evidence.companyCountry ?? evidence.billingCountry ?? evidence.cardCountry;

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
    const net = netOf(total, rate);
    return { scheme, rule, country, rate, net, vat: total - net, total, sellerVatNumber };
  };
  // A reverse-charged order was charged the price excluding VAT already: all of it is net.
  if (isReverseCharged(evidence)) return line("reverse-charge", evidence.companyCountry ?? null, 0);
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

/**
 * The evidence kept on an order of the rule decided when its checkout started: which rule, why, and
 * what it rests on. The card's country, known once paid, is on the order beside it.
 */
export type TaxEvidence = {
  rule: VatRule;
  /** Why, in the owner's words (English, like the CLI): shown on the console's order page and in `orders export`. */
  why: string;
  companyCountry: string | null;
  vatNumber: string | null;
  /** How the VAT number was checked: its format and check digits, or its format only (never VIES). */
  vatNumberChecked: "check-digits" | "format" | null;
  /** The visitor's country from the IP address: the site has no geolocation, so null (not known). */
  ipCountry: string | null;
};

/** The evidence of a company buyer's rule, written when the checkout starts; null for a consumer's purchase. */
export function businessEvidence(
  scheme: VatScheme,
  business: { country: string; vatNumber: string | null } | null,
  registrations: Readonly<Record<string, string>>,
  checkDigits: (country: string) => boolean,
): TaxEvidence | null {
  if (business === null) return null;
  const { country, vatNumber } = business;
  // The rule the invoice will carry, decided by the same function.
  const { rule } = vatFor(
    scheme,
    0,
    { billingCountry: null, cardCountry: null, companyCountry: country, buyerVatNumber: vatNumber },
    registrations,
  );
  const why: Record<VatRule, string> = {
    "reverse-charge": `Business in ${country} (another EU member state) with VAT number ${vatNumber}: reverse charge, price excl. VAT`,
    franchise: `Business in ${country}: the seller charges no VAT (franchise)`,
    "seller-country":
      country === SELLER_COUNTRY
        ? "Business in France: French VAT"
        : `Business in ${country} without a VAT number: taxed as a consumer, French VAT`,
    "eu-consumer": `Business in ${country} without a VAT number: taxed as a consumer, VAT of ${country}`,
    "outside-eu": `Business outside the EU (${country}): no VAT, as for a buyer outside the EU`,
    registered: `Business in ${country}, where the seller is registered: VAT of ${country}`,
  };
  return {
    rule,
    why: country === SELLER_COUNTRY && rule !== "franchise" ? "Business in France: French VAT" : why[rule],
    companyCountry: country,
    vatNumber,
    vatNumberChecked: vatNumber === null || !isEuCountry(country) ? null : checkDigits(country) ? "check-digits" : "format",
    ipCountry: null,
  };
}
