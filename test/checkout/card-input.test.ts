import { expect, test } from "bun:test";
import { formatExpiryInput, groupCardNumber } from "../../client/components/card-input";

// The test checkout groups the card number by four and puts the expiry's slash as they are typed;
// the caret stays after the digit the visitor just typed or deleted. "|" marks the caret here.
function formatted(format: typeof groupCardNumber, withCaret: string): string {
  const caret = withCaret.indexOf("|");
  const next = format(withCaret.replace("|", ""), caret);
  return `${next.value.slice(0, next.caret)}|${next.value.slice(next.caret)}`;
}
const typed = (withCaret: string) => formatted(groupCardNumber, withCaret);
const expiry = (withCaret: string) => formatted(formatExpiryInput, withCaret);

test("a fifth digit typed at the end starts a new group, the caret after it", () => {
  expect(typed("42424|")).toBe("4242 4|");
  expect(typed("4242 42424|")).toBe("4242 4242 4|");
});

test("a pasted number (with or without dashes) is grouped, the caret at its end", () => {
  expect(typed("4242424242424242|")).toBe("4242 4242 4242 4242|");
  expect(typed("4000-0000-0000-0002|")).toBe("4000 0000 0000 0002|");
});

test("a digit typed in the middle moves the following digits along, the caret stays after it", () => {
  expect(typed("42424| 4242")).toBe("4242 4|424 2");
  expect(typed("1|4242 4242")).toBe("1|424 2424 2");
});

test("deleting the space before a group keeps the digits and the caret beside them", () => {
  expect(typed("4242|4242")).toBe("4242| 4242");
});

test("letters and more than 19 digits are dropped", () => {
  expect(typed("42a4|")).toBe("424|");
  expect(typed("42424242424242424242424|")).toBe("4242 4242 4242 4242 424|");
});

test("expiry: the slash comes after the month's two digits, the caret after the digit just typed", () => {
  expect(expiry("1|")).toBe("1|");
  expect(expiry("123|")).toBe("12/3|");
  expect(expiry("1234|")).toBe("12/34|");
  expect(expiry("12/34|")).toBe("12/34|");
});

test("expiry: a second slash typed after the first is dropped, the caret stays after the slash", () => {
  expect(expiry("12//|")).toBe("12/|");
  expect(expiry("12 /| 34")).toBe("12/|34");
});

test("expiry: a one-digit month typed with its slash stays; a slash deleted between month and year comes back", () => {
  expect(expiry("1/|")).toBe("1/|");
  expect(expiry("1/34|")).toBe("1/34|");
  expect(expiry("12|34")).toBe("12|/34");
});
