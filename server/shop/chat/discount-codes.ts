import { words } from "./words";

// "I have the code SPRING20, where do I put it?", "vous avez un code promo ?": the site says where a
// discount code is typed (the payment page's own hint) and the payment page tells whether a code
// exists, so that is the answer, never the licence key's text (buyers call their key a "code" too)
// nor a yes or no about a code the chat cannot check (checking it here would let anyone guess codes).
// A question about a code is told by the site's own name for the field (the payment page's label,
// in every language), the other names buyers give it, or the word "code" beside a code as codes
// are typed (capitals and digits, without the dashes of a licence key).

/** Other names of a discount code, in the four languages (accents left out, as `words` reads them). */
const CODE_PHRASES = [
  "promo code",
  "promotional code",
  "coupon",
  "voucher",
  "code promo",
  "code de reduc",
  "code reduc",
  "bon de reduction",
  "codice promo",
  "codice promozionale",
  "buono sconto",
  "coupon sconto",
  "codigo promocional",
  "codigo promo",
  "cupon",
  "cupon de descuento",
];

/** The words that name a code, in the four languages. */
const CODE_WORDS = new Set(["code", "codes", "codice", "codici", "codigo", "codigos"]);

/** A code as typed: capitals and at least one digit, four characters or more, not a piece of a licence key. */
const TYPED_CODE = /(?<![\p{L}\d-])(?=[A-Z\d]*[A-Z])(?=[A-Z\d]*\d)[A-Z\d]{4,}(?![\p{L}\d-])/u;

/** True when `said` holds the words of `phrase` one after the other. */
function holds(said: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= said.length; i++) {
    if (phrase.length > 0 && phrase.every((word, k) => said[i + k] === word)) return true;
  }
  return false;
}

export type DiscountCodes = { asked(question: string): boolean };

/** `fieldNames`: the payment page's label of the code field, in every language ("Discount code (optional)"). */
export function discountCodes(fieldNames: readonly string[]): DiscountCodes {
  const phrases = [...fieldNames.map((name) => name.replace(/\(.*?\)/g, " ")), ...CODE_PHRASES]
    .map((phrase) => words(phrase))
    .filter((phrase) => phrase.length > 0);
  return {
    asked(question) {
      const said = words(question);
      if (phrases.some((phrase) => holds(said, phrase))) return true;
      return said.some((word) => CODE_WORDS.has(word)) && TYPED_CODE.test(question);
    },
  };
}
