import * as v from "valibot";
import { useEffect, useState } from "react";
import type { Translate } from "../../shared/i18n";
import { LOCALE_TAGS, type Locale } from "../../shared/locales";
import type { IslandProps } from "../../shared/page-data";
import { SocialProofResponseSchema, type SocialProofEntry } from "../../shared/schemas/social-proof";
import { useText } from "../i18n";
import { Icon } from "./icons";
import { dismissSocialProof, socialProofDismissed } from "./social-proof-memory";

/** Spec sections 4 and 9: first 3 s after load, then every 15 s, each visible 5 s. */
export const SOCIAL_PROOF_FIRST_MS = 3_000;
export const SOCIAL_PROOF_EVERY_MS = 15_000;
export const SOCIAL_PROOF_VISIBLE_MS = 5_000;

export const SOCIAL_PROOF_TEXT = ["socialProof.text", "socialProof.someone", "socialProof.justNow", "socialProof.ago", "socialProof.dismiss"] as const;

/**
 * Recent real purchases, bottom-left (DECISIONS.md: only real paid orders, never invented). The
 * islands' loader asks GET /api/social-proof first and loads this island only when the answer lists
 * a purchase (`feed`, checked here): with no paid order in the last 30 days, nothing is loaded and
 * nothing ever appears.
 */
export function SocialProofToast({ feed }: IslandProps["social-proof"]) {
  const { t, locale } = useText(SOCIAL_PROOF_TEXT);
  const [entries] = useState(() => (v.is(SocialProofResponseSchema, feed) ? feed.entries : []));
  const [shown, setShown] = useState<SocialProofEntry | null>(null);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (socialProofDismissed()) setDismissed(true);
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
    dismissSocialProof();
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
function ago(minutes: number, locale: Locale, t: Translate<(typeof SOCIAL_PROOF_TEXT)[number]>): string {
  if (minutes < 1) return t("socialProof.justNow");
  if (minutes < 60) return t("socialProof.ago", { minutes });
  const format = new Intl.RelativeTimeFormat(LOCALE_TAGS[locale].bcp47, { numeric: "auto" });
  if (minutes < 60 * 24) return format.format(-Math.floor(minutes / 60), "hour");
  return format.format(-Math.floor(minutes / (60 * 24)), "day");
}
