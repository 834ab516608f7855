import { useEffect, useState } from "react";
import type { MessageKey } from "../../shared/i18n";
import type { IslandProps } from "../../shared/page-data";
import { useText } from "../i18n";

export const COPY_KEY_TEXT = ["success.copy", "success.copied", "success.copyFailed"] as const satisfies readonly MessageKey[];

/**
 * The licence key's copy button. Without JavaScript there is no button at all (it could not work):
 * the key beside it is plain text that one click selects whole, for the usual copy.
 */
export function CopyKey({ licenseKey }: IslandProps["copy-key"]) {
  const { t } = useText(COPY_KEY_TEXT);
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(licenseKey);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <button type="button" className="button button--ghost order-key__copy" onClick={copy}>
        {t("success.copy")}
      </button>
      <span className="order-key__status" role="status">
        {state === "idle" ? "" : t(state === "copied" ? "success.copied" : "success.copyFailed")}
      </span>
    </>
  );
}
