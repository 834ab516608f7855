import { randomInt } from "node:crypto";

// Licence keys are read off an e-mail and typed into an app, often on a TV remote: no characters
// that look alike (0/O, 1/I/L), upper case only, in groups of five.
export const LICENSE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const GROUPS = 5;
const GROUP_LENGTH = 5;
/** 25 characters from 31: log2(31) x 25 ≈ 124 bits of randomness, far past guessing. */
export const LICENSE_KEY_BITS = Math.log2(LICENSE_ALPHABET.length) * GROUPS * GROUP_LENGTH;

/** A new key such as `7KQ2M-XH4PD-9CVTA-R3NWE-FJ6YB`, from the operating system's CSPRNG. */
export function generateLicenseKey(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = "";
    // randomInt draws without modulo bias.
    for (let i = 0; i < GROUP_LENGTH; i++) group += LICENSE_ALPHABET[randomInt(LICENSE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}

/**
 * The stored form of a key as someone typed it: spaces trimmed, any case, with or without dashes.
 * null when it cannot be one of ours (wrong length or a character the alphabet does not have).
 */
export function normalizeLicenseKey(input: string): string | null {
  const compact = input.trim().toUpperCase().replace(/[-\s]/g, "");
  if (compact.length !== GROUPS * GROUP_LENGTH) return null;
  for (const char of compact) if (!LICENSE_ALPHABET.includes(char)) return null;
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) groups.push(compact.slice(g * GROUP_LENGTH, (g + 1) * GROUP_LENGTH));
  return groups.join("-");
}
