import { LICENSE_ALPHABET } from "./license-key";

// The name a buyer knows an order by, in every URL, page and e-mail: twelve characters from the
// licence keys' alphabet (no look-alikes), in groups of four, e.g. `K7QM-2XHD-9CVT`. Random, so
// that it tells nobody how many sales the shop made and nobody finds another buyer's order by
// counting: log2(31) x 12 ≈ 59 bits, with every lookup rate-limited.
export const ORDER_REFERENCE_GROUPS = 3;
export const ORDER_REFERENCE_GROUP_LENGTH = 4;
export const ORDER_REFERENCE_ALPHABET = LICENSE_ALPHABET;

/** The stored form of a reference as someone typed it (any case, with or without dashes); null when it cannot be one. */
export function normalizeOrderReference(input: string): string | null {
  const compact = input.trim().toUpperCase().replace(/[-\s]/g, "");
  if (compact.length !== ORDER_REFERENCE_GROUPS * ORDER_REFERENCE_GROUP_LENGTH) return null;
  for (const char of compact) if (!ORDER_REFERENCE_ALPHABET.includes(char)) return null;
  const groups: string[] = [];
  for (let g = 0; g < ORDER_REFERENCE_GROUPS; g++) {
    groups.push(compact.slice(g * ORDER_REFERENCE_GROUP_LENGTH, (g + 1) * ORDER_REFERENCE_GROUP_LENGTH));
  }
  return groups.join("-");
}

/** A new reference such as `K7QM-2XHD-9CVT`, from the platform's CSPRNG (Web Crypto, on both sides). */
export function generateOrderReference(): string {
  const size = ORDER_REFERENCE_ALPHABET.length;
  // Bytes at or past the largest multiple of the alphabet's size are drawn again: no modulo bias.
  const limit = 256 - (256 % size);
  const chars: string[] = [];
  while (chars.length < ORDER_REFERENCE_GROUPS * ORDER_REFERENCE_GROUP_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < limit && chars.length < ORDER_REFERENCE_GROUPS * ORDER_REFERENCE_GROUP_LENGTH)
        chars.push(ORDER_REFERENCE_ALPHABET[byte % size] ?? "");
    }
  }
  const groups: string[] = [];
  for (let g = 0; g < ORDER_REFERENCE_GROUPS; g++) {
    groups.push(chars.slice(g * ORDER_REFERENCE_GROUP_LENGTH, (g + 1) * ORDER_REFERENCE_GROUP_LENGTH).join(""));
  }
  return groups.join("-");
}
