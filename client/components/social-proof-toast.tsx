import * as v from "valibot";
import { useEffect, useState } from "react";
import { LOCALE_TAGS } from "../../shared/locales";
import { SocialProofResponseSchema, type SocialProofEntry } from "../../shared/schemas/social-proof";
import { useI18n } from "../i18n";
import { Icon } from "./icons";

/** Spec sections 4 and 9: first 3 s after load, then every 15 s, each visible 5 s. */
export const SOCIAL_PROOF_FIRST_MS = 3_000;
export const SOCIAL_PROOF_EVERY_MS = 15_000;
export const SOCIAL_PROOF_VISIBLE_MS = 5_000;
/** Dismissed for the rest of the visit (issue 5): the browser tab's session. */
const DISMISSED_KEY = "social-proof-dismissed";

function wasDismissed(): boolean {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * Recent real purchases, bottom-left (DECISIONS.md: only real paid orders, never invented). With no
 * paid order in the last 30 days the API answers an empty list and nothing ever appears.
 */
export function SocialProofToast() {
  const { t, locale } = useI18n();
  const [entries, setEntries] = useState<SocialProofEntry[]>([]);
  const [shown, setShown] = useState<SocialProofEntry | null>(null);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (wasDismissed()) {
      setDismissed(true);
      return;
    }
    const controller = new AbortController();
    fetch("/api/social-proof", { signal: controller.signal, headers: { accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: unknown) => {
        if (v.is(SocialProofResponseSchema, body)) setEntries(body.entries);
      })
      .catch(() => {}); // no social proof is better than an error for a visitor
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (dismissed || entries.length === 0) return;
    let last: SocialProofEntry | null = null;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const show = () => {
      // A random entry, not the same one twice in a row when there is a choice.
      const choices = entries.length > 1 ? entries.filter((e) => e !== last) : entries;
      const entry = choices[Math.floor(Math.random() * choices.length)] ?? null;
      last = entry;
      setShown(entry);
      timers.push(setTimeout(() => setShown(null), SOCIAL_PROOF_VISIBLE_MS));
      timers.push(setTimeout(show, SOCIAL_PROOF_EVERY_MS));
    };
    // Counted from the page load (navigation start), whenever the list arrives.
    timers.push(setTimeout(show, Math.max(0, SOCIAL_PROOF_FIRST_MS - performance.now())));
    return () => timers.forEach(clearTimeout);
  }, [entries, dismissed]);

  const dismiss = () => {
    setDismissed(true);
    setShown(null);
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, "1");
    } catch {
      // storage disabled: hidden for this page view only
    }
  };

  return (
    <div className="social-proof" aria-live="polite" aria-atomic="true">
      {shown !== null && !dismissed ? (
        <div className="social-proof__card">
          <span className="social-proof__icon" aria-hidden="true">
            <Icon name="check" />
          </span>
          <p className="social-proof__body">
            <span className="social-proof__text">
              {t("socialProof.text", { name: shown.initial ?? t("socialProof.someone"), city: shown.city })}
            </span>
            <span className="social-proof__time">{ago(shown.minutesAgo, locale, t)}</span>
          </p>
          <button type="button" className="icon-button social-proof__close" onClick={dismiss} aria-label={t("socialProof.dismiss")}>
            <Icon name="close" />
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** "il y a 12 min" up to an hour, then the language's own "il y a 3 heures" / "hier". */
function ago(minutes: number, locale: keyof typeof LOCALE_TAGS, t: (key: string, values?: Record<string, string | number>) => string): string {
  if (minutes < 1) return t("socialProof.justNow");
  if (minutes < 60) return t("socialProof.ago", { minutes });
  const format = new Intl.RelativeTimeFormat(LOCALE_TAGS[locale].bcp47, { numeric: "auto" });
  if (minutes < 60 * 24) return format.format(-Math.floor(minutes / 60), "hour");
  return format.format(-Math.floor(minutes / (60 * 24)), "day");
}
