import { type ComponentType, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import type { IslandProps } from "../../shared/page-data";
import { useText } from "../i18n";
import { SUPPORT_BUTTON } from "../islands/triggers";
import { CHAT_WINDOW_TEXT } from "./chat-text";
import { Icon } from "./icons";
import { showToast } from "./toast";

type ChatWindowComponent = ComponentType<{ onClose: () => void }>;

type Panel = "none" | "menu" | "chat" | "email";

/**
 * Floating support button with a menu: Chat Support opens the chat window, Email Support copies the
 * support address and confirms with the toast "Email copié !" (docs/product.md). Where the
 * clipboard is refused, the address is shown selected with a mailto: link instead.
 *
 * Needs JavaScript: the stylesheet hides it from browsers without scripts (`scripting: none`), so a
 * visitor without them never meets a button that does nothing (the footer carries the address). The
 * islands' loader loads it when a visitor reaches for the button, and replays the click.
 */
const SUPPORT_OWN_TEXT = [
  "support.emailCopied",
  "support.emailCopiedDesc",
  "support.menu",
  "support.chat",
  "support.email",
  "support.emailManual",
  "toast.close",
  "chat.close",
  "chat.error",
  "chat.errorDesc",
  "support.button",
] as const;
export const SUPPORT_TEXT = [...SUPPORT_OWN_TEXT, ...CHAT_WINDOW_TEXT] as const;

export function SupportWidget({ supportEmail }: IslandProps["support"]) {
  const { t } = useText(SUPPORT_OWN_TEXT);
  const [panel, setPanel] = useState<Panel>("none");
  // The chat window's code (with its client, schemas and session) is a file of its own, fetched
  // when the menu opens, so it is usually there by the time "Chat" is chosen.
  const [ChatWindow, setChatWindow] = useState<ChatWindowComponent | null>(null);
  const menuId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const addressRef = useRef<HTMLAnchorElement>(null);
  const rootRef = useRef<HTMLElement>(null);
  // What opened the menu from outside (the payment page's help button): focus goes back there.
  const opener = useRef<HTMLElement | null>(null);

  // The payment page's help button opens the same menu; a modified click follows its mailto: link.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLElement>(SUPPORT_BUTTON) : null;
      if (button === null || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      opener.current = button;
      setPanel((current) => (current === "menu" ? "none" : "menu"));
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  useEffect(() => {
    if ((panel !== "menu" && panel !== "chat") || ChatWindow !== null) return;
    let current = true;
    import("./chat-window").then(
      (module) => current && setChatWindow(() => module.ChatWindow),
      () => {
        if (!current || panel !== "chat") return;
        showToast({ title: t("chat.error"), description: t("chat.errorDesc"), tone: "error" });
        setPanel("none");
      },
    );
    return () => {
      current = false;
    };
  }, [panel, ChatWindow, t]);

  // The menu takes focus on its first item; a click elsewhere closes it.
  useEffect(() => {
    if (panel !== "menu") return;
    menuRef.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target;
      if (!(target instanceof Node) || rootRef.current?.contains(target)) return;
      // The help button toggles the menu itself (its click comes after this).
      if (target instanceof Element && target.closest(SUPPORT_BUTTON) !== null) return;
      setPanel("none");
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [panel]);

  // Fallback when the clipboard is refused: the address, selected, ready to copy by hand.
  useEffect(() => {
    const link = addressRef.current;
    if (panel !== "email" || link === null) return;
    link.focus();
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.selectAllChildren(link);
  }, [panel]);

  const close = () => {
    setPanel("none");
    (opener.current ?? triggerRef.current)?.focus();
    opener.current = null;
  };

  const copyEmail = async () => {
    try {
      if (navigator.clipboard === undefined) throw new Error("no clipboard");
      await navigator.clipboard.writeText(supportEmail);
      setPanel("none");
      triggerRef.current?.focus();
      showToast({ title: t("support.emailCopied"), description: t("support.emailCopiedDesc"), tone: "success" });
    } catch {
      setPanel("email");
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    // biome-ignore lint/complexity/useIndexOf: activeElement is an Element, not the HTMLElement the list holds.
    const index = items.findIndex((item) => item === document.activeElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    switch (event.key) {
      case "Escape":
        event.preventDefault();
        close();
        break;
      case "ArrowDown":
        event.preventDefault();
        focusAt(index + 1);
        break;
      case "ArrowUp":
        event.preventDefault();
        focusAt(index - 1);
        break;
      case "Home":
        event.preventDefault();
        focusAt(0);
        break;
      case "End":
        event.preventDefault();
        focusAt(items.length - 1);
        break;
      case "Tab":
        setPanel("none");
        break;
    }
  };

  return (
    // A landmark of its own: the menu, the chat and the address it shows are not page content of
    // <main>, and would otherwise sit outside every landmark.
    <aside ref={rootRef} className="support" aria-label={t("support.button")}>
      {panel === "chat" && ChatWindow !== null ? <ChatWindow onClose={close} /> : null}
      {panel === "menu" ? (
        <div ref={menuRef} id={menuId} className="support__menu" role="menu" aria-label={t("support.menu")} onKeyDown={onMenuKeyDown}>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="support__item"
            data-track="chat_opened"
            onClick={() => setPanel("chat")}
          >
            <Icon name="chat" />
            <span>{t("support.chat")}</span>
          </button>
          <button type="button" role="menuitem" tabIndex={-1} className="support__item" onClick={() => void copyEmail()}>
            <Icon name="mail" />
            <span>{t("support.email")}</span>
          </button>
        </div>
      ) : null}
      {panel === "email" ? (
        <div
          className="support__email panel"
          role="group"
          aria-label={t("support.email")}
          onKeyDown={(event) => event.key === "Escape" && close()}
        >
          <p className="support__email-text">{t("support.emailManual")}</p>
          <a ref={addressRef} className="support__address" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>
          <button type="button" className="icon-button support__email-close" onClick={close} aria-label={t("toast.close")}>
            <Icon name="close" />
          </button>
        </div>
      ) : null}
      <button
        ref={triggerRef}
        type="button"
        className="support__trigger"
        aria-haspopup="menu"
        aria-expanded={panel === "menu"}
        aria-controls={panel === "menu" ? menuId : undefined}
        aria-label={panel === "chat" ? t("chat.close") : t("support.button")}
        onClick={() => {
          opener.current = null;
          setPanel((current) => (current === "none" || current === "email" ? "menu" : "none"));
        }}
      >
        <Icon name={panel === "chat" ? "close" : "support"} />
      </button>
    </aside>
  );
}
