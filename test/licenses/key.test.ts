import { expect, test } from "bun:test";
import { generateLicenseKey, LICENSE_KEY_BITS } from "../../server/shop/licenses/key";
import { LICENSE_ALPHABET, normalizeLicenseKey } from "../../shared/license-key";

test("a licence key is five groups of five characters without look-alikes, with more than 100 bits of randomness", () => {
  expect(LICENSE_KEY_BITS).toBeGreaterThan(100);
  for (const ambiguous of ["0", "O", "1", "I", "L"]) expect(LICENSE_ALPHABET).not.toContain(ambiguous);
  const keys = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const key = generateLicenseKey();
    expect(key).toMatch(/^[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){4}$/);
    keys.add(key);
  }
  expect(keys.size).toBe(5000);
});

test("every character of the alphabet turns up: keys are drawn from all of it", () => {
  const seen = new Set(Array.from({ length: 400 }, generateLicenseKey).join("").replace(/-/g, ""));
  expect(seen.size).toBe(LICENSE_ALPHABET.length);
});

test("a typed key is read with or without dashes, in any case, with spaces around; anything else is not a key", () => {
  const key = generateLicenseKey();
  expect(normalizeLicenseKey(key)).toBe(key);
  expect(normalizeLicenseKey(`  ${key.toLowerCase().replace(/-/g, "")} `)).toBe(key);
  expect(normalizeLicenseKey(key.replace(/-/g, " "))).toBe(key);
  expect(normalizeLicenseKey(key.slice(0, -1))).toBeNull();
  expect(normalizeLicenseKey(`${key.slice(0, -1)}0`)).toBeNull();
  expect(normalizeLicenseKey("")).toBeNull();
});
