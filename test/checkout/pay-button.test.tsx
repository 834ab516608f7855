import { afterEach, expect, test } from "bun:test";
import { useDom } from "../support/dom";
import { makePageData } from "../support/page-data";

useDom();

const { render, screen, fireEvent, waitFor } = await import("@testing-library/react");
const { IslandTestRoot } = await import("../support/islands");
const { PayButton } = await import("../../client/components/pay-button");

// The pay button with JavaScript (docs/product.md, "Behaviour the pages keep"): busy, then
// redirect; or back to idle with the error toast. The server answers are stubbed at fetch.

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

type Answer = { status: number; body: unknown } | "network-error" | "never";
function stubFetch(answer: Answer) {
  const calls: { url: string; body: string }[] = [];
  const stub = async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), body: String(init?.body) });
    if (answer === "network-error") throw new TypeError("Failed to fetch");
    if (answer === "never") return new Promise<Response>(() => {});
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
  };
  globalThis.fetch = Object.assign(stub, { preconnect: () => {} });
  return calls;
}

/** The button on the payment page; the buyer ticks the consent box first unless `consent` is false. */
function renderButton(locale: "fr" | "en" = "fr", consent = true, businessPrice?: string) {
  const navigations: string[] = [];
  render(
    <IslandTestRoot names={["pay-button"]} page={makePageData({ page: "payment", purchaseNotice: false }, locale)}>
      <PayButton
        consentMissing={false}
        price={locale === "fr" ? "29,99 €" : "€29.99"}
        businessPrice={businessPrice}
        codePreviewPath="/api/payment/code"
        navigate={(url) => navigations.push(url)}
      />
    </IslandTestRoot>,
  );
  if (consent) fireEvent.click(screen.getByRole("checkbox"));
  return navigations;
}

test("before the box is ticked the button says it cannot pay yet (aria-disabled) with the reason beside it; ticked, it is a pay button again", async () => {
  const calls = stubFetch({ status: 200, body: { url: "/checkout/test/cs_test_abc" } });
  renderButton("fr", false);
  const button = screen.getByRole("button", { name: /Payer 29,99/ });
  await waitFor(() => expect(button.getAttribute("aria-disabled")).toBe("true"));
  const reason = screen.getByText("Cochez la case ci-dessus pour pouvoir payer.");
  expect(button.getAttribute("aria-describedby")).toBe(reason.id);

  fireEvent.click(screen.getByRole("checkbox"));
  expect(button.hasAttribute("aria-disabled")).toBe(false);
  expect(screen.queryByText("Cochez la case ci-dessus pour pouvoir payer.")).toBeNull();
  fireEvent.click(screen.getByRole("checkbox"));
  expect(button.getAttribute("aria-disabled")).toBe("true");
  expect(calls).toEqual([]);
});

test("without the consent box ticked nothing is sent: the box says why and takes the focus; ticking it clears the message", async () => {
  const calls = stubFetch({ status: 200, body: { url: "/checkout/test/cs_test_abc" } });
  const navigations = renderButton("en", false);
  const box = screen.getByRole("checkbox", { name: /I accept the terms of sale and ask for immediate access/ });
  expect(box.hasAttribute("checked")).toBe(false);
  fireEvent.click(screen.getByRole("button", { name: /Pay €29.99/ }));
  const message = await screen.findByText("To pay, tick the box: you accept the terms of sale and ask for immediate access.");
  expect(calls).toEqual([]);
  expect(navigations).toEqual([]);
  expect(document.activeElement).toBe(box);
  expect(box.getAttribute("aria-invalid")).toBe("true");
  expect(box.getAttribute("aria-describedby")).toBe(message.id);
  // The terms are one click away, in the visitor's language.
  expect(screen.getByRole("link", { name: "terms of sale" }).getAttribute("href")).toBe("/en/cgv");

  fireEvent.click(box);
  expect(screen.queryByText("To pay, tick the box: you accept the terms of sale and ask for immediate access.")).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: /Pay €29.99/ }));
  await waitFor(() => expect(navigations).toEqual(["/checkout/test/cs_test_abc"]));
  expect(calls).toEqual([{ url: "/api/payment", body: JSON.stringify({ locale: "en", acceptTerms: true, showInNotice: false }) }]);
});

test("while the checkout is being created the button is disabled and says it is redirecting", async () => {
  const calls = stubFetch("never");
  renderButton("fr");
  fireEvent.click(screen.getByRole("button", { name: /Payer 29,99/ }));
  const busy = await screen.findByRole("button", { name: "Redirection…" });
  expect(busy.hasAttribute("disabled")).toBe(true);
  expect(calls).toEqual([{ url: "/api/payment", body: JSON.stringify({ locale: "fr", acceptTerms: true, showInNotice: false }) }]);
});

test("the browser is sent to the returned URL", async () => {
  stubFetch({ status: 200, body: { url: "/checkout/test/cs_test_abc" } });
  const navigations = renderButton("en");
  fireEvent.click(screen.getByRole("button", { name: /Pay €29.99/ }));
  await waitFor(() => expect(navigations).toEqual(["/checkout/test/cs_test_abc"]));
});

test("a provider failure returns to idle with the translated error toast", async () => {
  stubFetch({ status: 502, body: { error: "The payment provider is unavailable" } });
  const navigations = renderButton("fr");
  fireEvent.click(screen.getByRole("button", { name: /Payer/ }));
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toContain("Une erreur est survenue");
  expect(alert.textContent).toContain("Réessayez dans un instant.");
  const button = await screen.findByRole("button", { name: /Payer 29,99/ });
  expect(button.hasAttribute("disabled")).toBe(false);
  expect(navigations).toEqual([]);
});

test("too many attempts says to wait a few minutes, not 'in a moment'", async () => {
  stubFetch({ status: 429, body: { error: "Rate limit exceeded: too many payment attempts" } });
  renderButton("en");
  fireEvent.click(screen.getByRole("button", { name: /Pay/ }));
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toContain("Too many attempts. Please wait a few minutes and try again.");
});

test("an answer without url shows 'URL de paiement introuvable.'", async () => {
  stubFetch({ status: 200, body: {} });
  renderButton("fr");
  fireEvent.click(screen.getByRole("button", { name: /Payer/ }));
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toContain("URL de paiement introuvable.");
});

test("a network failure shows the translated description, in English for an English visitor", async () => {
  stubFetch("network-error");
  renderButton("en");
  fireEvent.click(screen.getByRole("button", { name: /Pay/ }));
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toContain("An error occurred");
  expect(alert.textContent).toContain("Please try again in a moment.");
});

test("without JavaScript the same button is a form posting the locale to /api/payment", () => {
  renderButton("en");
  const form = screen.getByRole("button", { name: /Pay/ }).closest("form")!;
  expect(form.getAttribute("method")).toBe("post");
  expect(form.getAttribute("action")).toBe("/api/payment");
  expect(form.querySelector<HTMLInputElement>('input[name="locale"]')!.value).toBe("en");
});

test("with JavaScript the company's country list holds every country, and the link to the full list goes", async () => {
  renderButton("en");
  const select = screen.getByRole("combobox", { name: "Company's country" });
  await waitFor(() => expect(select.querySelector('option[value="US"]')).not.toBeNull());
  expect(select.querySelectorAll("option").length).toBeGreaterThan(240);
  expect(screen.queryByRole("link", { name: "Another country? Show every country" })).toBeNull();
});

test("Apply with JavaScript: the code's total shows without leaving the page (list price struck, the reduction named), the pay button says it; Remove brings the price back", async () => {
  const calls = stubFetch({ status: 200, body: { code: "SPRING20", list: "29,99 €", off: "6 €", total: "23,99 €", free: false } });
  window.history.replaceState(null, "", "/paiement");
  const navigations = renderButton("fr");
  fireEvent.change(screen.getByRole("textbox", { name: "Code de réduction (facultatif)" }), { target: { value: " spring20" } });
  fireEvent.click(screen.getByRole("button", { name: "Appliquer" }), { detail: 1 });
  await waitFor(() =>
    expect(screen.getByTestId("code-applied").textContent?.replace(/\s+/g, " ")).toBe(
      "Code SPRING20 appliqué : 6 € de réduction. Retirer le code",
    ),
  );
  expect(calls).toEqual([{ url: "/api/payment/code", body: JSON.stringify({ locale: "fr", code: "spring20" }) }]);
  expect(screen.getByTestId("order-total").textContent?.replace(/\s+/g, " ")).toBe("Prix sans le code : 29,99 € 23,99 €");
  expect(screen.getByTestId("list-price").tagName).toBe("DEL");
  expect(screen.getByTestId("code-reduction").textContent?.replace(/\s+/g, " ")).toBe("Réduction SPRING20 : −6 €");
  expect(screen.getByRole("button", { name: /Payer 23,99 €/ })).toBeDefined();
  // A reload, or another language, keeps it: the address says the code.
  expect(window.location.search).toBe("?code=SPRING20");
  expect(navigations).toEqual([]);

  fireEvent.click(screen.getByRole("link", { name: "Retirer le code" }));
  expect(screen.getByTestId("order-total").textContent).toBe("29,99 €");
  expect(screen.getByRole("textbox", { name: "Code de réduction (facultatif)" })).toHaveProperty("value", "");
  expect(document.activeElement?.id).toBe("discount-code");
  expect(window.location.search).toBe("");
  expect(screen.getByRole("button", { name: /Payer 29,99/ })).toBeDefined();
});

test("a partner's ?ref= survives applying and removing a code, and the order still names the partner", async () => {
  stubFetch({ status: 200, body: { code: "SPRING20", list: "29,99 €", off: "6 €", total: "23,99 €", free: false } });
  window.history.replaceState(null, "", "/paiement?ref=blogueur");
  renderButton("fr");
  const field = screen.getByRole("textbox", { name: "Code de réduction (facultatif)" });
  fireEvent.change(field, { target: { value: "spring20" } });
  fireEvent.click(screen.getByRole("button", { name: "Appliquer" }), { detail: 1 });
  await screen.findByTestId("code-applied");
  expect(window.location.search).toBe("?code=SPRING20&ref=blogueur");

  fireEvent.click(screen.getByRole("link", { name: "Retirer le code" }));
  expect(window.location.search).toBe("?ref=blogueur");

  stubFetch({ status: 200, body: { code: "SPRING20", list: "29,99 €", off: "6 €", total: "23,99 €", free: false } });
  fireEvent.change(field, { target: { value: "spring20" } });
  fireEvent.click(screen.getByRole("button", { name: "Appliquer" }), { detail: 1 });
  await screen.findByTestId("code-applied");
  const calls = stubFetch({ status: 200, body: { url: "/checkout/test/cs_test_abc" } });
  fireEvent.click(screen.getByRole("button", { name: /Payer 23,99 €/ }));
  await waitFor(() => expect(calls.length).toBe(1));
  expect(JSON.parse(calls[0]?.body ?? "{}")).toMatchObject({ code: "SPRING20", ref: "blogueur" });
  window.history.replaceState(null, "", "/paiement");
});

test("Apply with JavaScript: a refused code is said beside the field in the page's language and the price stays; too many tries says to wait", async () => {
  stubFetch({ status: 422, body: { error: "This discount code has expired", code: "code-expired" } });
  renderButton("en");
  const field = screen.getByRole("textbox", { name: "Discount code (optional)" });
  fireEvent.change(field, { target: { value: "OLD" } });
  fireEvent.click(screen.getByRole("button", { name: "Apply" }), { detail: 1 });
  const said = await screen.findByText("This discount code has expired.");
  expect(said.getAttribute("role")).toBe("alert");
  expect(field.getAttribute("aria-invalid")).toBe("true");
  expect(screen.getByTestId("order-total").textContent).toBe("€29.99");

  stubFetch({ status: 429, body: { error: "Rate limit exceeded" } });
  fireEvent.change(field, { target: { value: "OTHER" } });
  fireEvent.click(screen.getByRole("button", { name: "Apply" }), { detail: 1 });
  await screen.findByText("Too many codes tried from your connection. Try again in a few minutes.");
});

test("Enter in the code's field applies the code; the form's first submit button is the pay button, so Enter elsewhere pays", async () => {
  const calls = stubFetch({ status: 200, body: { code: "SPRING20", list: "€29.99", off: "€6", total: "€23.99", free: false } });
  renderButton("en");
  const field = screen.getByRole("textbox", { name: "Discount code (optional)" });
  fireEvent.change(field, { target: { value: "SPRING20" } });
  fireEvent.keyDown(field, { key: "Enter" });
  await waitFor(() => expect(screen.getByTestId("code-applied")).toBeDefined());
  expect(calls.map((c) => c.url)).toEqual(["/api/payment/code"]);
  // Without the script, the browser submits with the form's first submit button: the pay button's
  // copy, posting to the payment (not the code's preview, which would drop the company fields).
  const first = field.closest("form")?.querySelector('button[type="submit"]');
  expect(first?.getAttribute("formaction")).toBeNull();
  expect(first?.textContent).toBe("Pay €23.99");
});

test("the page came with ?code= (checked by the server): the code is applied from the first paint, the pay form sends it", async () => {
  const calls = stubFetch({ status: 200, body: { url: "/checkout/test/cs_test_abc" } });
  render(
    <IslandTestRoot names={["pay-button"]} page={makePageData({ page: "payment", purchaseNotice: false }, "en")}>
      <PayButton
        consentMissing={false}
        price="€29.99"
        codePreviewPath="/api/payment/code"
        code={{ state: "applied", preview: { code: "PRESS", list: "€29.99", off: "€29.99", total: "€0", free: true } }}
        navigate={() => {}}
      />
    </IslandTestRoot>,
  );
  expect(screen.getByTestId("code-reduction").textContent).toBe("Code PRESS: free access, nothing to pay.");
  // Nothing is paid: no money-back guarantee, no VAT under €0, and the reason the button waits says "continue".
  expect(document.querySelector("label[for=accept-terms]")?.textContent).not.toContain("money-back");
  expect(screen.getByTestId("order-vat").textContent).toBe("");
  expect(screen.getByTestId("pay-reason").textContent).toBe("Tick the box above to continue.");
  // The card-payment note beside the form hides on this mark (styles.css).
  expect(screen.getByTestId("pay-button").closest("form")?.hasAttribute("data-free")).toBe(true);
  fireEvent.click(screen.getByRole("checkbox", { name: /I accept/ }));
  // Nothing to pay: the button does not say "Pay €0".
  expect(screen.queryByRole("button", { name: /Pay/ })).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: /Continue without paying/ }));
  await waitFor(() => expect(calls.length).toBe(1));
  expect(JSON.parse(calls[0]?.body ?? "{}")).toMatchObject({ code: "PRESS", acceptTerms: true });
});

test("a company of another member state with a well-formed VAT number sees the total and the button excl. VAT, with and without a code; any other company the price incl. VAT", async () => {
  const calls = stubFetch({
    status: 200,
    body: {
      code: "SPRING20",
      list: "29,99 €",
      off: "6 €",
      total: "23,99 €",
      free: false,
      business: { list: "24,99 €", off: "5 €", total: "19,99 €" },
    },
  });
  window.history.replaceState(null, "", "/paiement");
  renderButton("fr", true, "24,99 €");
  const total = () => screen.getByTestId("order-total").parentElement?.textContent?.replace(/\s+/g, " ");
  const vat = () => screen.getByTestId("order-vat").textContent?.replace(/\s+/g, " ");
  const country = screen.getByRole("combobox", { name: "Pays de l'entreprise" });
  const number = screen.getByRole("textbox", { name: "Numéro de TVA intracommunautaire" });
  expect(total()).toBe("Total29,99 €");
  expect(vat()).toBe("TVA incluse");

  fireEvent.change(country, { target: { value: "DE" } });
  // A number whose check digit is wrong: the server would refuse it, nothing changes yet.
  fireEvent.change(number, { target: { value: "DE 136 695 977" } });
  expect(total()).toBe("Total29,99 €");
  fireEvent.change(number, { target: { value: "de 136 695 976" } });
  // The price incl. VAT shown above is struck: the company pays it without French VAT.
  expect(total()).toBe("Total HTPrix TTC : 29,99 € 24,99 €");
  expect(vat()).toBe("Hors TVA : autoliquidation, la TVA est due par votre entreprise (art. 196 de la directive 2006/112/CE).");
  expect(vat()).not.toContain("TVA incluse");
  expect(screen.getByTestId("pay-button").textContent).toBe("Payer 24,99 € HT");

  // A code: the company's own figures, as the server computed them.
  fireEvent.change(screen.getByRole("textbox", { name: "Code de réduction (facultatif)" }), { target: { value: "spring20" } });
  fireEvent.click(screen.getByRole("button", { name: "Appliquer" }), { detail: 1 });
  await waitFor(() => expect(total()).toBe("Total HTPrix sans le code : 24,99 € 19,99 €"));
  expect(calls.map((c) => c.url)).toEqual(["/api/payment/code"]);
  expect(screen.getByTestId("code-reduction").textContent?.replace(/\s+/g, " ")).toBe("Réduction SPRING20 : −5 €");
  expect(screen.getByTestId("pay-button").textContent).toBe("Payer 19,99 € HT");

  // A French company pays French VAT: the consumer's figures again.
  fireEvent.change(country, { target: { value: "FR" } });
  expect(total()).toBe("TotalPrix sans le code : 29,99 € 23,99 €");
  expect(vat()).toBe("TVA incluse");
  expect(screen.getByTestId("pay-button").textContent).toBe("Payer 23,99 €");
});

test("under the franchise (no price excl. VAT given) a company's details change no figure", () => {
  renderButton("en");
  fireEvent.change(screen.getByRole("combobox", { name: "Company's country" }), { target: { value: "DE" } });
  fireEvent.change(screen.getByRole("textbox", { name: "VAT number" }), { target: { value: "DE136695976" } });
  expect(screen.getByTestId("order-total").textContent).toBe("€29.99");
  expect(screen.getByTestId("pay-button").textContent).toBe("Pay €29.99");
});
