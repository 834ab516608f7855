// How the seller charges VAT (VAT_SCHEME), read by the server's invoices and by the terms of sale.

export const VAT_SCHEMES = ["franchise", "fr", "oss"] as const;
/**
 * franchise: no VAT (French "franchise en base", art. 293 B du CGI); fr: French VAT at 20 % on every
 * sale; oss: the VAT of the buyer's EU country (the One-Stop Shop, past the EU's 10,000 € threshold).
 */
export type VatScheme = (typeof VAT_SCHEMES)[number];

/** The mention French law requires on every invoice of a seller under the franchise. */
export const FRANCHISE_MENTION = "TVA non applicable, art. 293 B du CGI";
