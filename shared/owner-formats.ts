import { LOCALE_TAGS, type Locale } from "./locales";

// How the owner reads dates, money and counts: the console's pages and the owner's digest e-mail
// alike (one server-only feature folder and the shop's mail, so here rather than in either).

export type Formats = {
  /** Date and time in the owner's language, on Paris time (the seller's, whatever the server's clock says). */
  when: (at: Date) => string;
  /** A day alone in the owner's language, on Paris time: 31 déc. 2026, Dec 31, 2026. */
  day: (at: Date) => string;
  /** Minor units (cents) to money in the owner's language: 29,99 € in French, €29.99 in English. */
  money: (minor: number, currency: string) => string;
  number: (n: number) => string;
};

/** The owner's formats, made once per page: an Intl formatter costs far more to make than to use. */
export function formatsFor(locale: Locale): Formats {
  const tag = LOCALE_TAGS[locale].bcp47;
  const when = new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Paris" });
  const day = new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeZone: "Europe/Paris" });
  const number = new Intl.NumberFormat(tag);
  const money = new Map<string, Intl.NumberFormat>();
  return {
    when: (at) => when.format(at),
    day: (at) => day.format(at),
    money: (minor, currency) => {
      let format = money.get(currency);
      if (format === undefined) {
        format = new Intl.NumberFormat(tag, { style: "currency", currency });
        money.set(currency, format);
      }
      return format.format(minor / 100);
    },
    number: (n) => number.format(n),
  };
}

/** A day of the week (1 Monday to 7 Sunday) by its name in the owner's language. */
export function weekdayName(locale: Locale, weekday: number): string {
  // 2 January 2023 was a Monday.
  return new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, { weekday: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(2023, 0, 1 + weekday)),
  );
}

/** A whole hour of the day as clocks show it: 07:00. */
export const hourLabel = (hour: number): string => `${String(hour).padStart(2, "0")}:00`;
