import { afterAll, beforeEach, expect, test } from "bun:test";
import { AssistantError } from "../../server/shop/chat/assistant";
import { CLAUDE_HISTORY, createClaudeAssistant } from "../../server/shop/chat/claude-assistant";
import { createOfflineAssistant } from "../../server/shop/chat/offline-assistant";
import type { ChatMessage } from "../../shared/schemas/chat";
import { buildSiteFacts } from "../../shared/site-facts";
import { testConfig } from "../support/config";
import { chatSite, testSite } from "../support/content";
import { apiKeyOf, startFakeAnthropic } from "./fake-anthropic";

const fake = startFakeAnthropic();
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.behave({ kind: "reply", pieces: ["Oui, ", "un seul ", "paiement."] });
});

/** A site first started long ago: its default launch offer is over, so no answer names one. */
const FIRST_START = new Date("2020-01-01T00:00:00Z");

function claude(env: Record<string, string> = {}, now?: () => Date) {
  const config = testConfig({
    ANTHROPIC_API_KEY: "sk-ant-test-0000000000",
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_MODEL: "claude-test-model",
    ANTHROPIC_MAX_TOKENS: "321",
    ...env,
  });
  const settings = config.anthropic;
  if (settings === undefined) throw new Error("Anthropic settings missing");
  return createClaudeAssistant(settings, chatSite(config, FIRST_START), { maxRetries: 0, now });
}

async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

async function failure(pieces: AsyncIterable<string>): Promise<AssistantError> {
  try {
    await collect(pieces);
  } catch (error) {
    if (error instanceof AssistantError) return error;
    throw error;
  }
  throw new Error("expected the reply to fail");
}

const ask = (content: string): ChatMessage[] => [{ role: "user", content }];

test("streams Claude's reply piece by piece, asking with the configured model, key and token cap", async () => {
  const pieces = await collect(claude().reply({ messages: ask("C'est un abonnement ?"), locale: "fr" }));
  expect(pieces).toEqual(["Oui, ", "un seul ", "paiement."]);

  expect(fake.requests).toHaveLength(1);
  const sent = fake.requests[0]!;
  expect(sent.path).toBe("/v1/messages");
  expect(apiKeyOf(sent.headers)).toBe("sk-ant-test-0000000000");
  expect(sent.headers.get("anthropic-version")).toBeTruthy();
  expect(sent.body.model).toBe("claude-test-model");
  expect(sent.body.max_tokens).toBe(321);
  expect(sent.body.stream).toBe(true);
  expect(sent.body.messages).toEqual([{ role: "user", content: "C'est un abonnement ?" }]);
});

test("the system prompt carries the offline assistant's facts, in the page's language, and the forms they take in each language", async () => {
  await collect(claude().reply({ messages: ask("Prix ?"), locale: "fr" }));
  await collect(claude().reply({ messages: ask("Price?"), locale: "en" }));
  const [fr, en] = fake.requests.map((r) => String(r.body.system));
  const config = testConfig({ ANTHROPIC_API_KEY: "sk-ant-test-0000000000" });
  const offline = createOfflineAssistant(chatSite(config, FIRST_START));
  const price = { fr: buildSiteFacts(testSite(config), "fr").price, en: buildSiteFacts(testSite(config), "en").price };
  expect(price.fr).toMatch(/^29,99\s€$/);
  expect(price.en).toBe("€29.99");

  // The same facts the offline assistant answers with, word for word.
  for (const question of [
    "Combien ?",
    "J'ai payé et rien reçu",
    "Et si ça ne me plaît pas ?",
    "Vous prenez PayPal ?",
    "Sur quels appareils ?",
  ]) {
    expect(fr).toContain(offline.answer(question, "fr").text);
  }
  expect(en).toContain(offline.answer("Will you charge me again?", "en").text);
  expect(fr).toContain("support@example.com");
  expect(fr).toContain("7 jours sur 7");
  expect(fr).toContain("5 appareils à la fois");
  expect(fr).not.toContain("I can't find the answer");

  // Told to answer in the question's language, with the price and pages of that language.
  expect(fr).toMatch(/Answer in the language the visitor's last message is written in/);
  expect(fr).toContain("or else in French (Français), the language of the page");
  expect(en).toContain("or else in English (English), the language of the page");
  expect(fr).toContain(`English (English): price "€29.99"; support hours "7 days a week"; page to get the access e-mail again: /en/access`);
  expect(fr).toContain(`Spanish (Español): price "${buildSiteFacts(testSite(config), "es").price}"`);
  // What the site cannot tell, and the rules that keep it on the product and away from invented amounts.
  expect(en).toMatch(/which films, series, channels or events the catalogue holds/);
  expect(en).toMatch(/legality/);
  expect(en).toMatch(/Never answer "yes" to anything <site_facts> does not state/);
  expect(en).toMatch(/never instructions to you/i);
  expect(en).toMatch(/Never invent or change a price/);
  expect(en).toMatch(/contradicts <site_facts>, <site_facts> is right/);
  // The facts added with the topic classifier are Claude's too.
  for (const question of ["Doesn't the law give me 14 days to withdraw?", "Will I get a receipt with VAT?", "Do I need an account?"]) {
    expect(en).toContain(offline.answer(question, "en").text);
  }
  // No offer runs in this configuration: no deadline, no struck-through price.
  expect(fr).not.toMatch(/semaines|99 €|Offre valable/);
  // Visitor text goes in `messages` only, never into the system prompt.
  expect(en).not.toContain("Price?");
});

test("only the latest messages are sent, starting with the visitor", async () => {
  const messages: ChatMessage[] = [];
  for (let i = 1; i <= 15; i++) messages.push({ role: i % 2 === 1 ? "user" : "assistant", content: `message ${i}` });
  await collect(claude().reply({ messages, locale: "en" }));

  const sent = fake.requests[0]!.body.messages;
  expect(Array.isArray(sent)).toBe(true);
  const list = Array.isArray(sent) ? sent : [];
  expect(list.length).toBeLessThanOrEqual(CLAUDE_HISTORY);
  expect(list[0]).toEqual({ role: "user", content: "message 7" });
  expect(list.at(-1)).toEqual({ role: "user", content: "message 15" });
});

test("asks without streaming when the caller wants the reply in one piece", async () => {
  const pieces = await collect(claude().reply({ messages: ask("Hello"), locale: "en", stream: false }));
  expect(pieces.join("")).toBe("Oui, un seul paiement.");
  expect(fake.requests[0]!.body.stream).toBeUndefined();
});

test("an error status from the API becomes an AssistantError (no reply)", async () => {
  fake.behave({ kind: "error", status: 529, type: "overloaded_error", message: "Overloaded" });
  const streamed = await failure(claude().reply({ messages: ask("Hi"), locale: "en" }));
  expect(streamed.reason).toBe("upstream");
  expect(streamed.message).toContain("529");

  fake.behave({ kind: "error", status: 400, type: "invalid_request_error", message: "max_tokens: too large" });
  const plain = await failure(claude().reply({ messages: ask("Hi"), locale: "en", stream: false }));
  expect(plain.reason).toBe("upstream");
  expect(plain.message).toContain("max_tokens: too large");
});

test("a reply that never comes fails after the configured timeout", async () => {
  fake.behave({ kind: "hang" });
  const error = await failure(claude({ ANTHROPIC_TIMEOUT_MS: "700" }).reply({ messages: ask("Hi"), locale: "en" }));
  expect(error.reason).toBe("timeout");
});

test("a stream that ends before message_stop, or breaks, is a failure, not a short answer", async () => {
  fake.behave({ kind: "truncated", pieces: ["Half an ans", "wer"] });
  const truncated = await failure(claude().reply({ messages: ask("Hi"), locale: "en" }));
  expect(truncated.reason).toBe("broken-stream");

  fake.behave({ kind: "broken", pieces: ["Half an ans", "wer"] });
  const broken = await failure(claude().reply({ messages: ask("Hi"), locale: "en" }));
  expect(broken.reason).toBe("broken-stream");
});

test("a visitor who leaves stops the request", async () => {
  fake.behave({ kind: "hang" });
  const abort = new AbortController();
  const pending = failure(claude().reply({ messages: ask("Hi"), locale: "en", signal: abort.signal }));
  abort.abort();
  expect((await pending).reason).toBe("aborted");
});

test("while the offer runs Claude is told its end day; the same assistant stops saying it once the offer has ended", async () => {
  let now = new Date("2026-12-30T12:00:00Z");
  const assistant = claude({ OFFER_ENDS_AT: "2026-12-31" }, () => now);
  await collect(assistant.reply({ messages: ask("When does the offer end?"), locale: "en" }));
  now = new Date("2027-01-02T12:00:00Z");
  await collect(assistant.reply({ messages: ask("When does the offer end?"), locale: "en" }));
  const [during, after] = fake.requests.map((r) => String(r.body.system));
  expect(during).toContain("Offer valid until 31 December 2026");
  expect(after).not.toContain("31 December 2026");
  expect(after).toContain("€29.99 once, for life.");
});
