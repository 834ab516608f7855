import type { Server } from "bun";

// A fake Anthropic Messages API on loopback (tests drive the real SDK against a fake
// server, so the request the SDK sends is what gets checked). It speaks the wire format of
// POST /v1/messages: a JSON `message`, or server-sent events message_start, content_block_start,
// content_block_delta (text_delta), content_block_stop, message_delta, message_stop; errors as
// `{ type: "error", error: { type, message } }` with the HTTP status.

export type FakeBehaviour =
  /** Answers with these text pieces (one content_block_delta each when streaming). */
  | { kind: "reply"; pieces: string[]; holdAfterFirst?: boolean }
  | { kind: "error"; status: number; type: string; message: string }
  /** Accepts the request and never answers. */
  | { kind: "hang" }
  /** Streams the start and one delta, then ends the response without message_stop. */
  | { kind: "truncated"; pieces: string[] }
  /** Streams one delta, then breaks the connection mid-response. */
  | { kind: "broken"; pieces: string[] };

export type ReceivedRequest = { headers: Headers; body: Record<string, unknown>; path: string };

export type FakeAnthropic = {
  url: string;
  requests: ReceivedRequest[];
  behave(behaviour: FakeBehaviour): void;
  /** Lets a reply held with `holdAfterFirst` send the rest. */
  release(): void;
  stop(): Promise<void>;
};

const encoder = new TextEncoder();
const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

export function startFakeAnthropic(initial: FakeBehaviour = { kind: "reply", pieces: ["Bonjour", " !"] }): FakeAnthropic {
  let behaviour = initial;
  let releaseHold: () => void = () => {};
  let held = Promise.withResolvers<void>();
  const requests: ReceivedRequest[] = [];
  const hanging: (() => void)[] = [];

  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const body: Record<string, unknown> = await request.json().catch(() => ({}));
      requests.push({ headers: request.headers, body, path });
      if (path !== "/v1/messages" || request.method !== "POST") {
        return Response.json({ type: "error", error: { type: "not_found_error", message: "Not found" } }, { status: 404 });
      }
      // The SDK sends the key as x-api-key or, in recent versions, as a Bearer token.
      if (apiKeyOf(request.headers) === null || request.headers.get("anthropic-version") === null) {
        return Response.json({ type: "error", error: { type: "authentication_error", message: "missing key" } }, { status: 401 });
      }
      const model = String(body.model);
      const current = behaviour;
      switch (current.kind) {
        case "error":
          return Response.json(
            { type: "error", error: { type: current.type, message: current.message } },
            { status: current.status, headers: { "request-id": "req_fake", "x-should-retry": "false" } },
          );
        case "hang":
          return new Promise<Response>((resolve) => {
            hanging.push(() => resolve(new Response(null, { status: 499 })));
          });
        case "reply":
        case "truncated":
        case "broken":
          break;
      }
      const pieces = current.pieces;
      if (body.stream !== true) {
        return Response.json({
          id: "msg_fake",
          type: "message",
          role: "assistant",
          model,
          content: [{ type: "text", text: pieces.join("") }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: pieces.length },
        });
      }
      const hold = current.kind === "reply" && current.holdAfterFirst === true ? held.promise : null;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(
            event("message_start", {
              type: "message_start",
              message: {
                id: "msg_fake",
                type: "message",
                role: "assistant",
                content: [],
                model,
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: 100, output_tokens: 1 },
              },
            }),
          );
          controller.enqueue(
            event("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
          );
          controller.enqueue(event("ping", { type: "ping" }));
          for (const [i, text] of pieces.entries()) {
            controller.enqueue(
              event("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
            );
            if (i === 0 && hold !== null) await hold;
            if (i === 0 && current.kind === "broken") {
              // The connection drops mid-stream (the client sees a reset). Erroring with no reason:
              // an Error would also be printed by Bun as unhandled, and counted as a failure of
              // whichever test file runs when it surfaces.
              controller.error(undefined);
              return;
            }
            if (i === 0 && current.kind === "truncated") {
              controller.close();
              return;
            }
          }
          controller.enqueue(event("content_block_stop", { type: "content_block_stop", index: 0 }));
          controller.enqueue(
            event("message_delta", {
              type: "message_delta",
              delta: { stop_reason: "end_turn", stop_sequence: null },
              usage: { output_tokens: pieces.length },
            }),
          );
          controller.enqueue(event("message_stop", { type: "message_stop" }));
          controller.close();
        },
      });
      return new Response(stream, {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake" },
      });
    },
  });

  releaseHold = () => {
    held.resolve();
    held = Promise.withResolvers<void>();
  };

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    behave(next) {
      behaviour = next;
    },
    release: () => releaseHold(),
    async stop() {
      for (const finish of hanging) finish();
      held.resolve();
      await server.stop(true);
    },
  };
}

/** The API key a request carries, whichever header the SDK version uses. */
export function apiKeyOf(headers: Headers): string | null {
  return headers.get("x-api-key") ?? headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? null;
}
