import * as v from "valibot";
import { useEffect, useRef, useState } from "react";
import type { Translate } from "../../shared/i18n";
import { LOCALE_TAGS, type Locale } from "../../shared/locales";
import type { IslandProps } from "../../shared/page-data";
import { SocialProofResponseSchema, type SocialProofEntry } from "../../shared/schemas/social-proof";
import { useText } from "../i18n";
import { type Box, coversContent } from "./covered-content";
import { Icon } from "./icons";
import { dismissSocialProof, readSession, socialProofDismissed, writeSession } from "./social-proof-memory";

/** First 3 s after load, then every 15 s, each visible 5 s (docs/product.md, "Behaviour the pages keep"). */
export const SOCIAL_PROOF_FIRST_MS = 3_000;
export const SOCIAL_PROOF_EVERY_MS = 15_000;
export const SOCIAL_PROOF_VISIBLE_MS = 5_000;
/** The orders already shown in this visit: each at most once, never the same buyer again and again. */
const SHOWN_KEY = "social-proof-shown";
/** The toast's box (client/styles.css .social-proof): 16 px from the bottom-left corner (12 px on
 * phones), up to 340 px wide and, with a long city name on a phone, about 120 px high. */
const TOAST_MARGIN = 16;
const TOAST_MAX_WIDTH = 340;
const TOAST_MAX_HEIGHT = 120;

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

/** In the header, the toast keeps this far from the links and languages beside it, and 8 px from
 * the header's top and bottom (client/styles.css .social-proof--header). */
const HEADER_SPACING = 16;
const HEADER_INSET = 8;
const HEADER_MIN_WIDTH = 300;
const HEADER_MAX_WIDTH = 420;

type Slot = { place: "header" | "corner"; box: Box };

/** The bottom-left corner, as wide and high as the toast can be there. */
function cornerArea(): Box {
  const width = Math.min(TOAST_MAX_WIDTH, window.innerWidth - 104);
  return {
    left: TOAST_MARGIN,
    right: TOAST_MARGIN + width,
    top: window.innerHeight - TOAST_MARGIN - TOAST_MAX_HEIGHT,
    bottom: window.innerHeight - TOAST_MARGIN,
  };
}

/**
 * Where the toast appears. On a desktop the page's column reaches into the bottom corners, whose
 * lines it would cover on every screen; but the header (sticky: always on screen) is one row with a
 * free stretch between its links and its languages: there, when that stretch is wide enough for
 * the toast. Elsewhere (phones, tablets: a header of two rows) the bottom-left corner.
 */
function toastSlot(): Slot {
  const end = document.querySelector(".site-header__end");
  const before = end?.previousElementSibling;
  const header = end?.closest(".site-header");
  if (end && before && header) {
    const e = end.getBoundingClientRect();
    const b = before.getBoundingClientRect();
    const h = header.getBoundingClientRect();
    const free = e.left - b.right - 2 * HEADER_SPACING;
    const oneRow = e.width > 0 && Math.abs(e.top + e.bottom - b.top - b.bottom) < 8;
    if (oneRow && free >= HEADER_MIN_WIDTH && h.top >= 0) {
      const width = Math.min(HEADER_MAX_WIDTH, free);
      const left = b.right + HEADER_SPACING + (free - width) / 2;
      return { place: "header", box: { left, right: left + width, top: h.top + HEADER_INSET, bottom: h.bottom - HEADER_INSET } };
    }
  }
  return { place: "corner", box: cornerArea() };
}

export const SOCIAL_PROOF_TEXT = [
  "socialProof.text",
  "socialProof.textNoCity",
  "socialProof.someone",
  "socialProof.justNow",
  "socialProof.ago",
  "socialProof.dismiss",
] as const;

/**
 * Recent real purchases, in the header's free stretch on a desktop, else bottom-left (toastSlot;
 * only real paid orders, never invented: docs/product.md says why). The
 * islands' loader asks GET /api/social-proof first and loads this island only when the answer lists
 * a purchase (`feed`, checked here): with no paid order in the last 30 days, nothing is loaded and
 * nothing ever appears. Each order appears once per visit; a turn is skipped while the toast would
 * cover anything the visitor reads or uses (client/components/covered-content.ts): on a phone the
 * bottom of the screen is often text, so there it waits for a gap between sections.
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
      if (coversContent(slot.box)) return; // this turn is skipped, the order waits for the next
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

  // Scrolled under the visible toast, content would be covered: it leaves early. A resized window
  // may no longer have room where it stands: it leaves too.
  useEffect(() => {
    if (shown === null) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const card = cardRef.current;
      if (card !== null && coversContent(card.getBoundingClientRect())) setShown(null);
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
  const inHeader = shown?.slot.place === "header";
  const box = shown?.slot.box;
  return (
    <div
      className={inHeader ? "social-proof social-proof--header" : "social-proof"}
      style={
        inHeader && box !== undefined
          ? { left: box.left, top: box.top, width: box.right - box.left, height: box.bottom - box.top }
          : undefined
      }
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
            <span className="social-proof__time">{ago(purchase.minutesAgo, locale, t)}</span>
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
