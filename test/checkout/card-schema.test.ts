import { expect, test } from "bun:test";
import { checkTestCard, expiryValid, luhnValid } from "../../shared/schemas/payment";

const NOW = new Date("2026-06-15T12:00:00Z");
const good = { email: " Ana@Example.com ", name: "Ana Lopez", city: "Madrid", card: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" };

test("Luhn: the test cards pass, a single wrong digit fails", () => {
  expect(luhnValid("4242424242424242")).toBe(true);
  expect(luhnValid("4000000000000002")).toBe(true);
  expect(luhnValid("4242424242424241")).toBe(false);
  expect(luhnValid("1234")).toBe(false);
  expect(luhnValid("42424242abcd4242")).toBe(false);
});

test("expiry: this month is still valid, last month and nonsense are not", () => {
  expect(expiryValid("06/26", NOW)).toBe(true);
  expect(expiryValid("6 / 2026", NOW)).toBe(true);
  expect(expiryValid("05/26", NOW)).toBe(false);
  expect(expiryValid("13/30", NOW)).toBe(false);
  expect(expiryValid("00/30", NOW)).toBe(false);
  expect(expiryValid("0626", NOW)).toBe(true);
});

test("expiry: typed without the slash or with a four-digit year it is the same date", () => {
  for (const typed of ["1230", "12/30", "12 / 30", "12/2030", "122030", " 1230 ", "1/30"]) expect(expiryValid(typed, NOW)).toBe(true);
  // Ambiguous or incomplete without a slash, an impossible month, a past date.
  for (const typed of ["130", "123", "12345", "12/3", "1330", "0526"]) expect(expiryValid(typed, NOW)).toBe(false);
});

test("a complete form is accepted with the card number's spaces removed and the e-mail normalised", () => {
  const result = checkTestCard(good, NOW);
  expect(result).toEqual({ ok: true, card: { ...good, email: "ana@example.com", card: "4242424242424242" } });
});

test("every problem is reported at once, as the page's message keys", () => {
  const result = checkTestCard({ email: "nope", name: " ", city: "", card: "4242 4242 4242 4241", expiry: "01/20", cvc: "12" }, NOW);
  expect(result).toEqual({
    ok: false,
    errors: {
      email: "checkout.invalidEmail",
      name: "checkout.invalidName",
      city: "checkout.invalidCity",
      card: "checkout.invalidCard",
      expiry: "checkout.invalidExpiry",
      cvc: "checkout.invalidCvc",
    },
  });
});

test("a CVC of letters or five digits is refused; four digits are fine", () => {
  expect(checkTestCard({ ...good, cvc: "abc" }, NOW).ok).toBe(false);
  expect(checkTestCard({ ...good, cvc: "12345" }, NOW).ok).toBe(false);
  expect(checkTestCard({ ...good, cvc: "1234" }, NOW).ok).toBe(true);
});

test("missing fields are reported, not thrown", () => {
  const result = checkTestCard({}, NOW);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["card", "city", "cvc", "email", "expiry", "name"]);
});
