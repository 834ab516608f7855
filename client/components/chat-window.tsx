import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import type { MessageValues } from "../../shared/i18n";
import { CHAT_MAX_CHARS, type ChatMessage } from "../../shared/schemas/chat";
import { useText } from "../i18n";
import { ChatFailure, chatPayload, sendChat } from "./chat-client";
import { type ChatSession, loadChatSession, saveChatSession } from "./chat-session";
import { CHAT_LINE_TEXT, CHAT_WINDOW_OWN_TEXT, ChatText } from "./chat-text";
import { Icon } from "./icons";
import { showToast } from "./toast";

type Line = ChatSession["lines"][number];

/**
 * How long to wait, in the words of chat.rateLimited: seconds under 45, else minutes rounded up (53 s
 * is "about a minute"), so a visitor who waits as told is not refused again.
 */
export function waitValues(seconds: number | null): MessageValues {
  if (seconds === null || seconds <= 0) return { unit: "moment", count: 0 };
  if (seconds < 45) return { unit: "second", count: seconds };
  return { unit: "minute", count: Math.ceil(seconds / 60) };
}

/**
 * The chat window (docs/product.md, "Behaviour the pages keep"): starts with the assistant's
 * greeting, sends only non-empty messages and one at a time, shows the reply as it streams in and
 * scrolls to it. The conversation is kept for the browser tab (chat-session.ts): closed and
 * reopened, it carries on under the id the server issued. When the server says the conversation is
 * full, the window says so and points to the support address instead of offering to send more; when
 * it says to slow down (429), the window says how long to wait, and the question stays in the field
 * to send again.
 */
export function ChatWindow({ onClose }: { onClose: () => void }) {
  const { t, locale } = useText(CHAT_WINDOW_OWN_TEXT);
  const titleId = useId();
  const inputId = useId();
  const [session] = useState(loadChatSession);
  const [lines, setLines] = useState<Line[]>(session.lines);
  const [conversationId, setConversationId] = useState<string | null>(session.conversationId);
  const [full, setFull] = useState(session.full);
  /** The server asked to wait (429): a new id each time, so that the live region announces it again. */
  const [wait, setWait] = useState<{ id: number; seconds: number | null } | null>(null);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState(false);
  /** The reply being streamed, shown as it grows; null when none is on its way. */
  const [partial, setPartial] = useState<string | null>(null);
  const nextId = useRef(Math.max(0, ...session.lines.map((line) => line.id)) + 1);
  const abort = useRef<AbortController | null>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
    return () => abort.current?.abort();
  }, []);

  // Keep the newest message in view, so a reply never arrives out of sight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the values that change the log's height re-run it, not the ones it reads.
  useEffect(() => {
    const log = logRef.current;
    if (log !== null) log.scrollTop = log.scrollHeight;
  }, [lines, partial, pending, full, wait]);

  // Saved once each exchange is over: a question whose reply never came (window closed meanwhile)
  // is not shown again as if it had been answered.
  useEffect(() => {
    if (!pending) saveChatSession({ conversationId, lines, full });
  }, [conversationId, lines, full, pending]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = draft.trim();
    // Nothing empty is sent, and nothing while a reply is pending.
    if (text === "" || pending || full) return;
    const question: Line = { id: nextId.current++, role: "user", content: text };
    const history = [...lines, question];
    setLines(history);
    setDraft("");
    setPending(true);
    setPartial(null);
    setWait(null);
    const controller = new AbortController();
    abort.current = controller;
    let streamed = "";
    try {
      const reply = await sendChat(chatPayload(history, locale, conversationId), {
        signal: controller.signal,
        onDelta: (piece) => {
          streamed += piece;
          setPartial(streamed);
        },
      });
      setConversationId(reply.conversationId);
      setLines((current) => [...current, { id: nextId.current++, role: "assistant", content: reply.message }]);
    } catch (error) {
      if (controller.signal.aborted) return; // the window was closed
      if (error instanceof ChatFailure && error.reason === "full") setFull(true);
      // Not an error to report to the support address: the visitor only has to wait a little.
      else if (error instanceof ChatFailure && error.reason === "rate-limited")
        setWait({ id: nextId.current++, seconds: error.retryAfterSeconds });
      // The "Erreur" toast (docs/product.md); the question goes back in the field to try again.
      else showToast({ title: t("chat.error"), description: t("chat.errorDesc"), tone: "error" });
      setLines((current) => current.filter((line) => line.id !== question.id));
      setDraft((current) => (current === "" ? text : current));
    } finally {
      if (!controller.signal.aborted) {
        setPartial(null);
        setPending(false);
        inputRef.current?.focus();
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <section className="chat-window" role="dialog" aria-modal="false" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      {/* Not a <header>: that would be a second "banner" landmark beside the site's header. */}
      <div className="chat-window__header">
        <span className="chat-window__avatar" aria-hidden="true">
          <Icon name="chat" />
        </span>
        <h2 id={titleId} className="chat-window__title">
          {t("chat.title")}
        </h2>
        <button type="button" className="icon-button chat-window__close" onClick={onClose} aria-label={t("chat.close")}>
          <Icon name="close" />
        </button>
      </div>
      {/* role="log" is not allowed on a list, and messages of a log need no list: plain blocks.
          Focusable, so that a keyboard can scroll back through a conversation longer than the window. */}
      <div ref={logRef} className="chat-log" role="log" tabIndex={0} aria-live="polite" aria-busy={pending} aria-label={t("chat.title")}>
        <ChatLine role="assistant" content={t("chat.greeting")} />
        {lines.map((line) => (
          <ChatLine key={line.id} role={line.role} content={line.content} />
        ))}
        {partial !== null && partial !== "" ? <ChatLine role="assistant" content={partial} streaming /> : null}
        {full ? (
          <div className="chat-msg chat-msg--assistant chat-msg--notice">
            <span className="chat-msg__text">
              <ChatText text={t("chat.limitReached")} />
            </span>
          </div>
        ) : null}
        {wait !== null ? (
          <div key={wait.id} className="chat-msg chat-msg--assistant chat-msg--notice">
            <span className="chat-msg__text">{t("chat.rateLimited", waitValues(wait.seconds))}</span>
          </div>
        ) : null}
        {pending && (partial === null || partial === "") ? (
          <div className="chat-msg chat-msg--assistant chat-msg--loading">
            <span className="chat-typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span className="chat-loading-text">{t("chat.loading")}</span>
          </div>
        ) : null}
      </div>
      <form className="chat-form" onSubmit={send} noValidate>
        <label htmlFor={inputId} className="sr-only">
          {t("chat.label")}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          className="chat-form__input"
          type="text"
          name="message"
          autoComplete="off"
          maxLength={CHAT_MAX_CHARS}
          disabled={full}
          placeholder={t("chat.placeholder")}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="submit"
          className="button button--primary chat-form__send"
          disabled={pending || full || draft.trim() === ""}
          aria-label={t("chat.send")}
        >
          <Icon name="send" />
        </button>
      </form>
    </section>
  );
}

function ChatLine({ role, content, streaming = false }: { role: ChatMessage["role"]; content: string; streaming?: boolean }) {
  const { t } = useText(CHAT_LINE_TEXT);
  return (
    <div className={`chat-msg chat-msg--${role}${streaming ? " chat-msg--streaming" : ""}`}>
      <span className="sr-only">{role === "user" ? t("chat.you") : t("chat.assistant")}: </span>
      <span className="chat-msg__text">{role === "assistant" ? <ChatText text={content} /> : content}</span>
    </div>
  );
}
