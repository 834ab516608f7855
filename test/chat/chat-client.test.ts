import { afterEach, expect, test } from "bun:test";
import { ChatFailure, retryAfterSeconds, sendChat } from "../../client/components/chat-client";

// The browser's reader of POST /api/chat: a reply streamed as server-sent events, cut
// anywhere by the network, or broken before its end.

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const payload = { messages: [{ role: "user" as const, content: "Prix ?" }], locale: "fr" as const };

/** Answers every fetch with these chunks of an event stream, then ends it (or errors it). */
function serveStream(chunks: string[], options: { fail?: boolean; seen?: { signal?: AbortSignal | null } } = {}) {
  globalThis.fetch = Object.assign(
    async (_input: RequestInfo | URL, init?: RequestInit) => {
      if (options.seen) options.seen.signal = init?.signal;
      const encoder = new TextEncoder();
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = chunks[i++];
          if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
          else if (options.fail) controller.error(new Error("connection reset"));
          else controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
    },
    { preconnect: realFetch.preconnect },
  );
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

test("pieces arrive as they come, even when the network cuts events (and a character) in two", async () => {
  const whole =
    event("delta", { text: "Prix : 29,99 €" }) +
    event("delta", { text: ", une fois." }) +
    event("done", { message: "Prix : 29,99 €, une fois.", conversationId: "conv_12345678" });
  const bytes = new TextEncoder().encode(whole);
  // Cut inside the "€" (3 bytes in UTF-8) and inside the event framing.
  const euro = bytes.indexOf(0xe2);
  const raw = [bytes.slice(0, euro + 1), bytes.slice(euro + 1, euro + 30), bytes.slice(euro + 30)];
  globalThis.fetch = Object.assign(
    async () => {
      let i = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            const next = raw[i++];
            if (next === undefined) controller.close();
            else controller.enqueue(next);
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    },
    { preconnect: realFetch.preconnect },
  );
  const pieces: string[] = [];
  const reply = await sendChat(payload, { onDelta: (text) => pieces.push(text) });
  expect(pieces).toEqual(["Prix : 29,99 €", ", une fois."]);
  expect(reply).toEqual({ message: "Prix : 29,99 €, une fois.", conversationId: "conv_12345678" });
});

test("a stream that ends before its done event is a failure, not a short answer", async () => {
  serveStream([event("delta", { text: "Vous payez " })]);
  const pieces: string[] = [];
  await expect(sendChat(payload, { onDelta: (t) => pieces.push(t) })).rejects.toBeInstanceOf(ChatFailure);
  expect(pieces).toEqual(["Vous payez "]);
});

test("a connection that breaks mid-reply is a failure", async () => {
  serveStream([event("delta", { text: "Vous payez " })], { fail: true });
  await expect(sendChat(payload, { onDelta: () => {} })).rejects.toBeInstanceOf(ChatFailure);
});

test("an error event from the server is a failure", async () => {
  serveStream([event("delta", { text: "Vous" }), event("error", { error: "No reply could be obtained from the assistant" })]);
  await expect(sendChat(payload, { onDelta: () => {} })).rejects.toBeInstanceOf(ChatFailure);
});

test("garbage between events is skipped; a done event without its fields is not an answer", async () => {
  serveStream(["data: {not json\n\n", ": keep-alive comment\n\n", event("delta", { text: 42 }), event("done", { message: "x" })]);
  await expect(sendChat(payload, { onDelta: () => {} })).rejects.toBeInstanceOf(ChatFailure);
});

test("an error status or a plain JSON answer are understood", async () => {
  globalThis.fetch = Object.assign(async () => Response.json({ error: "Too many messages." }, { status: 429 }), {
    preconnect: realFetch.preconnect,
  });
  await expect(sendChat(payload, { onDelta: () => {} })).rejects.toBeInstanceOf(ChatFailure);

  globalThis.fetch = Object.assign(async () => Response.json({ message: "Oui.", conversationId: "conv_12345678" }), {
    preconnect: realFetch.preconnect,
  });
  const pieces: string[] = [];
  expect(await sendChat(payload, { onDelta: (t) => pieces.push(t) })).toEqual({ message: "Oui.", conversationId: "conv_12345678" });
  expect(pieces).toEqual(["Oui."]);
});

test("too many messages (429) is told apart from a failure, with the seconds of Retry-After", async () => {
  globalThis.fetch = Object.assign(
    async () => Response.json({ error: "Too many messages." }, { status: 429, headers: { "retry-after": "53" } }),
    { preconnect: realFetch.preconnect },
  );
  const failure = await sendChat(payload, { onDelta: () => {} }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ChatFailure);
  expect(failure).toMatchObject({ reason: "rate-limited", retryAfterSeconds: 53 });

  globalThis.fetch = Object.assign(async () => new Response(null, { status: 500, headers: { "retry-after": "53" } }), {
    preconnect: realFetch.preconnect,
  });
  expect(await sendChat(payload, { onDelta: () => {} }).catch((error: unknown) => error)).toMatchObject({ reason: "failed" });
});

test("Retry-After is read as seconds or as an HTTP date; anything else is unknown", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  expect(retryAfterSeconds("53", now)).toBe(53);
  expect(retryAfterSeconds(" 120 ", now)).toBe(120);
  expect(retryAfterSeconds("Sun, 22 Nov 2026 10:01:30 GMT", now)).toBe(90);
  // A date already past: no wait left.
  expect(retryAfterSeconds("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
  expect(retryAfterSeconds(null, now)).toBeNull();
  expect(retryAfterSeconds("soon", now)).toBeNull();
  expect(retryAfterSeconds("-5", now)).toBeNull();
});

test("closing the chat aborts the request it made", async () => {
  const seen: { signal?: AbortSignal | null } = {};
  serveStream([event("delta", { text: "Vous" })], { seen });
  const controller = new AbortController();
  const pending = sendChat(payload, { onDelta: () => controller.abort(), signal: controller.signal });
  await expect(pending).rejects.toBeInstanceOf(ChatFailure);
  expect(seen.signal).toBe(controller.signal);
  expect(seen.signal?.aborted).toBe(true);
});

test("nothing is sent that the endpoint would refuse", async () => {
  let called = false;
  globalThis.fetch = Object.assign(
    async () => {
      called = true;
      return new Response(null, { status: 500 });
    },
    { preconnect: realFetch.preconnect },
  );
  await expect(sendChat({ messages: [{ role: "user", content: "   " }] }, { onDelta: () => {} })).rejects.toBeInstanceOf(ChatFailure);
  await expect(sendChat({ messages: [{ role: "assistant", content: "Bonjour" }] }, { onDelta: () => {} })).rejects.toBeInstanceOf(
    ChatFailure,
  );
  expect(called).toBe(false);
});
