import { expect, test } from "bun:test";
import { groupCardNumber } from "../../client/components/card-form";

// The test checkout groups the card number by four as it is typed; the caret stays after the digit
// the visitor just typed or deleted. "|" marks the caret in these cases.
function typed(withCaret: string): string {
  const caret = withCaret.indexOf("|");
  const next = groupCardNumber(withCaret.replace("|", ""), caret);
  return `${next.value.slice(0, next.caret)}|${next.value.slice(next.caret)}`;
}

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
