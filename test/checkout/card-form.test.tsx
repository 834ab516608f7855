import { expect, test } from "bun:test";
import type { TestCheckoutView } from "../../shared/page-data";
import { useDom } from "../support/dom";
import { makePageData } from "../support/page-data";

useDom();

const { render, screen, fireEvent } = await import("@testing-library/react");
const { IslandTestRoot } = await import("../support/islands");
const { CardForm } = await import("../../client/components/card-form");

// The test card page's form with JavaScript: the expiry is formatted as MM/YY as it is typed, as on
// hosted card forms, so "1234" is as good as "12/34".

const view: TestCheckoutView = {
  page: "test-checkout",
  session: {
    id: "cs_test_form",
    amount: "€29.99",
    status: "open",
    cancelUrl: "/en/payment-canceled",
    successUrl: "/en/payment-success?session_id=cs_test_form",
    paymentPath: "/en/paiement",
    consented: true,
    free: false,
    testMode: true,
  },
  purchaseNotice: true,
  values: { email: "", name: "", city: "", country: "GB" },
  countries: [
    { code: "GB", name: "United Kingdom" },
    { code: "DE", name: "Germany" },
  ],
  errors: {},
};

function renderForm() {
  render(
    <IslandTestRoot names={["card-form"]} page={makePageData(view, "en")}>
      <CardForm view={view} />
    </IslandTestRoot>,
  );
  const expiry = screen.getByLabelText("Expiry (MM/YY)");
  if (!(expiry instanceof HTMLInputElement)) throw new Error("no expiry field");
  return expiry;
}

/** Types `text` one character at a time at the end of the field, as a visitor does. */
function typeInto(input: HTMLInputElement, text: string) {
  for (const char of text) {
    const value = input.value + char;
    fireEvent.change(input, { target: { value, selectionStart: value.length, selectionEnd: value.length } });
  }
}

test("the expiry gets its slash as the digits are typed: 1234 becomes 12/34, 122034 becomes 12/2034", () => {
  const expiry = renderForm();
  typeInto(expiry, "12");
  expect(expiry.value).toBe("12");
  typeInto(expiry, "3");
  expect(expiry.value).toBe("12/3");
  typeInto(expiry, "4");
  expect(expiry.value).toBe("12/34");
  typeInto(expiry, "56");
  expect(expiry.value).toBe("12/3456");
  fireEvent.change(expiry, { target: { value: "" } });
  typeInto(expiry, "122034");
  expect(expiry.value).toBe("12/2034");
});

test("a slash the visitor types is kept (once), spaces around it go, and a pasted MM / YYYY fits the field", () => {
  const expiry = renderForm();
  typeInto(expiry, "12/");
  expect(expiry.value).toBe("12/");
  typeInto(expiry, "/34");
  expect(expiry.value).toBe("12/34");
  fireEvent.change(expiry, { target: { value: "" } });
  typeInto(expiry, "1/34");
  expect(expiry.value).toBe("1/34");
  fireEvent.change(expiry, { target: { value: "12 / 2034" } });
  expect(expiry.value).toBe("12/2034");
  // Backspace over the digit after the slash leaves the slash; once more, and it goes with the digits.
  fireEvent.change(expiry, { target: { value: "12/" } });
  expect(expiry.value).toBe("12/");
  fireEvent.change(expiry, { target: { value: "12" } });
  expect(expiry.value).toBe("12");
});

test("an expiry typed without a slash passes the form's check; an impossible or past one gets the same message as before", () => {
  const expiry = renderForm();
  const pay = screen.getByRole("button", { name: /Pay €29.99/ });
  typeInto(expiry, "1234");
  // The e-mail is left empty, so the form stays on the page and shows what it found.
  fireEvent.click(pay);
  expect(screen.getByText("Please enter a valid e-mail address.")).toBeTruthy();
  expect(screen.queryByText("This expiry date is not valid or has passed.")).toBeNull();
  expect(expiry.getAttribute("aria-invalid")).toBeNull();

  for (const typed of ["1320", "0120"]) {
    fireEvent.change(expiry, { target: { value: "" } });
    typeInto(expiry, typed);
    fireEvent.click(pay);
    const message = screen.getByText("This expiry date is not valid or has passed.");
    expect(expiry.getAttribute("aria-invalid")).toBe("true");
    expect(expiry.getAttribute("aria-describedby")).toBe(message.id);
  }
});

test("no consent box: the line says what was accepted on the payment page; the name and city are read with the purchase-notice note, also once in error", () => {
  renderForm();
  expect(screen.queryByRole("checkbox")).toBeNull();
  expect(screen.getByTestId("consent-given").textContent).toContain(
    "On the previous page you accepted the terms of sale and asked for immediate access",
  );
  expect(screen.getByRole("link", { name: "terms of sale" }).getAttribute("href")).toBe("/en/cgv");
  const note = screen.getByTestId("purchase-notice");
  expect(note.textContent).toBe(
    "Your first name's initial and your city appear in the recent-purchases notice, for 30 days, only if you tick the box for it on the payment page.",
  );
  const name = screen.getByLabelText("Full name");
  expect(name.getAttribute("aria-describedby")).toBe(note.id);
  expect(screen.getByLabelText("City").getAttribute("aria-describedby")).toBe(note.id);
  fireEvent.click(screen.getByRole("button", { name: /Pay €29.99/ }));
  expect(name.getAttribute("aria-describedby")).toBe(`${screen.getByText("Please enter your name.").id} ${note.id}`);
  expect(document.activeElement).toBe(screen.getByLabelText("E-mail"));
});
