/**
 * Text as written in the locales: French pages keep the space before : ; ! ? unbreakable (a no-break
 * or narrow no-break space, so no line starts with one), which tests compare as a plain space.
 */
export const plainSpaces = (text: string | null | undefined): string => (text ?? "").replace(/[\u00a0\u202f]/g, " ");
