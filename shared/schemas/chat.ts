import * as v from "valibot";
import { DEFAULT_LOCALE, LOCALES } from "../locales";

// The one schema for the support chat, used by the chat window
// before sending and by POST /api/chat.

export const CHAT_ROLES = ["user", "assistant"] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** At most 20 messages of 1,000 characters each: enough for a support question, small enough to bound each request. */
export const CHAT_MAX_MESSAGES = 20;
export const CHAT_MAX_CHARS = 1000;
/**
 * Questions one conversation may hold: past this, POST /api/chat answers 409 and the chat window
 * says so (with the support address). Ample for a support exchange, and it bounds every transcript.
 */
export const CHAT_MAX_TURNS = 50;

export const ChatMessageSchema = v.object({
  role: v.picklist(CHAT_ROLES, "role must be user or assistant"),
  content: v.pipe(
    v.string("content must be text"),
    v.trim(),
    // An empty or whitespace-only message is not sent (docs/product.md, "Behaviour the pages keep").
    v.nonEmpty("content must not be empty"),
    v.maxLength(CHAT_MAX_CHARS, `content must be at most ${CHAT_MAX_CHARS} characters`),
  ),
});
export type ChatMessage = v.InferOutput<typeof ChatMessageSchema>;

/**
 * A conversation id issued by the server and echoed back by the browser. One the server did not
 * issue is not refused but replaced by a new one (server/shop/chat/conversation-ids.ts).
 */
export const ConversationIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, "conversationId is malformed"));

export const ChatRequestSchema = v.object({
  messages: v.pipe(
    v.array(ChatMessageSchema, "messages must be a list"),
    v.minLength(1, "messages must not be empty"),
    v.maxLength(CHAT_MAX_MESSAGES, `messages must hold at most ${CHAT_MAX_MESSAGES} messages`),
    v.check((list) => list.at(-1)?.role === "user", "the last message must come from the user"),
  ),
  // Not in the original payload, both optional so that `{ messages }` alone is accepted: the
  // page's language, so the answer is in it, and the conversation to append the transcript to.
  locale: v.optional(v.picklist(LOCALES, "Unknown locale"), DEFAULT_LOCALE),
  conversationId: v.optional(ConversationIdSchema),
});
export type ChatRequestInput = v.InferInput<typeof ChatRequestSchema>;
export type ChatRequest = v.InferOutput<typeof ChatRequestSchema>;

/** JSON answer (`message`, the field the original chat read), and the payload of the final server-sent event. */
export type ChatReply = { message: string; conversationId: string };

/**
 * Server-sent events of a streamed reply: `delta` carries the next piece of text, `done` the whole
 * reply, `error` a failure after the stream had started.
 */
export type ChatStreamEvent =
  | { event: "delta"; data: { text: string } }
  | { event: "done"; data: ChatReply }
  | { event: "error"; data: { error: string } };
