import * as v from "valibot";
import { CHAT } from "../../shared/api";
import {
  CHAT_MAX_CHARS,
  CHAT_MAX_MESSAGES,
  type ChatMessage,
  type ChatReply,
  type ChatRequestInput,
  ChatRequestSchema,
} from "../../shared/schemas/chat";

// The browser side of POST /api/chat asks for server-sent events so the reply
// shows as it is produced, and still understands a plain JSON answer.

/**
 * No reply; `full` when the conversation has reached CHAT_MAX_TURNS (the server's 409),
 * `rate-limited` when this visitor sent too many messages in a short time (429), with the seconds
 * the server asks to wait (its Retry-After) when it said.
 */
export class ChatFailure extends Error {
  constructor(
    message: string,
    readonly reason: "failed" | "full" | "rate-limited" = "failed",
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "ChatFailure";
  }
}

/** A Retry-After header in seconds: a number of seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date ends in GMT; the parser would also take "-5" or "2027" as dates.
  const at = /GMT$/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The payload for the next question: the latest messages, each within the endpoint's limits. */
export function chatPayload(history: ChatMessage[], locale: ChatRequestInput["locale"], conversationId: string | null): ChatRequestInput {
  const messages = history.slice(-CHAT_MAX_MESSAGES).map((m) => ({ role: m.role, content: m.content.slice(0, CHAT_MAX_CHARS) }));
  return { messages, locale, ...(conversationId ? { conversationId } : {}) };
}

const DeltaSchema = v.object({ text: v.string() });
const DoneSchema = v.object({ message: v.string(), conversationId: v.string() });

export async function sendChat(
  payload: ChatRequestInput,
  options: { onDelta: (text: string) => void; signal?: AbortSignal },
): Promise<ChatReply> {
  // Same schema as the endpoint: never send what it would refuse.
  if (!v.is(ChatRequestSchema, payload)) throw new ChatFailure("invalid message");
  const response = await fetch(CHAT.path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream, application/json" },
    body: JSON.stringify(payload),
    signal: options.signal,
  }).catch(() => {
    throw new ChatFailure("network");
  });
  if (response.status === 409) throw new ChatFailure("conversation full", "full");
  if (response.status === 429)
    throw new ChatFailure("rate limited", "rate-limited", retryAfterSeconds(response.headers.get("retry-after")));
  if (!response.ok) throw new ChatFailure(`status ${response.status}`);
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream") || response.body === null) {
    const body: unknown = await response.json().catch(() => null);
    if (!v.is(DoneSchema, body)) throw new ChatFailure("malformed answer");
    options.onDelta(body.message);
    return body;
  }

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseEvent(block);
      if (event === null) continue;
      if (event.name === "delta" && v.is(DeltaSchema, event.data)) options.onDelta(event.data.text);
      else if (event.name === "done" && v.is(DoneSchema, event.data)) {
        await reader.cancel().catch(() => {});
        return event.data;
      } else if (event.name === "error") {
        await reader.cancel().catch(() => {});
        throw new ChatFailure("stream error");
      }
    }
  }
  throw new ChatFailure("stream ended early");
}

function parseEvent(block: string): { name: string; data: unknown } | null {
  let name = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (data.length === 0) return null;
  try {
    return { name, data: JSON.parse(data.join("\n")) };
  } catch {
    return null;
  }
}
