import { useCallback, useEffect, useRef, useState } from "react";
import type { IslandProps } from "../../shared/page-data";
import { useText } from "../i18n";
import { DEMO_BUTTON } from "../islands/triggers";
import { DemoVideo } from "./demo-video";
import { Icon } from "./icons";

export const DEMO_DIALOG_TEXT = ["demo.title", "demo.titleNoDuration", "demo.close", "demo.unsupported", "demo.download"] as const;

/**
 * The demo video in a modal <dialog>, opened by any demo link of the page (DemoButton): the browser
 * traps focus, closes on Escape and gives focus back to the link that opened it. The <video> gets
 * its source only when the dialog opens, so the page never downloads it unasked. It is the demo
 * page's player (DemoVideo): the same file and caption tracks, the page's language shown.
 */
export function DemoDialog({ poster, video, seconds, captions }: IslandProps["demo"]) {
  const { t, locale } = useText(DEMO_DIALOG_TEXT);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [isOpen, setOpen] = useState(false);
  // Visitors who ask for reduced motion start the video themselves.
  const [autoPlay, setAutoPlay] = useState(false);

  const close = useCallback(() => dialogRef.current?.close(), []);

  // The links are server HTML outside this island: one listener for all of them.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest<HTMLElement>(DEMO_BUTTON) : null;
      const dialog = dialogRef.current;
      // Without <dialog> support, or asked for a new tab, the link opens the demo page (its href).
      if (link === null || dialog === null || typeof dialog.showModal !== "function") return;
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      opener.current = link;
      setAutoPlay(!window.matchMedia("(prefers-reduced-motion: reduce)").matches);
      setOpen(true);
      dialog.showModal();
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog === null) return;
    const onClose = () => {
      setOpen(false);
      opener.current?.focus();
    };
    dialog.addEventListener("close", onClose);
    return () => dialog.removeEventListener("close", onClose);
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className="modal demo-dialog"
      aria-labelledby="demo-title"
      onClick={(event) => {
        if (event.target === event.currentTarget) close(); // click on the backdrop
      }}
    >
      <div className="demo-dialog__panel">
        <header className="demo-dialog__header">
          {/* The length the file really has (read by the server), never a figure typed in a text. */}
          <h2 id="demo-title">{seconds === null ? t("demo.titleNoDuration") : t("demo.title", { seconds })}</h2>
          <button type="button" className="icon-button" onClick={close} aria-label={t("demo.close")} autoFocus>
            <Icon name="close" />
          </button>
        </header>
        <div className="demo-dialog__frame">
          {isOpen ? (
            <DemoVideo
              poster={poster}
              video={video}
              captions={captions}
              locale={locale}
              preload="metadata"
              autoPlay={autoPlay}
              unsupported={t("demo.unsupported")}
              download={t("demo.download")}
            />
          ) : (
            <img className="demo-video" src={poster} alt="" width="1280" height="720" loading="lazy" decoding="async" />
          )}
        </div>
      </div>
    </dialog>
  );
}
