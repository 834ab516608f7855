import type { Locale } from "../../../shared/locales";
import type { ChatMessage } from "../../../shared/schemas/chat";

// The support chat's third party sits behind this small interface: Claude through the
// Anthropic SDK when a key is configured, the offline assistant otherwise (docs/product.md,
// "Support chat"). Both answer as a stream of text pieces so the visitor sees the reply as it is produced.

export type AssistantRequest = {
  /** The conversation so far, the last message from the visitor (validated by ChatRequestSchema). */
  messages: ChatMessage[];
  locale: Locale;
  /** Aborted when the visitor goes away or the answer takes too long. */
  signal?: AbortSignal;
  /** False when the caller wants the reply in one piece (the JSON answer): no need to stream then. */
  stream?: boolean;
  /**
   * Called when the reply hands the question over to the support address instead of answering it,
   * so the owner can list the questions the site's texts do not answer.
   */
  onHandOver?: () => void;
};

export type Assistant = {
  kind: "claude" | "offline";
  /** Yields the reply piece by piece; throws AssistantError when no reply can be had. */
  reply(request: AssistantRequest): AsyncIterable<string>;
};

/** A reply that could not be obtained: the visitor sees the "Erreur" toast (docs/product.md, "Validation and error messages"). */
export class AssistantError extends Error {
  constructor(
    message: string,
    readonly reason: "timeout" | "upstream" | "broken-stream" | "aborted",
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AssistantError";
  }
}
