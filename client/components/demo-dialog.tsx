import { useCallback, useEffect, useRef, useState } from "react";
import { LOCALE_TAGS } from "../../shared/locales";
import type { IslandProps } from "../../shared/page-data";
import { useText } from "../i18n";
import { DEMO_BUTTON } from "../islands/triggers";
import { Icon } from "./icons";

export const DEMO_DIALOG_TEXT = ["demo.title", "demo.titleNoDuration", "demo.close", "demo.unsupported", "demo.download"] as const;

/**
 * The demo video in a modal <dialog>, opened by any demo link of the page (DemoButton): the browser
 * traps focus, closes on Escape and gives focus back to the link that opened it. The <video> gets
 * its source only when the dialog opens, so the page never downloads it unasked. The video draws no
 * sentence and has no sound: its captions tell what it shows, in the page's language by default
 * (the others a click away in the player's menu).
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
      // Without <dialog> support, or asked for a new tab, the link opens the video file.
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
            <video
              className="demo-dialog__video"
              controls
              autoPlay={autoPlay}
              playsInline
              preload="metadata"
              poster={poster}
              width="1280"
              height="720"
            >
              <source src={video} type="video/mp4" />
              {captions.map((track) => (
                <track
                  key={track.locale}
                  kind="captions"
                  src={track.url}
                  srcLang={track.locale}
                  label={LOCALE_TAGS[track.locale].name}
                  default={track.locale === locale}
                />
              ))}
              <p>
                {t("demo.unsupported")} <a href={video}>{t("demo.download")}</a>
              </p>
            </video>
          ) : (
            <img className="demo-dialog__video" src={poster} alt="" width="1280" height="720" loading="lazy" decoding="async" />
          )}
        </div>
      </div>
    </dialog>
  );
}
