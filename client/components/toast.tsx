import { useEffect, useState } from "react";
import { useText } from "../i18n";
import { Icon } from "./icons";

export type ToastInput = { title: string; description?: string; tone?: "info" | "success" | "error"; durationMs?: number };
type Toast = ToastInput & { id: number };

// Islands are separate React roots, so they cannot share a context: a form shows a toast by
// handing it to the page's one toast region (the `toasts` island), which is listening once hydrated.
const listeners = new Set<(toast: ToastInput) => void>();

/** Notifications for errors and confirmations (see docs/product.md), announced by a live region. */
export function showToast(toast: ToastInput): void {
  for (const listener of listeners) listener(toast);
}

export const TOASTS_TEXT = ["toast.close"] as const;

export function Toasts() {
  const { t } = useText(TOASTS_TEXT);
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    let nextId = 1;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const show = (input: ToastInput) => {
      const id = nextId++;
      setToasts((list) => [...list.slice(-2), { ...input, id }]);
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          setToasts((list) => list.filter((toast) => toast.id !== id));
        },
        input.durationMs ?? (input.tone === "error" ? 8000 : 4000),
      );
      timers.add(timer);
    };
    listeners.add(show);
    return () => {
      listeners.delete(show);
      timers.forEach(clearTimeout);
    };
  }, []);
  const dismiss = (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id));
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-atomic="false">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast--${toast.tone ?? "info"}`} role={toast.tone === "error" ? "alert" : undefined}>
          <div className="toast__body">
            <p className="toast__title">{toast.title}</p>
            {toast.description ? <p className="toast__desc">{toast.description}</p> : null}
          </div>
          <button type="button" className="icon-button toast__close" onClick={() => dismiss(toast.id)} aria-label={t("toast.close")}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
