import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { CHAT_MAX_CHARS, type ChatMessage } from "../../shared/schemas/chat";
import { useI18n } from "../i18n";
import { ChatText } from "./chat-text";
import { chatPayload, sendChat } from "./chat-client";
import { Icon } from "./icons";
import { useToast } from "./toast";

type Line = ChatMessage & { id: number };

/**
 * The chat window (spec sections 4, 5, 8; issue 5): starts with the assistant's greeting, sends only
 * non-empty messages and one at a time, shows the reply as it streams in and scrolls to it.
 */
export function ChatWindow({ onClose }: { onClose: () => void }) {
  const { t, locale } = useI18n();
  const toast = useToast();
  const titleId = useId();
  const inputId = useId();
  const [lines, setLines] = useState<Line[]>([]);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState(false);
  /** The reply being streamed, shown as it grows; null when none is on its way. */
  const [partial, setPartial] = useState<string | null>(null);
  const conversationId = useRef<string | null>(null);
  const nextId = useRef(1);
  const abort = useRef<AbortController | null>(null);
  const logRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    inputRef.current?.focus();
    return () => abort.current?.abort();
  }, []);

  // Keep the newest message in view (issue 5: "the list scrolls to it").
  useEffect(() => {
    const log = logRef.current;
    if (log !== null) log.scrollTop = log.scrollHeight;
  }, [lines, partial, pending]);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = draft.trim();
    // Spec section 5: nothing empty is sent, and nothing while a reply is pending.
    if (text === "" || pending) return;
    const question: Line = { id: nextId.current++, role: "user", content: text };
    const history = [...lines, question];
    setLines(history);
    setDraft("");
    setPending(true);
    setPartial(null);
    const controller = new AbortController();
    abort.current = controller;
    let streamed = "";
    try {
      const reply = await sendChat(chatPayload(history, locale, conversationId.current), {
        signal: controller.signal,
        onDelta: (piece) => {
          streamed += piece;
          setPartial(streamed);
        },
      });
      conversationId.current = reply.conversationId;
      setLines((current) => [...current, { id: nextId.current++, role: "assistant", content: reply.message }]);
    } catch {
      if (controller.signal.aborted) return; // the window was closed
      // Spec section 8: the "Erreur" toast; the question goes back in the field to try again.
      toast.show({ title: t("chat.error"), description: t("chat.errorDesc"), tone: "error" });
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
      <header className="chat-window__header">
        <span className="chat-window__avatar" aria-hidden="true">
          <Icon name="chat" />
        </span>
        <h2 id={titleId} className="chat-window__title">
          {t("chat.title")}
        </h2>
        <button type="button" className="icon-button chat-window__close" onClick={onClose} aria-label={t("chat.close")}>
          <Icon name="close" />
        </button>
      </header>
      <ol ref={logRef} className="chat-log" role="log" aria-live="polite" aria-busy={pending} aria-label={t("chat.title")}>
        <ChatLine role="assistant" content={t("chat.greeting")} />
        {lines.map((line) => (
          <ChatLine key={line.id} role={line.role} content={line.content} />
        ))}
        {partial !== null && partial !== "" ? <ChatLine role="assistant" content={partial} streaming /> : null}
        {pending && (partial === null || partial === "") ? (
          <li className="chat-msg chat-msg--assistant chat-msg--loading">
            <span className="chat-typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span className="chat-loading-text">{t("chat.loading")}</span>
          </li>
        ) : null}
      </ol>
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
          placeholder={t("chat.placeholder")}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className="button button--primary chat-form__send" disabled={pending || draft.trim() === ""} aria-label={t("chat.send")}>
          <Icon name="send" />
        </button>
      </form>
    </section>
  );
}

function ChatLine({ role, content, streaming = false }: { role: ChatMessage["role"]; content: string; streaming?: boolean }) {
  const { t } = useI18n();
  return (
    <li className={`chat-msg chat-msg--${role}${streaming ? " chat-msg--streaming" : ""}`}>
      <span className="sr-only">{role === "user" ? t("chat.you") : t("chat.assistant")}: </span>
      <span className="chat-msg__text">{role === "assistant" ? <ChatText text={content} /> : content}</span>
    </li>
  );
}
