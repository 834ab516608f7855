import { LOCALE_TAGS, type Locale } from "./locales";

// The early-bird offer (docs/product.md, "Money and claims"): real, with an end. Until it
// ends the pages show the badge, the struck-through price and the end date; after it, nothing that
// says the price is limited in time. The price itself never changes with it.

/** The seller's time zone: the offer's last day, and receipts' times, are read in it. */
export const SELLER_TIME_ZONE = "Europe/Paris";

/** Without OFFER_ENDS_AT, the offer runs this many days from the site's first start. */
export const DEFAULT_OFFER_DAYS = 14;

/** Whether the offer still runs at `now`. No known end means no offer: never a claim without a date. */
export function offerIsOn(endsAt: Date | null, now: Date): boolean {
  return endsAt !== null && now.getTime() < endsAt.getTime();
}

/** The calendar date (`YYYY-MM-DD`) of an instant in a time zone. */
export function dateIn(timeZone: string, instant: Date): string {
  return formatterFor(
    dayFormats,
    timeZone,
    () => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
  ).format(instant);
}

// Made once per time zone or language: making an Intl.DateTimeFormat costs far more than using one
// (a tenth of a server start's CPU went into making the same few again and again).
const dayFormats = new Map<string, Intl.DateTimeFormat>(); // en-CA formats as YYYY-MM-DD.
const clockFormats = new Map<string, Intl.DateTimeFormat>();
const offerEndFormats = new Map<string, Intl.DateTimeFormat>();
function formatterFor(made: Map<string, Intl.DateTimeFormat>, key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = made.get(key);
  if (format === undefined) {
    format = make();
    made.set(key, format);
  }
  return format;
}

/** How far ahead of UTC a time zone's clock is at an instant, in ms. */
function zoneOffsetMs(timeZone: string, instant: Date): number {
  const parts = formatterFor(
    clockFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      }),
  ).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The last millisecond of a calendar day (`YYYY-MM-DD`) in a time zone: an offer that "ends on
 * 6 December" runs through the whole of that day where the seller is.
 */
export function endOfDayIn(timeZone: string, isoDate: string): Date {
  const [y, m, d] = isoDate.split("-").map(Number);
  // Midnight after the day, as if the zone were UTC, moved by the zone's offset at that moment (a
  // clock change happens in the small hours, never across midnight in Europe).
  const nextMidnightUtc = Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1);
  const offset = zoneOffsetMs(timeZone, new Date(nextMidnightUtc));
  return new Date(nextMidnightUtc - offset - 1);
}

/** The default end: the whole day, in the seller's zone, `DEFAULT_OFFER_DAYS` days after the first start. */
export function defaultOfferEnd(firstStartedAt: Date): Date {
  const day = dateIn(SELLER_TIME_ZONE, new Date(firstStartedAt.getTime() + DEFAULT_OFFER_DAYS * 24 * 60 * 60 * 1000));
  return endOfDayIn(SELLER_TIME_ZONE, day);
}

const offerEndFormat = (locale: Locale) =>
  formatterFor(
    offerEndFormats,
    locale,
    () =>
      new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, { timeZone: SELLER_TIME_ZONE, day: "numeric", month: "long", year: "numeric" }),
  );

/** The day of the month the offer ends on, in the seller's zone. */
function offerEndDay(endsAt: Date): number {
  return Number(dateIn(SELLER_TIME_ZONE, endsAt).slice(8, 10));
}

/**
 * "6 décembre 2026", "6 December 2026": the day the offer ends, in the seller's zone. French
 * writes the first of the month as an ordinal ("1er décembre"), which Intl does not.
 */
export function formatOfferEnd(endsAt: Date, locale: Locale): string {
  const parts = offerEndFormat(locale).formatToParts(endsAt);
  return parts.map((p) => (locale === "fr" && p.type === "day" && p.value === "1" ? "1er" : p.value)).join("");
}

/**
 * Whether the end date, read aloud, starts with a vowel sound: Italian elides the article before it
 * ("fino all'8 dicembre", "l'11", but "fino al 6 dicembre"). The texts choose their article with
 * this value (`offerEndSound` in locales/it.json); the days whose names start with a vowel are
 * uno, otto and undici.
 */
export function offerEndSound(endsAt: Date, locale: Locale): "vowel" | "consonant" {
  if (locale !== "it") return "consonant";
  return [1, 8, 11].includes(offerEndDay(endsAt)) ? "vowel" : "consonant";
}
