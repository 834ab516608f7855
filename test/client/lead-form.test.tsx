import { afterEach, expect, mock, spyOn, test } from "bun:test";
import { COMPILED, SOURCE_MESSAGES as MESSAGES } from "../../server/site/locales";
import { LOCALES, type Locale } from "../../shared/locales";
import { useDom } from "../support/dom";
import { makePageData } from "../support/page-data";

useDom();

const { render, screen, fireEvent, waitFor, act, cleanup } = await import("@testing-library/react");
const { IslandTestRoot } = await import("../support/islands");
const { LeadSection } = await import("../../client/components/lead-form");

// The error messages for lead submits (docs/product.md, "Validation and error messages"), through
// the free-demo form (the popup uses the same hook; its browser journey is in test/e2e/leads.test.ts).

afterEach(() => {
  mock.restore();
  window.localStorage.clear();
});

function renderForm(locale: Locale = "fr", data = makePageData({ page: "landing" }, locale)) {
  const posted = data.view.page === "landing" ? data.view.lead : undefined;
  const view = render(
    <IslandTestRoot names={["lead-form"]} page={data}>
      <LeadSection posted={posted} />
    </IslandTestRoot>,
  );
  const form = view.container.querySelector("form");
  const input = view.container.querySelector('input[type="email"]');
  if (!(form instanceof HTMLFormElement) || !(input instanceof HTMLInputElement)) throw new Error("form not rendered");
  return { form, input };
}

/** Replaces fetch for one test (restored by mock.restore()). */
function fakeFetch(impl: () => Promise<Response>) {
  return spyOn(globalThis, "fetch").mockImplementation(Object.assign(impl, { preconnect: fetch.preconnect }));
}
const answer = (status: number, body: unknown) => fakeFetch(async () => Response.json(body, { status }));

/** A refusal is shown twice: as a toast, and next to the field (readable inside the modal popup). */
async function expectRefusal(form: HTMLFormElement, text: string) {
  const found = await screen.findAllByText(text);
  expect(found.some((el) => el.closest(".toast-region") !== null)).toBe(true);
  expect(found.some((el) => form.contains(el) && el.getAttribute("role") === "alert")).toBe(true);
}

async function submit(form: HTMLFormElement, input: HTMLInputElement, value: string) {
  fireEvent.input(input, { target: { value } });
  await act(async () => {
    fireEvent.submit(form);
  });
}

test("a stored address shows the 'demo sent' confirmation and marks the popup as seen", async () => {
  const fetchSpy = answer(201, { ok: true });
  const { form, input } = renderForm("fr");
  await submit(form, input, "  Moi@Exemple.FR ");
  await waitFor(() => expect(screen.getAllByText("Demande reçue ! Vérifiez vos emails.").length).toBeGreaterThan(0));
  // The toast names the address, and promises only what is done whatever that address's history.
  expect(screen.getByText(/^Si rien n.arrive à moi@exemple\.fr d.ici quelques minutes, regardez dans vos spams\.$/)).toBeDefined();
  expect(fetchSpy).toHaveBeenCalledTimes(1);
  const [url, init] = fetchSpy.mock.calls[0]!;
  expect(url).toBe("/api/leads");
  expect(JSON.parse(String(init?.body))).toEqual({ email: "moi@exemple.fr", source: "landing_form", ip_hash: null, locale: "fr" });
  expect(window.localStorage.getItem("exit-popup-shown")).not.toBeNull();
});

test("an answer mentioning 'Rate limit' shows the translated rate-limit text in every language", async () => {
  for (const locale of LOCALES) {
    answer(429, { error: "Rate limit exceeded: too many submissions, try again in 600 s" });
    const { form, input } = renderForm(locale);
    await submit(form, input, "someone@example.com");
    await expectRefusal(form, MESSAGES[locale]["lead.rateLimit"]!);
    cleanup();
    mock.restore();
  }
});

test("another refusal shows the translated e-mail error; a server failure or network error the unexpected-error text", async () => {
  for (const locale of LOCALES) {
    for (const [respond, key] of [
      [() => answer(400, { error: "email: Invalid email address" }), "lead.emailError"],
      [() => answer(503, { error: "Could not store the address right now, please try again" }), "lead.unexpectedError"],
      [() => fakeFetch(async () => Promise.reject(new TypeError("Failed to fetch"))), "lead.unexpectedError"],
    ] as const) {
      respond();
      const { form, input } = renderForm(locale);
      await submit(form, input, "someone@example.com");
      await expectRefusal(form, MESSAGES[locale][key]!);
      cleanup();
      mock.restore();
    }
  }
});

test("without a translation the spec's English fallbacks are shown", async () => {
  const { "lead.rateLimit": _rateLimit, "lead.emailError": _emailError, ...messages } = COMPILED.fr;
  answer(429, { error: "Rate limit exceeded" });
  const first = renderForm("fr", makePageData({ page: "landing" }, "fr", { messages }));
  await submit(first.form, first.input, "someone@example.com");
  await expectRefusal(first.form, "Too many submissions. Please try again later.");
  cleanup();
  mock.restore();
  answer(400, { error: "email: Invalid email address" });
  const second = renderForm("fr", makePageData({ page: "landing" }, "fr", { messages }));
  await submit(second.form, second.input, "someone@example.com");
  await expectRefusal(second.form, "Invalid email. Please try again.");
});

test("an invalid address is refused before sending, with the translated validation message on the field", async () => {
  const fetchSpy = answer(201, { ok: true });
  const { form, input } = renderForm("es");
  for (const [value, key] of [
    ["", "lead.emailRequired"],
    ["a@b", "lead.emailInvalid"],
    ["pas-une-adresse", "lead.emailInvalid"],
    [`${"a".repeat(250)}@example.com`, "lead.emailTooLong"],
  ] as const) {
    await submit(form, input, value);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(MESSAGES.es[key]!);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-describedby")).toBe(alert.id);
  }
  expect(fetchSpy).not.toHaveBeenCalled();
});

test("a second submit while the first is in flight sends nothing and the button is disabled", async () => {
  let release: (response: Response) => void = () => {};
  const fetchSpy = fakeFetch(() => new Promise<Response>((resolve) => (release = resolve)));
  const { form, input } = renderForm("en");
  await submit(form, input, "once@example.com");
  await act(async () => {
    fireEvent.submit(form);
    fireEvent.submit(form);
  });
  expect(fetchSpy).toHaveBeenCalledTimes(1);
  const button = screen.getByRole("button", { name: "Sending…" });
  expect(button.hasAttribute("disabled")).toBe(true);
  await act(async () => release(Response.json({ ok: true }, { status: 201 })));
  await screen.findAllByText("Request received! Check your inbox.");
  expect(screen.getByRole("button", { name: "Send me the demo" }).hasAttribute("disabled")).toBe(false);
});

test("the outcome of a plain form post is shown after the redirect", () => {
  for (const [lead, text] of [
    ["sent", MESSAGES.it.demoSent],
    ["invalid", MESSAGES.it["lead.emailError"]],
    ["rate-limited", MESSAGES.it["lead.rateLimit"]],
    ["error", MESSAGES.it["lead.unexpectedError"]],
  ] as const) {
    renderForm("it", makePageData({ page: "landing", lead }, "it"));
    expect(screen.getByText(text!)).toBeDefined();
    // Without JavaScript the address is not known after the redirect: the rules are told without it.
    expect(screen.queryByText(MESSAGES.it.demoSentNote!) !== null).toBe(lead === "sent");
    cleanup();
  }
});

test("after a refused plain form post the field is marked invalid and described by the error, which goes once the visitor submits again", async () => {
  const { form, input } = renderForm("en", makePageData({ page: "landing", lead: "invalid" }, "en"));
  const posted = screen.getByText(MESSAGES.en["lead.emailError"]!);
  expect(input.getAttribute("aria-invalid")).toBe("true");
  expect(input.getAttribute("aria-describedby")).toBe(posted.id);
  expect(posted.id).not.toBe("");

  answer(201, { ok: true });
  await submit(form, input, "second.try@example.com");
  await screen.findAllByText(MESSAGES.en.demoSent!);
  expect(screen.queryByText(MESSAGES.en["lead.emailError"]!)).toBeNull();
  expect(input.getAttribute("aria-invalid")).toBe("false");
  expect(input.hasAttribute("aria-describedby")).toBe(false);
});

test("after a stored plain form post, a refused second address does not still say 'demo sent'", async () => {
  const { form, input } = renderForm("en", makePageData({ page: "landing", lead: "sent" }, "en"));
  expect(screen.getByTestId("lead-sent").textContent).toBe(MESSAGES.en.demoSent!);
  answer(429, { error: "Rate limit exceeded" });
  await submit(form, input, "another@example.com");
  await expectRefusal(form, MESSAGES.en["lead.rateLimit"]!);
  expect(screen.queryByTestId("lead-sent")).toBeNull();
});
