import * as v from "valibot";
import { CHAT_ROLES, ConversationIdSchema } from "../../shared/schemas/chat";

// The support chat of this browser tab: the lines shown and the conversation id the server issued,
// in sessionStorage, so that closing and reopening the window (or going to another page of the site)
// carries on the same conversation, and a new tab starts a new one.

const KEY = "support-chat";

const ChatSessionSchema = v.object({
  conversationId: v.nullable(ConversationIdSchema),
  lines: v.array(v.object({ id: v.number(), role: v.picklist(CHAT_ROLES), content: v.string() })),
  /** The server said the conversation is full (409): the window says so instead of the form. */
  full: v.boolean(),
});
export type ChatSession = v.InferOutput<typeof ChatSessionSchema>;

export const EMPTY_CHAT_SESSION: ChatSession = { conversationId: null, lines: [], full: false };

export function loadChatSession(): ChatSession {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (raw === null) return EMPTY_CHAT_SESSION;
    const parsed = v.safeParse(ChatSessionSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : EMPTY_CHAT_SESSION;
  } catch {
    return EMPTY_CHAT_SESSION; // storage disabled or garbage: a fresh conversation
  }
}

export function saveChatSession(session: ChatSession): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(session));
  } catch {
    // storage disabled or full: the conversation lasts as long as the window stays open
  }
}
