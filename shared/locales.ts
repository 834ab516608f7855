// The one list of languages; every other place derives from it (as in next.js's i18n-routing example).
export const LOCALES = ["fr", "en", "it", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";

export function isLocale(value: unknown): value is Locale {
  return LOCALES.some((locale) => locale === value);
}

/** BCP 47 tags used for Intl formatting and `<html lang>`/`hreflang`/`og:locale`. */
export const LOCALE_TAGS: Record<Locale, { bcp47: string; og: string; name: string }> = {
  fr: { bcp47: "fr-FR", og: "fr_FR", name: "Français" },
  en: { bcp47: "en-GB", og: "en_GB", name: "English" },
  it: { bcp47: "it-IT", og: "it_IT", name: "Italiano" },
  es: { bcp47: "es-ES", og: "es_ES", name: "Español" },
};
