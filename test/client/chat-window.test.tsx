import { afterEach, expect, mock, spyOn, test } from "bun:test";
import { SOURCE_MESSAGES as MESSAGES } from "../../server/locales";
import { LOCALES, type Locale } from "../../shared/locales";
import { useDom } from "../support/dom";
import { makePageData } from "../support/page-data";

useDom();

const { render, screen, fireEvent, waitFor, act, cleanup } = await import("@testing-library/react");
const { IslandTestRoot } = await import("../support/islands");
const { ChatWindow } = await import("../../client/components/chat-window");

// The chat window with the server's answers faked: the conversation outlives the window, under the
// id the server issued, and a conversation the server calls full (409) is said so in the visitor's
// language. (With the other component tests: a DOM test file that runs before
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
    fakeServer([() => Response.json({ error: "This conversation has reached its limit of 50 questions. Please write to support@example.com." }, { status: 409 })]);
    const { input, email } = openWindow(locale);
    await ask(input, "Encore une question ?");
    const notice = MESSAGES[locale]["chat.limitReached"]!.replace("{email}", email);
    await waitFor(() => expect(screen.getByText(notice)).toBeDefined());
    expect(input.disabled).toBe(true);
    // Not the generic error toast: this is not a failure to retry.
    expect(screen.queryByText(MESSAGES[locale]["chat.error"]!)).toBeNull();
    cleanup();
    // Reopened, the window still says so.
    openWindow(locale);
    expect(screen.getByText(notice)).toBeDefined();
    cleanup();
    mock.restore();
    window.sessionStorage.clear();
  }
});
