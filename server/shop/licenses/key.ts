import { randomInt } from "node:crypto";
import { LICENSE_ALPHABET, LICENSE_GROUP_LENGTH, LICENSE_GROUPS } from "../../../shared/license-key";

// Licence keys are read off an e-mail and typed into an app, often on a TV remote: no characters
// that look alike, upper case only, in groups of five.

/** 25 characters from 31: log2(31) x 25 ≈ 124 bits of randomness, far past guessing. */
export const LICENSE_KEY_BITS = Math.log2(LICENSE_ALPHABET.length) * LICENSE_GROUPS * LICENSE_GROUP_LENGTH;

/** A new key such as `7KQ2M-XH4PD-9CVTA-R3NWE-FJ6YB`, from the operating system's CSPRNG. */
export function generateLicenseKey(): string {
  const groups: string[] = [];
  for (let g = 0; g < LICENSE_GROUPS; g++) {
    let group = "";
    // randomInt draws without modulo bias.
    for (let i = 0; i < LICENSE_GROUP_LENGTH; i++) group += LICENSE_ALPHABET[randomInt(LICENSE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}
