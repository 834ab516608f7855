import type { ReactNode } from "react";

// The chat window's texts, here rather than in chat-window.tsx: the support island lists them, and
// the window's own code is loaded only when it opens.
export const CHAT_WINDOW_OWN_TEXT = [
  "chat.error",
  "chat.errorDesc",
  "chat.title",
  "chat.close",
  "chat.greeting",
  "chat.limitReached",
  "chat.rateLimited",
  "chat.loading",
  "chat.label",
  "chat.placeholder",
  "chat.send",
] as const;
export const CHAT_LINE_TEXT = ["chat.you", "chat.assistant"] as const;
export const CHAT_WINDOW_TEXT = [...CHAT_WINDOW_OWN_TEXT, ...CHAT_LINE_TEXT] as const;

// Assistant replies are plain text; a site path in them ("/en/access", "/cgv") or a web address
// becomes a link, so a buyer sent to the access form or the terms of sale can open it from the chat.
const LINKABLE = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)]|(?<![\w/])\/(?:[a-z]{2}\/)?(?:access|guide|paiement|cgv)\b)/g;

export function ChatText({ text }: { text: string }): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINKABLE)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      <a key={at} href={match[0]}>
        {match[0]}
      </a>,
    );
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
