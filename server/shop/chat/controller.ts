import { Elysia } from "elysia";
import type { Db } from "../../../db/client";
import { ENDPOINTS } from "../../../shared/api";
import { DEFAULT_LOCALE } from "../../../shared/locales";
import { CHAT_MAX_TURNS, type ChatReply, ChatRequestSchema, type ChatStreamEvent } from "../../../shared/schemas/chat";
import type { AppDeps } from "../../deps";
import { HttpError } from "../../platform/http/body";
import { clientAddress, requestContext } from "../../platform/http/context";
import { failureResponder } from "../../platform/http/failure";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { bodyParser, countedBy } from "../../platform/http/route-input";
import { loadIpHashSecret } from "../leads/service";
import { AssistantError } from "./assistant";
import { createConversationIds } from "./conversation-ids";
import { assistantFor, createChatService } from "./service";
import { conversationSize } from "./transcripts";

/**
 * A small body: 20 messages of 1,000 characters fit in well under 32 KiB of ordinary text; the
 * valibot schema then checks the real limits with a clear message.
 */
export const CHAT_MAX_BODY_BYTES = 32 * 1024;
/** Per client address: a burst limit, then an hourly one. */
export const CHAT_BURST = { limit: 8, windowMs: 60_000 };
export const CHAT_HOURLY = { limit: 60, windowMs: 3_600_000 };

const NO_REPLY = "No reply could be obtained from the assistant";

/** POST /api/chat (docs/support.md): `{ messages }` -> `{ message }`, or server-sent events. */
export function chatController(deps: AppDeps) {
  const { config, log, now } = deps;
  const fail = failureResponder(deps);
  const service = createChatService({ db: deps.db, write: deps.write, log, now, assistant: assistantFor(config, deps.content, now) });
  const burst = createRateLimiter(deps.rateLimits, { name: "chat-burst", ...CHAT_BURST });
  const hourly = createRateLimiter(deps.rateLimits, { name: "chat-hourly", ...CHAT_HOURLY });
  // Keyed by the site's IP-hash secret, read on first use (as the leads endpoint does).
  const conversationIds = createConversationIds(() => loadIpHashSecret(config.ipHashSecret, config.dataDir));

  const clientIp = clientAddress(config);
  const chatBody = bodyParser({
    maxBytes: CHAT_MAX_BODY_BYTES,
    accept: ["json"],
    failedCheck: 400,
    before: countedBy(
      clientIp,
      [burst, hourly],
      () => "Too many messages. Please try again later.",
      () => now().getTime(),
    ),
  });

  return new Elysia({ name: "chat" }).use(requestContext(config)).post(
    ENDPOINTS.chat.path,
    async ({ request, server, body: chat }) => {
      try {
        // Bun closes a connection idle for 10 s; a model may think longer than that before its
        // first word, and the stream must outlive the whole reply.
        if (config.anthropic) server?.timeout(request, Math.ceil(config.anthropic.timeoutMs / 1000) + 15);
        // The first message gets an id from the server; one it did not issue gets a new one, so
        // nobody can write into a conversation whose id they made up or guessed.
        const given = chat.conversationId;
        const continued = given !== undefined && conversationIds.isIssued(given);
        const conversationId = continued ? given : conversationIds.issue();
        if (given !== undefined && !continued) log.debug("chat conversation id not issued here, replaced", { given, conversationId });
        if (continued && isFull(deps.db, conversationId)) {
          throw new HttpError(
            409,
            `This conversation has reached its limit of ${CHAT_MAX_TURNS} questions. Please write to ${config.site.supportEmail}.`,
          );
        }
        const abort = new AbortController();
        request.signal.addEventListener("abort", () => abort.abort(), { once: true });
        const streaming = wantsEventStream(request);
        const pieces = service.converse(chat, conversationId, { signal: abort.signal, stream: streaming });
        if (streaming) return await eventStream(pieces, conversationId, abort);

        let message = "";
        try {
          for await (const piece of pieces) message += piece;
        } catch (error) {
          if (error instanceof AssistantError) throw new HttpError(502, NO_REPLY);
          throw error;
        }
        const reply: ChatReply = { message, conversationId };
        return Response.json(reply, { headers: { "cache-control": "no-store" } });
      } catch (error) {
        return fail(error, { request, locale: DEFAULT_LOCALE, what: "chat message not answered" });
      }
    },
    { parse: chatBody, body: ChatRequestSchema },
  );
}

/** CHAT_MAX_TURNS questions, or as many messages as that many questions and replies make. */
function isFull(db: Db, conversationId: string): boolean {
  const size = conversationSize(db, conversationId, 2 * CHAT_MAX_TURNS);
  return size.questions >= CHAT_MAX_TURNS || size.messages >= 2 * CHAT_MAX_TURNS;
}

function wantsEventStream(request: Request): boolean {
  return (request.headers.get("accept") ?? "").toLowerCase().includes("text/event-stream");
}

function sse(event: ChatStreamEvent): Uint8Array {
  return new TextEncoder().encode(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
}

/**
 * Streams the reply as server-sent events. The first piece is awaited before answering, so a reply
 * that fails from the start is a plain 502 JSON error; a failure after that is an `error` event.
 */
async function eventStream(pieces: AsyncGenerator<string, void>, conversationId: string, abort: AbortController): Promise<Response> {
  let first: IteratorResult<string, void>;
  try {
    first = await pieces.next();
  } catch (error) {
    if (error instanceof AssistantError) throw new HttpError(502, NO_REPLY);
    throw error;
  }
  let message = "";
  let pending: IteratorResult<string, void> | null = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await pieces.next());
        pending = null;
        if (next.done) {
          controller.enqueue(sse({ event: "done", data: { message, conversationId } }));
          controller.close();
          return;
        }
        message += next.value;
        controller.enqueue(sse({ event: "delta", data: { text: next.value } }));
      } catch {
        controller.enqueue(sse({ event: "error", data: { error: NO_REPLY } }));
        controller.close();
      }
    },
    async cancel() {
      // The visitor closed the page: stop asking the model; the service keeps what was said.
      abort.abort();
      await pieces.return(undefined).catch(() => {});
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // A visitor's conversation: no cache keeps it (like every API answer). Reverse proxies (nginx)
      // must pass each event on at once rather than buffer the answer.
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    },
  });
}
