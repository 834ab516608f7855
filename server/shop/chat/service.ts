import type { Db } from "../../../db/client";
import type { Write } from "../../../db/writer";
import { errorText } from "../../../shared/error-text";
import type { ChatRequest } from "../../../shared/schemas/chat";
import type { Config } from "../../platform/config";
import type { Logger } from "../../platform/log";
import type { ContentSource } from "../../site/content/live";
import { type Assistant, AssistantError } from "./assistant";
import { createOfflineAssistant } from "./offline-assistant";
import { readRecentMessages, recordChatMessage } from "./transcripts";

/** The most messages of a conversation handed to the assistant (the endpoint accepts 20). */
const MAX_HISTORY = 20;

/** Claude when a key is configured, the offline assistant otherwise (docs/product.md, "Support chat"). */
export function assistantFor(config: Config, content: ContentSource, now?: () => Date): Assistant {
  const site = { licenseActivationLimit: config.licenseActivationLimit, content };
  const offline = createOfflineAssistant(site, { now });
  const anthropic = config.anthropic;
  if (anthropic === undefined) return offline;
  // The Anthropic SDK (about 16 MB of memory per server process) is loaded with the first question.
  let claude: Promise<Assistant> | null = null;
  return {
    kind: "claude",
    async *reply(request) {
      claude ??= import("./claude-assistant").then((m) => m.createClaudeAssistant(anthropic, site, { now }));
      // Claude's reply is free text: whether it handed over is read from the same classifier the
      // offline assistant uses, so the owner's list of unanswered questions means the same thing
      // whichever assistant is on.
      const questions = request.messages.filter((m) => m.role === "user").map((m) => m.content);
      const last = questions.pop() ?? "";
      if (offline.answer(last, request.locale, questions).handedOver) request.onHandOver?.();
      yield* (await claude).reply({ ...request, onHandOver: undefined });
    },
  };
}

export type ChatService = {
  assistant: Assistant;
  /**
   * One exchange: records the visitor's message, yields the reply piece by piece, then records the
   * reply (what was produced so far when the visitor leaves mid-answer). Throws AssistantError when
   * no reply can be had, DatabaseBusyError when the question cannot be stored (nothing is asked).
   */
  converse(
    request: ChatRequest,
    conversationId: string,
    options?: { signal?: AbortSignal; stream?: boolean },
  ): AsyncGenerator<string, void>;
};

export function createChatService(deps: { db: Db; write: Write; log: Logger; now: () => Date; assistant: Assistant }): ChatService {
  const { db, write, log, now, assistant } = deps;
  return {
    assistant,
    async *converse(request, conversationId, options = {}) {
      const question = request.messages.at(-1);
      if (question === undefined) throw new AssistantError("No question", "upstream");
      // The history the model sees is the one this server stored for the conversation, not the
      // one the browser sends back: a visitor cannot put words ("yes, it's 5 €") in the assistant's
      // mouth. A conversation the server does not know starts with the question alone. Only its
      // last messages are read, however long it is.
      const history = readRecentMessages(db, conversationId, MAX_HISTORY - 1);
      const messages = [...history, { role: "user" as const, content: question.content }];
      // Stored before asking, so the visitor's question is kept even if no answer comes.
      await recordChatMessage(write, { conversationId, role: "user", content: question.content, locale: request.locale, at: now() });
      const started = performance.now();
      let reply = "";
      let handedOver = false;
      const onHandOver = () => {
        handedOver = true;
      };
      try {
        for await (const piece of assistant.reply({
          messages,
          locale: request.locale,
          signal: options.signal,
          stream: options.stream,
          onHandOver,
        })) {
          reply += piece;
          yield piece;
        }
        if (reply.trim() === "") throw new AssistantError("The assistant gave an empty reply", "upstream");
        log.info("chat reply", {
          conversationId,
          assistant: assistant.kind,
          locale: request.locale,
          chars: reply.length,
          ms: Math.round(performance.now() - started),
          handedOver,
        });
      } catch (error) {
        log.warn("chat reply failed", {
          conversationId,
          assistant: assistant.kind,
          reason: error instanceof AssistantError ? error.reason : "unexpected",
          error: errorText(error),
        });
        throw error instanceof AssistantError ? error : new AssistantError("The assistant failed", "upstream", { cause: error });
      } finally {
        if (reply.trim() !== "") {
          try {
            await recordChatMessage(write, {
              conversationId,
              role: "assistant",
              content: reply,
              locale: request.locale,
              at: now(),
              handedOver,
            });
          } catch (error) {
            // The visitor has the reply already; only the owner's transcript misses it.
            log.warn("chat reply not stored", { conversationId, error: errorText(error) });
          }
        }
      }
    },
  };
}
