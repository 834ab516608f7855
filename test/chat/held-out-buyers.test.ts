import { afterEach, expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { createTestSite, type TestSite } from "../support/app";
import { askThroughEndpoint } from "./questions/ask-through-endpoint";
import { HELD_OUT_BUYERS } from "./questions/held-out-buyers";
import { HANDOVER_INTENTS, INTENTS } from "./questions/judge";

// The buyers' set is scored by bench/chat-offline.ts (--set buyers), never held to a floor here:
// it measures the assistant before and after a change, and a floor would invite tuning on it. What
// is checked is that the set is the one its header describes and that its follow-ups reach the
// assistant as a conversation, as the chat window sends them.

let site: TestSite | undefined;
afterEach(() => site?.close());

test("the buyers' set: 20 questions per language, a quarter on another page, follow-ups, two-question messages, every intent", () => {
  expect(HELD_OUT_BUYERS.length).toBe(80);
  for (const locale of LOCALES) expect(HELD_OUT_BUYERS.filter((q) => q.lang === locale).length).toBe(20);
  expect(HELD_OUT_BUYERS.filter((q) => q.page !== undefined && q.page !== q.lang).length).toBe(20);
  expect(HELD_OUT_BUYERS.filter((q) => (q.before?.length ?? 0) > 0).length).toBeGreaterThanOrEqual(12);
  expect(HELD_OUT_BUYERS.filter((q) => q.also !== undefined).length).toBeGreaterThanOrEqual(10);
  expect(
    HELD_OUT_BUYERS.filter((q) => HANDOVER_INTENTS.has(q.intent) || (q.also && HANDOVER_INTENTS.has(q.also))).length,
  ).toBeGreaterThanOrEqual(10);
  const asked = new Set(HELD_OUT_BUYERS.flatMap((q) => (q.also === undefined ? [q.intent] : [q.intent, q.also])));
  expect(INTENTS.filter((intent) => !asked.has(intent))).toEqual([]);
  // No question twice: each is its own buyer's.
  expect(new Set(HELD_OUT_BUYERS.map((q) => q.q)).size).toBe(HELD_OUT_BUYERS.length);
});

test("a follow-up is asked after its earlier messages, in one conversation the server stores in order", async () => {
  site = await createTestSite();
  const followUp = HELD_OUT_BUYERS.find((q) => (q.before?.length ?? 0) >= 2);
  if (followUp === undefined) throw new Error("the set has no follow-up after two messages");
  const asked = await askThroughEndpoint(site.request, followUp);
  expect(asked.earlier.map((e) => e.question)).toEqual([...(followUp.before ?? [])]);
  expect(asked.reply.trim()).not.toBe("");
  const stored = site.db.$client
    .query<{ conversation_id: string; role: string; content: string }, []>(
      "SELECT conversation_id, role, content FROM chat_messages ORDER BY id",
    )
    .all();
  expect(new Set(stored.map((m) => m.conversation_id))).toEqual(new Set([asked.conversationId]));
  expect(stored.map((m) => [m.role, m.content])).toEqual([
    ...asked.earlier.flatMap((e) => [
      ["user", e.question],
      ["assistant", e.reply],
    ]),
    ["user", followUp.q],
    ["assistant", asked.reply],
  ]);
});
