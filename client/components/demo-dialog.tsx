import { createContext, useCallback, useContext, useEffect, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { useI18n } from "../i18n";
import { Icon } from "./icons";

type DemoApi = { open: (event: MouseEvent<HTMLElement>) => void };
const DemoContext = createContext<DemoApi | null>(null);

/**
 * The demo video in a modal <dialog>: the browser traps focus, closes on Escape and gives focus
 * back to the button that opened it. The <video> gets its source only when the dialog opens, so the
 * page never downloads it unasked.
 */
export function DemoDialogProvider({ children }: { children: ReactNode }) {
  const { t, data } = useI18n();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [isOpen, setOpen] = useState(false);
  // Visitors who ask for reduced motion start the video themselves.
  const [autoPlay, setAutoPlay] = useState(false);

  const open = useCallback((event: MouseEvent<HTMLElement>) => {
    const dialog = dialogRef.current;
    if (dialog === null || typeof dialog.showModal !== "function") return; // no <dialog>: follow the link
    event.preventDefault();
    opener.current = event.currentTarget;
    setAutoPlay(!window.matchMedia("(prefers-reduced-motion: reduce)").matches);
    setOpen(true);
    dialog.showModal();
  }, []);

  const close = useCallback(() => dialogRef.current?.close(), []);

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
    <DemoContext.Provider value={{ open }}>
      {children}
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
            <h2 id="demo-title">{t("demo.title")}</h2>
            <button type="button" className="icon-button" onClick={close} aria-label={t("demo.close")} autoFocus>
              <Icon name="close" />
            </button>
          </header>
          <div className="demo-dialog__frame">
            {isOpen ? (
              <video className="demo-dialog__video" controls autoPlay={autoPlay} playsInline preload="metadata" poster={data.assets.poster} width="1280" height="720">
                <source src={data.assets.video} type="video/mp4" />
                <p>
                  {t("demo.unsupported")} <a href={data.assets.video}>{t("demo.download")}</a>
                </p>
              </video>
            ) : (
              <img className="demo-dialog__video" src={data.assets.poster} alt="" width="1280" height="720" loading="lazy" decoding="async" />
            )}
          </div>
        </div>
      </dialog>
    </DemoContext.Provider>
  );
}

/** A link to the video file (works without JavaScript) that opens the dialog when it can. */
export function DemoButton({ className, children }: { className: string; children: ReactNode }) {
  const api = useContext(DemoContext);
  const { data } = useI18n();
  return (
    <a href={data.assets.video} className={className} aria-haspopup="dialog" onClick={api?.open} data-demo-button="">
      {children}
    </a>
  );
}
