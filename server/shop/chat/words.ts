// How the support chat reads a visitor's text: the same words whatever the case, the
// accents or the ligatures, so "Remboursé", "rembourse" and "REMBOURSE" are one word.

/** Lowercase, no accents, ligatures opened, split on anything that is not a letter or a digit. */
export function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}
