import * as v from "valibot";
import { chatPayload } from "../../../client/components/chat-client";
import { CHAT } from "../../../shared/api";
import type { ChatMessage } from "../../../shared/schemas/chat";
import type { ChatQuestion } from "./judge";

// Asks a question as the chat window does: POST /api/chat with the conversation so far (the
// visitor's messages and the assistant's replies, built by the window's own chatPayload), the page's
// language and the conversation id the server issued. A follow-up's earlier messages (`before`) are
// asked first, one by one, so the server holds the same conversation a visitor would have had.

const ReplySchema = v.object({ message: v.string(), conversationId: v.string() });

export type Exchange = { question: string; reply: string };
export type Asked = { reply: string; earlier: Exchange[]; conversationId: string };

/**
 * `request` sends one request to the site (a test site's `request`, or fetch on a running server).
 * `visitor` is the client address the request comes from (X-Forwarded-For, for a site that trusts
 * it): each conversation is its own visitor, so a long set is not cut short by the per-visitor rate
 * limit, which is not what it measures.
 */
export async function askThroughEndpoint(
  request: (path: string, init: RequestInit) => Promise<Response>,
  question: ChatQuestion,
  visitor?: string,
): Promise<Asked> {
  const locale = question.page ?? question.lang;
  const history: ChatMessage[] = [];
  const earlier: Exchange[] = [];
  let conversationId: string | null = null;
  for (const content of [...(question.before ?? []), question.q]) {
    history.push({ role: "user", content });
    const response = await request(CHAT.path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...(visitor ? { "x-forwarded-for": visitor } : {}) },
      body: JSON.stringify(chatPayload(history, locale, conversationId)),
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok || !v.is(ReplySchema, body)) {
      throw new Error(`POST ${CHAT.path} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    conversationId = body.conversationId;
    history.push({ role: "assistant", content: body.message });
    earlier.push({ question: content, reply: body.message });
  }
  const last = earlier.pop();
  if (last === undefined || conversationId === null) throw new Error("nothing was asked");
  return { reply: last.reply, earlier, conversationId };
}
