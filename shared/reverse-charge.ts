import { isEuMemberState } from "./business-buyer";
import { normalizeVatNumber, vatNumberProblem } from "./vat-number";

// Who pays the price excluding VAT, and how much that is: a company established in another EU
// member state that gives a VAT number (reverse charge). Decided here once for both sides: the
// server charges and invoices it (server/shop/checkout/service.ts, server/shop/paperwork/vat.ts),
// and the payment page shows the same figure as the buyer types the company's details.

/** Where the seller is established: its VAT applies where no other country's may. */
export const SELLER_COUNTRY = "FR";

/** The seller's country's standard rate in basis points (20 %): the VAT a French consumer's price includes. */
export const SELLER_VAT_RATE = 2000;

/** A company established in another member state that gave a (well-formed) VAT number: the sale is reverse-charged. */
export const isReverseCharged = (evidence: { companyCountry?: string | null; buyerVatNumber?: string | null }): boolean =>
  evidence.companyCountry != null &&
  evidence.companyCountry !== SELLER_COUNTRY &&
  isEuMemberState(evidence.companyCountry) &&
  evidence.buyerVatNumber != null;

/**
 * The payment page's company section as typed so far: reverse-charged once its country is another
 * member state and its VAT number has that country's format (and check digits), as the server will
 * find it when the buyer pays.
 */
export function isReverseChargedAsTyped(country: string, vatNumber: string): boolean {
  const code = country.trim().toUpperCase();
  if (vatNumber.trim() === "" || !isEuMemberState(code)) return false;
  const number = normalizeVatNumber(vatNumber, code);
  return vatNumberProblem(number, code) === null && isReverseCharged({ companyCountry: code, buyerVatNumber: number });
}

/** The part of `total` (VAT included) that is not VAT at `rate` (basis points), rounded to the cent. */
export const netOf = (total: number, rate: number): number => Math.round((total * 10_000) / (10_000 + rate));

/**
 * What a reverse-charged business pays for a price a French consumer pays `total` for: the price
 * less the French VAT it includes; the same price when the seller charges no VAT (the franchise).
 */
export const priceForBusiness = (chargesVat: boolean, total: number): number => (chargesVat ? netOf(total, SELLER_VAT_RATE) : total);

/**
 * A discount code's figures for a reverse-charged business, all excluding VAT, so that list −
 * reduction = total: the code reduces first, the VAT is then taken off the reduced price (the base
 * a French consumer's VAT is computed on).
 */
export function businessFigures(chargesVat: boolean, code: { listAmount: number; amount: number }) {
  const listAmount = priceForBusiness(chargesVat, code.listAmount);
  const amount = priceForBusiness(chargesVat, code.amount);
  return { listAmount, amount, discountAmount: listAmount - amount };
}
