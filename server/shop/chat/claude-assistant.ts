import Anthropic from "@anthropic-ai/sdk";
import { errorText } from "../../../shared/error-text";
import type { Locale } from "../../../shared/locales";
import type { Config } from "../../platform/config";
import { type Assistant, AssistantError } from "./assistant";
import type { ChatSiteConfig } from "./site-content";
import { buildSystemPrompt } from "./system-prompt";

// Claude through the Anthropic SDK when ANTHROPIC_API_KEY is set (docs/product.md, "Support chat").
// The reply is streamed from the Messages API and passed on piece by piece.

/**
 * How much of the conversation is sent: the latest messages only, enough for a support exchange,
 * so a long chat neither grows the bill nor pushes the site content out of the model's attention.
 */
export const CLAUDE_HISTORY = 10;

export type ClaudeSettings = NonNullable<Config["anthropic"]>;

export function createClaudeAssistant(
  settings: ClaudeSettings,
  site: ChatSiteConfig,
  options: { now?: () => Date; maxRetries?: number } = {},
): Assistant {
  const client = new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl ?? null,
    timeout: settings.timeoutMs,
    // One retry for a transient 429/5xx/connection failure; the overall deadline below still holds.
    maxRetries: options.maxRetries ?? 1,
  });
  const prompts = new Map<Locale, { day: string; prompt: string }>();
  const promptFor = (locale: Locale) => {
    const now = options.now?.() ?? new Date();
    // A new prompt each day, and as soon as the offer ends (its answer changes then).
    const day = `${now.toISOString().slice(0, 10)}:${site.content.current().edition(now)}`;
    let cached = prompts.get(locale);
    if (cached === undefined || cached.day !== day) {
      cached = { day, prompt: buildSystemPrompt(site, locale, now) };
      prompts.set(locale, cached);
    }
    return cached.prompt;
  };

  return {
    kind: "claude",
    async *reply({ messages, locale, signal, stream = true }) {
      const history = messages.slice(-CLAUDE_HISTORY);
      // The Messages API wants the conversation to open with the user.
      while (history.length > 0 && history[0]?.role !== "user") history.shift();
      const params = {
        model: settings.model,
        max_tokens: settings.maxTokens,
        system: promptFor(locale),
        messages: history.map((m) => ({ role: m.role, content: m.content })),
      };

      const deadline = AbortSignal.timeout(settings.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      let stopped = false;
      try {
        if (!stream) {
          const message = await client.messages.create(params, { signal: combined });
          const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
          if (text !== "") yield text;
          return;
        }
        const events = await client.messages.create({ ...params, stream: true }, { signal: combined });
        for await (const event of events) {
          if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
            if (event.delta.text !== "") yield event.delta.text;
          } else if (event.type === "message_stop") {
            stopped = true;
          }
        }
      } catch (error) {
        throw asAssistantError(error, { deadline, signal, timeoutMs: settings.timeoutMs });
      }
      if (!stopped) throw new AssistantError("Claude stream ended before message_stop", "broken-stream");
    },
  };
}

function asAssistantError(
  error: unknown,
  context: { deadline: AbortSignal; signal: AbortSignal | undefined; timeoutMs: number },
): AssistantError {
  if (error instanceof AssistantError) return error;
  if (context.deadline.aborted || error instanceof Anthropic.APIConnectionTimeoutError) {
    return new AssistantError(`Claude did not answer within ${context.timeoutMs} ms`, "timeout", { cause: error });
  }
  if (context.signal?.aborted) return new AssistantError("The visitor went away", "aborted", { cause: error });
  if (error instanceof Anthropic.APIError && error.status !== undefined) {
    return new AssistantError(`Claude answered ${error.status}: ${error.message}`, "upstream", { cause: error });
  }
  return new AssistantError(`Claude stream failed: ${errorText(error)}`, "broken-stream", {
    cause: error,
  });
}
