import { type MouseEvent, useCallback, useEffect, useRef } from "react";
import type { IslandProps } from "../../shared/page-data";
import { useText } from "../i18n";
import { EXIT_POPUP_DELAY_MS, exitPopupWasShown, markExitPopupShown } from "./exit-popup-memory";
import { Icon } from "./icons";
import { LEAD_FORM_TEXT, LEAD_SUBMIT_TEXT, LeadForm, useLeadSubmit } from "./lead-form";

/** A screen used with a finger (its primary pointer is coarse): no keyboard on screen until asked. */
const TOUCH_SCREEN = "(pointer: coarse)";
/** When the visitor is busy at that moment (see visitorIsBusy), look again this much later. */
const BUSY_RETRY_MS = 3_000;

/**
 * A modal opened now would interrupt the visitor: another dialog is open (the demo video, the
 * support chat, which is a non-modal role="dialog" panel), or they are typing in a field (the chat,
 * or the free-demo form itself). The modal would take their focus and make what they type go nowhere.
 */
function visitorIsBusy(): boolean {
  if (document.querySelector("dialog[open], [role='dialog']:not(dialog)") !== null) return true;
  const active = document.activeElement;
  return active instanceof HTMLElement && active.matches("input, textarea, select, [contenteditable='true']");
}

/** The pointer is on the dialog's backdrop: on the dialog element itself, outside its box (not on its scrollbar). */
function isOnBackdrop(event: MouseEvent<HTMLDialogElement>): boolean {
  if (event.target !== event.currentTarget) return false;
  const box = event.currentTarget.getBoundingClientRect();
  return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom;
}

const EXIT_POPUP_OWN_TEXT = ["toast.close", "exitPopup.title", "exitPopup.text", "exitPopup.close"] as const;
export const EXIT_POPUP_TEXT = [...EXIT_POPUP_OWN_TEXT, ...LEAD_FORM_TEXT, ...LEAD_SUBMIT_TEXT] as const;

/**
 * The free demo offered once, 30 s into the visit (a timed offer, not an exit-intent trap: it opens
 * whatever the pointer does; the specification calls it the exit popup). On the landing page only
 * (client/app.tsx), so it never opens on the payment, success or cancelled pages. A modal <dialog>: the browser keeps focus inside, Escape
 * closes it, and screen readers announce it by its title and text. `usedForm`: the visitor just
 * posted the free-demo form at the end of the page, and is not asked again.
 */
export function ExitPopup({ usedForm }: IslandProps["exit-popup"]) {
  const { t } = useText(EXIT_POPUP_OWN_TEXT);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const pressedOnBackdrop = useRef(false);
  const close = useCallback(() => dialogRef.current?.close(), []);
  const lead = useLeadSubmit("exit_popup", close);

  useEffect(() => {
    if (usedForm) markExitPopupShown();
    if (exitPopupWasShown()) return;
    let timer: ReturnType<typeof setTimeout>;
    const tryOpen = () => {
      const dialog = dialogRef.current;
      if (dialog === null || typeof dialog.showModal !== "function" || dialog.open || exitPopupWasShown()) return;
      if (visitorIsBusy()) {
        timer = setTimeout(tryOpen, BUSY_RETRY_MS);
        return;
      }
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      markExitPopupShown();
      dialog.showModal();
      // On a touch screen a focused field brings the keyboard up uninvited, over half the popup:
      // there the dialog itself takes the focus (screen readers start at its title), and the field
      // waits for a tap. With a mouse or a keyboard the field is ready for typing.
      if (window.matchMedia(TOUCH_SCREEN).matches) dialog.focus();
      else inputRef.current?.focus();
    };
    // Counted from the page load (navigation start), not from hydration.
    timer = setTimeout(tryOpen, Math.max(0, EXIT_POPUP_DELAY_MS - performance.now()));
    return () => clearTimeout(timer);
  }, [usedForm]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog === null) return;
    const onClose = () => {
      lead.clearError();
      // Focus goes back where it was, if that is still on the page.
      if (opener.current?.isConnected) opener.current.focus();
      opener.current = null;
    };
    dialog.addEventListener("close", onClose);
    return () => dialog.removeEventListener("close", onClose);
  }, [lead.clearError]);

  return (
    <dialog
      ref={dialogRef}
      id="exit-popup"
      className="modal exit-popup"
      tabIndex={-1}
      aria-labelledby="exit-popup-title"
      aria-describedby="exit-popup-text"
      // A click on the backdrop closes it, but only when it also began there: a drag that starts in
      // the field (selecting the address) and ends outside is reported as a click on the dialog too,
      // and would otherwise lose the popup, which never comes back.
      onPointerDown={(event) => {
        pressedOnBackdrop.current = isOnBackdrop(event);
      }}
      onClick={(event) => {
        if (pressedOnBackdrop.current && isOnBackdrop(event)) close();
        pressedOnBackdrop.current = false;
      }}
    >
      <div className="exit-popup__panel">
        <button type="button" className="icon-button exit-popup__close" onClick={close} aria-label={t("toast.close")}>
          <Icon name="close" />
        </button>
        <span className="exit-popup__icon" aria-hidden="true">
          <Icon name="gift" />
        </span>
        <h2 id="exit-popup-title">{t("exitPopup.title")}</h2>
        <p id="exit-popup-text" className="muted">
          {t("exitPopup.text")}
        </p>
        <LeadForm lead={lead} inputRef={inputRef} />
        <button type="button" className="button button--ghost exit-popup__dismiss" onClick={close}>
          {t("exitPopup.close")}
        </button>
      </div>
    </dialog>
  );
}
