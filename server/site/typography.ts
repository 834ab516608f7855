import type { Locale } from "../../shared/locales";

// French sets a space before the high punctuation marks (":", ";", "!", "?") and inside guillemets.
// Typed as an ordinary space it lets a line break before the mark, so a line can start with ":" on a
// narrow screen. The texts are written with ordinary spaces (easier to edit); formatting makes those
// spaces non-breaking. U+00A0 rather than the narrower U+202F: the site's font subset has it.

const NBSP = "\u00a0";

/** A text with the language's non-breaking spaces around punctuation (French only). */
export function bindPunctuation(text: string, locale: Locale): string {
  if (locale !== "fr") return text;
  return text.replace(/ ([:;!?»])/g, `${NBSP}$1`).replace(/« /g, `«${NBSP}`);
}
