import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { useI18n } from "../i18n";
import { Icon } from "./icons";

export type ToastInput = { title: string; description?: string; tone?: "info" | "success" | "error"; durationMs?: number };
type Toast = ToastInput & { id: number };
type ToastApi = { show: (toast: ToastInput) => void; dismiss: (id: number) => void };

const ToastContext = createContext<ToastApi | null>(null);

/** Notifications for errors and confirmations (spec section 8), announced by a live region. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (input: ToastInput) => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-2), { ...input, id }]);
      setTimeout(() => dismiss(id), input.durationMs ?? (input.tone === "error" ? 8000 : 4000));
    },
    [dismiss],
  );
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastRegion toasts={toasts} dismiss={dismiss} />
    </ToastContext.Provider>
  );
}

function ToastRegion({ toasts, dismiss }: { toasts: Toast[]; dismiss: (id: number) => void }) {
  const { t } = useI18n();
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

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (api === null) throw new Error("useToast outside ToastProvider");
  return api;
}
