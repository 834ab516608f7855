// The test card form formats two fields as they are typed, as hosted card forms do: the card number
// in groups of four, the expiry as MM/YY. The server takes the unformatted values as well (a form
// sent without JavaScript), so formatting only ever helps the visitor read what they typed.

type Formatted = { value: string; caret: number };

/**
 * `value` reformatted by `format`, and where the caret goes: after the same count of digits as
 * before, so typing, deleting or pasting in the middle keeps the caret where the visitor is working;
 * and after the separator the visitor has just typed, if the format kept one there.
 */
export function reformatKeepingCaret(value: string, caret: number, format: (value: string) => string): Formatted {
  const digitsBefore = value.slice(0, caret).replace(/\D/g, "").length;
  const typedSeparator = caret > 0 && /\D/.test(value.charAt(caret - 1));
  const formatted = format(value);
  let position = 0;
  for (let seen = 0; position < formatted.length && seen < digitsBefore; position += 1) {
    if (/\d/.test(formatted.charAt(position))) seen += 1;
  }
  if (typedSeparator) while (position < formatted.length && /\D/.test(formatted.charAt(position))) position += 1;
  return { value: formatted, caret: position };
}

/** 19 digits (the longest card numbers) and a space after every four. */
export const CARD_INPUT_MAX = 23;

/** "4242424242424242" (or with dashes) → "4242 4242 4242 4242", at most 19 digits. */
const groupDigits = (value: string) =>
  value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

/** A card number as typed or pasted, in groups of four, and where the caret goes. */
export const groupCardNumber = (value: string, caret: number): Formatted => reformatKeepingCaret(value, caret, groupDigits);

/** "MM / YYYY", the longest expiry the form takes as typed or pasted (it becomes "MM/YYYY"). */
export const EXPIRY_INPUT_MAX = 9;

/**
 * An expiry as typed → "MM/YY": the slash comes after the second digit of a month ("1234" →
 * "12/34", "122034" → "12/2034"); a slash the visitor typed stays where it is ("1/34"), with the
 * spaces around it dropped ("12 / 34" → "12/34"). Only deleting the slash's digits removes it, so
 * Backspace works as expected.
 */
export function formatExpiry(value: string): string {
  const slash = value.indexOf("/");
  if (slash !== -1) {
    const month = value.slice(0, slash).replace(/\D/g, "").slice(0, 2);
    const year = value
      .slice(slash + 1)
      .replace(/\D/g, "")
      .slice(0, 4);
    return `${month}/${year}`;
  }
  const digits = value.replace(/\D/g, "").slice(0, 6);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

export const formatExpiryInput = (value: string, caret: number): Formatted => reformatKeepingCaret(value, caret, formatExpiry);

/** Puts the formatted value into the field (only when it differs, so the caret is left alone otherwise). */
export function applyFormat(input: HTMLInputElement, format: (value: string, caret: number) => Formatted): void {
  const next = format(input.value, input.selectionStart ?? input.value.length);
  if (next.value === input.value) return;
  input.value = next.value;
  input.setSelectionRange(next.caret, next.caret);
}
