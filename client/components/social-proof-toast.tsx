import { useEffect, useRef, useState } from "react";
import * as v from "valibot";
import type { Translate } from "../../shared/i18n";
import { LOCALE_TAGS, type Locale } from "../../shared/locales";
import type { IslandProps } from "../../shared/page-data";
import { type SocialProofEntry, SocialProofResponseSchema } from "../../shared/schemas/social-proof";
import { useText } from "../i18n";
import { type Box, coversControls } from "./covered-content";
import { Icon } from "./icons";
import { dismissSocialProof, readSession, socialProofDismissed, writeSession } from "./social-proof-memory";

/** First 3 s after load, then every 15 s, each visible 5 s (docs/product.md, "Behaviour the pages keep"). */
export const SOCIAL_PROOF_FIRST_MS = 3_000;
export const SOCIAL_PROOF_EVERY_MS = 15_000;
export const SOCIAL_PROOF_VISIBLE_MS = 5_000;
/** The orders already shown in this visit: each at most once, never the same buyer again and again. */
const SHOWN_KEY = "social-proof-shown";
/** The toast's box (client/styles.css .social-proof): 16 px from the bottom-left corner (12 px on
 * phones), up to 340 px wide (the width less the support button's corner on phones) and, with a
 * long city name, up to about 100 px high (84 px on phones, whose note is compact). */
const TOAST_MARGIN = 16;
const PHONE_MARGIN = 12;
const PHONE_WIDTH = 480;
const TOAST_MAX_WIDTH = 340;
const TOAST_MAX_HEIGHT = 100;
const PHONE_MAX_HEIGHT = 84;
/** How far up from the corner the note may move to leave a button or a price clear, as a share
 * of the screen's height, and in what steps. */
const MAX_LIFT_SHARE = 0.4;
const LIFT_STEP = 8;

/**
 * An order as the visitor's tab remembers it: no id leaves the server, so an order is known by its
 * initial, its city and when it was paid (minutes ago when the list arrived, which may differ by a
 * minute from one page to the next: hence the margin).
 */
type Purchase = SocialProofEntry & { paidAt: number };
type ShownMark = { who: string; paidAt: number };
const SAME_ORDER_MARGIN_MS = 2 * 60_000;
const whoOf = (entry: SocialProofEntry) => `${entry.initial ?? ""}|${entry.city ?? ""}`;

function shownMarks(): ShownMark[] {
  try {
    const marks: unknown = JSON.parse(readSession(SHOWN_KEY) ?? "[]");
    return Array.isArray(marks) ? marks.filter((m): m is ShownMark => typeof m?.who === "string" && typeof m?.paidAt === "number") : [];
  } catch {
    return [];
  }
}

function wasShown(purchase: Purchase, marks: ShownMark[]): boolean {
  return marks.some((m) => m.who === whoOf(purchase) && Math.abs(m.paidAt - purchase.paidAt) <= SAME_ORDER_MARGIN_MS);
}

function markShown(purchase: Purchase) {
  // The API lists 20 orders at most; keep the newest marks, enough for any visit.
  const marks = [...shownMarks(), { who: whoOf(purchase), paidAt: purchase.paidAt }].slice(-50);
  writeSession(SHOWN_KEY, JSON.stringify(marks));
}

/** Where the note shows: `lift` px above its place in the bottom-left corner. */
type Slot = { lift: number; box: Box };

/**
 * Where the toast appears: bottom-left, on every screen. It may pass over text for its five
 * seconds, never over a link, a control or a price (coversControls): where one is in the corner,
 * the note moves up to the nearest clear stretch of the screen's lower part; if there is none, the
 * turn is skipped. Phones' first screens mostly have text in that corner, so the note shows there
 * from its first turn (3 s), without the visitor scrolling.
 */
function toastSlot(): Slot | null {
  const phone = window.innerWidth < PHONE_WIDTH;
  const margin = phone ? PHONE_MARGIN : TOAST_MARGIN;
  const width = Math.min(TOAST_MAX_WIDTH, window.innerWidth - (phone ? 96 : 104));
  const height = phone ? PHONE_MAX_HEIGHT : TOAST_MAX_HEIGHT;
  const bottom = window.innerHeight - margin;
  for (let lift = 0; lift <= window.innerHeight * MAX_LIFT_SHARE; lift += LIFT_STEP) {
    const box = { left: margin, right: margin + width, top: bottom - lift - height, bottom: bottom - lift };
    if (!coversControls(box)) return { lift, box };
  }
  return null;
}

export const SOCIAL_PROOF_TEXT = [
  "socialProof.text",
  "socialProof.textNoCity",
  "socialProof.someone",
  "socialProof.justNow",
  "socialProof.ago",
  "socialProof.dismiss",
  "socialProof.sample",
] as const;

/**
 * Recent real purchases, bottom-left (toastSlot; only real paid orders, never invented:
 * docs/product.md says why; development's samples are marked as such). The
 * islands' loader asks GET /api/social-proof first and loads this island only when the answer lists
 * a purchase (`feed`, checked here): with no paid order in the last 30 days, nothing is loaded and
 * nothing ever appears. Each order appears once per visit; a turn is skipped while the toast would
 * cover a link, a control or a price wherever it could stand (client/components/covered-content.ts).
 */
export function SocialProofToast({ feed }: IslandProps["social-proof"]) {
  const { t, locale } = useText(SOCIAL_PROOF_TEXT);
  const [purchases] = useState<Purchase[]>(() => {
    const arrived = Date.now();
    return v.is(SocialProofResponseSchema, feed) ? feed.entries.map((e) => ({ ...e, paidAt: arrived - e.minutesAgo * 60_000 })) : [];
  });
  const [shown, setShown] = useState<{ purchase: Purchase; slot: Slot } | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const cardRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (socialProofDismissed()) setDismissed(true);
  }, []);

  useEffect(() => {
    if (dismissed || purchases.length === 0) return;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const show = () => {
      const marks = shownMarks();
      const unseen = purchases.filter((p) => !wasShown(p, marks));
      if (unseen.length === 0) return; // every order shown once: nothing more in this visit
      timers.push(setTimeout(show, SOCIAL_PROOF_EVERY_MS));
      const slot = toastSlot();
      if (slot === null) return; // this turn is skipped, the order waits for the next
      const purchase = unseen[Math.floor(Math.random() * unseen.length)] ?? null;
      if (purchase === null) return;
      markShown(purchase);
      setShown({ purchase, slot });
      timers.push(setTimeout(() => setShown(null), SOCIAL_PROOF_VISIBLE_MS));
    };
    // Counted from the page load (navigation start), whenever the list arrives.
    timers.push(setTimeout(show, Math.max(0, SOCIAL_PROOF_FIRST_MS - performance.now())));
    return () => timers.forEach(clearTimeout);
  }, [purchases, dismissed]);

  // Scrolled under the visible toast, a link, a control or a price would be covered: it leaves
  // early. A resized window may no longer have room where it stands: it leaves too.
  useEffect(() => {
    if (shown === null) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const card = cardRef.current;
      if (card !== null && coversControls(card.getBoundingClientRect())) setShown(null);
    };
    const onScroll = () => {
      if (frame === 0) frame = requestAnimationFrame(check);
    };
    const onResize = () => setShown(null);
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onResize);
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onResize);
      cancelAnimationFrame(frame);
    };
  }, [shown]);

  const dismiss = () => {
    setDismissed(true);
    setShown(null);
    dismissSocialProof();
  };

  const purchase = shown?.purchase ?? null;
  const lift = shown?.slot.lift ?? 0;
  return (
    <div
      className="social-proof"
      // Above its corner by as much as it takes to leave a button or a price clear.
      style={lift > 0 ? { transform: `translateY(-${lift}px)` } : undefined}
      aria-live="polite"
      aria-atomic="true"
    >
      {purchase !== null && !dismissed ? (
        <div ref={cardRef} className="social-proof__card">
          <span className="social-proof__icon" aria-hidden="true">
            <Icon name="check" />
          </span>
          <p className="social-proof__body">
            <span className="social-proof__text">
              {purchase.city === null
                ? t("socialProof.textNoCity", { name: purchase.initial ?? t("socialProof.someone") })
                : t("socialProof.text", { name: purchase.initial ?? t("socialProof.someone"), city: purchase.city })}
            </span>{" "}
            <span className="social-proof__time">
              {/* Development's sample (never on a production site): said on the note itself, as on a sample review. */}
              {purchase.sample === true ? (
                <>
                  <span className="social-proof__sample">{t("socialProof.sample")}</span>
                  {" · "}
                </>
              ) : null}
              {ago(purchase.minutesAgo, locale, t)}
            </span>
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
