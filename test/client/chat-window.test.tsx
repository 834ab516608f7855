import { afterEach, expect, mock, spyOn, test } from "bun:test";
import { COMPILED, SOURCE_MESSAGES as MESSAGES } from "../../server/site/locales";
import { createTranslator } from "../../shared/i18n";
import { LOCALES, type Locale } from "../../shared/locales";
import { useDom } from "../support/dom";
import { makePageData } from "../support/page-data";
import { plainSpaces } from "../support/text";

useDom();

const { render, screen, fireEvent, waitFor, act, cleanup } = await import("@testing-library/react");
const { IslandTestRoot } = await import("../support/islands");
const { ChatWindow } = await import("../../client/components/chat-window");

// The chat window with the server's answers faked: the conversation outlives the window, under the
// id the server issued, a conversation the server calls full (409) is said so in the visitor's
// language, and so is being asked to wait (429). (With the other component tests: a DOM test file that runs before
// test/checkout/pay-button.test.tsx leaves React's scheduler on a closed happy-dom window.)

afterEach(() => {
  mock.restore();
  window.sessionStorage.clear();
});

const ISSUED = "AAAAAAAAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBBBBBBB";

function openWindow(locale: Locale = "fr") {
  const data = makePageData({ page: "landing" }, locale);
  render(
    <IslandTestRoot names={["support"]} page={data}>
      <ChatWindow onClose={() => {}} />
    </IslandTestRoot>,
  );
  const input = screen.getByRole("textbox");
  if (!(input instanceof HTMLInputElement)) throw new Error("no input");
  return { input, email: data.facts.supportEmail };
}

async function ask(input: HTMLInputElement, text: string) {
  fireEvent.change(input, { target: { value: text } });
  await act(async () => {
    fireEvent.submit(input.form!);
  });
}

/** Each fetch answers the next of `answers`; the request bodies are kept. */
function fakeServer(answers: (() => Response)[]) {
  const bodies: unknown[] = [];
  spyOn(globalThis, "fetch").mockImplementation(
    Object.assign(
      async (_input: RequestInfo | URL, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        const next = answers.shift();
        if (next === undefined) throw new Error("unexpected request");
        return next();
      },
      { preconnect: fetch.preconnect },
    ),
  );
  return bodies;
}

test("closed and reopened, the window shows the conversation so far and continues it under the server's id", async () => {
  const bodies = fakeServer([
    () => Response.json({ message: "Un paiement unique.", conversationId: ISSUED }),
    () => Response.json({ message: "Sept jours.", conversationId: ISSUED }),
  ]);
  const first = openWindow();
  await ask(first.input, "C'est un abonnement ?");
  await screen.findByText("Un paiement unique.");
  // The first question carries no id: the server issues one.
  expect(bodies[0]).not.toHaveProperty("conversationId");
  cleanup();

  const again = openWindow();
  expect(screen.getByText("C'est un abonnement ?")).toBeDefined();
  expect(screen.getByText("Un paiement unique.")).toBeDefined();
  await ask(again.input, "Et la garantie ?");
  await screen.findByText("Sept jours.");
  expect(bodies[1]).toMatchObject({ conversationId: ISSUED, locale: "fr" });
});

test("a full conversation (409) is said so in the visitor's language, with the support address, and nothing more is sent", async () => {
  for (const locale of LOCALES) {
    fakeServer([
      () =>
        Response.json(
          { error: "This conversation has reached its limit of 50 questions. Please write to support@example.com." },
          { status: 409 },
        ),
    ]);
    const { input, email } = openWindow(locale);
    await ask(input, "Encore une question ?");
    const notice = MESSAGES[locale]["chat.limitReached"]!.replace("{email}", email);
    // The notice reads as one sentence; its support address is a mailto: link.
    const said = (_: string, element: Element | null) =>
      element?.classList.contains("chat-msg__text") === true && plainSpaces(element.textContent) === notice;
    await waitFor(() => expect(screen.getByText(said)).toBeDefined());
    expect(screen.getByRole("link", { name: email }).getAttribute("href")).toBe(`mailto:${email}`);
    expect(input.disabled).toBe(true);
    // Not the generic error toast: this is not a failure to retry.
    expect(screen.queryByText(MESSAGES[locale]["chat.error"]!)).toBeNull();
    cleanup();
    // Reopened, the window still says so.
    openWindow(locale);
    expect(screen.getByText(said)).toBeDefined();
    cleanup();
    mock.restore();
    window.sessionStorage.clear();
  }
});

test("too many messages (429) says in the page's language how long to wait, announced in the conversation, and keeps the question", async () => {
  // The endpoint's own answer: 8 messages a minute, then 429 with the seconds left in Retry-After.
  const limited = (seconds: string) => () =>
    Response.json({ error: "Too many messages. Please try again later." }, { status: 429, headers: { "retry-after": seconds } });
  fakeServer([limited("53"), limited("20"), () => Response.json({ message: "29,99 €, une seule fois.", conversationId: ISSUED })]);
  const { input } = openWindow("fr");
  await ask(input, "Et le prix ?");
  const minute =
    "Vous avez envoyé beaucoup de messages en peu de temps. Patientez environ une minute, puis envoyez à nouveau votre question.";
  const notice = await screen.findByText(minute);
  // In the conversation's live region, so a screen reader reads it out; not the "Erreur" toast.
  expect(screen.getByRole("log").contains(notice)).toBe(true);
  expect(screen.getByRole("log").getAttribute("aria-live")).toBe("polite");
  expect(screen.queryByText(MESSAGES.fr["chat.error"]!)).toBeNull();
  // The question stays in the field, ready to send again, and is not shown as sent.
  expect(input.value).toBe("Et le prix ?");
  expect(screen.queryAllByText("Et le prix ?")).toEqual([]);

  // Sent again too soon: the new wait replaces the old one.
  await ask(input, "Et le prix ?");
  await screen.findByText(
    "Vous avez envoyé beaucoup de messages en peu de temps. Patientez environ 20 secondes, puis envoyez à nouveau votre question.",
  );
  expect(screen.queryByText(minute)).toBeNull();

  // Once the server answers again, the notice is gone.
  await ask(input, "Et le prix ?");
  await screen.findByText("29,99 €, une seule fois.");
  expect(screen.queryByText(/beaucoup de messages/)).toBeNull();
});

test("the wait is said in each of the four languages, and without a Retry-After as 'a moment'", async () => {
  for (const locale of LOCALES) {
    const t = createTranslator(locale, COMPILED[locale]);
    fakeServer([
      () =>
        new Response(JSON.stringify({ error: "Too many messages." }), {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "1800" },
        }),
      () => new Response(JSON.stringify({ error: "Too many messages." }), { status: 429, headers: { "content-type": "application/json" } }),
    ]);
    const { input } = openWindow(locale);
    await ask(input, "?!");
    await screen.findByText(t("chat.rateLimited", { unit: "minute", count: 30 }));
    expect(t("chat.rateLimited", { unit: "minute", count: 30 })).toContain("30");
    await ask(input, "?!");
    await screen.findByText(t("chat.rateLimited", { unit: "moment", count: 0 }));
    expect(screen.queryByText(MESSAGES[locale]["chat.error"]!)).toBeNull();
    cleanup();
    mock.restore();
    window.sessionStorage.clear();
  }
});

test("a reply's site pages are links: the guide, the terms of sale", async () => {
  fakeServer([
    () =>
      Response.json({
        message: "Votre licence est personnelle. Conditions générales de vente : /cgv. Le guide : /guide.",
        conversationId: ISSUED,
      }),
  ]);
  const { input } = openWindow("fr");
  await ask(input, "Je peux partager ma clé ?");
  expect((await screen.findByRole("link", { name: "/cgv" })).getAttribute("href")).toBe("/cgv");
  expect(screen.getByRole("link", { name: "/guide" }).getAttribute("href")).toBe("/guide");
});
