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

// Assistant replies are plain text; a site path in them ("/en/access", "/cgv"), a web address or an
// e-mail address becomes a link, so a buyer sent to the access form, the terms of sale or the
// support address can open it from the chat (an address opens the visitor's mail program).
const LINKABLE =
  /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)]|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}|(?<![\w/])\/(?:[a-z]{2}\/)?(?:access|guide|paiement|cgv|confidentialite|mentions-legales)\b)/gi;

const hrefOf = (link: string) => (link.includes("@") && !link.includes("/") ? `mailto:${link}` : link);

export function ChatText({ text }: { text: string }): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINKABLE)) {
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      <a key={at} href={hrefOf(match[0])}>
        {match[0]}
      </a>,
    );
    last = at + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
