// The shape of a licence key, shared by the server (which makes and checks keys) and the pages that
// mention it: 25 characters from an alphabet without look-alikes (no 0/O, 1/I/L), in groups of five.
export const LICENSE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const LICENSE_GROUPS = 5;
export const LICENSE_GROUP_LENGTH = 5;

/**
 * The stored form of a key as someone typed it: spaces trimmed, any case, with or without dashes.
 * null when it cannot be one of ours (wrong length or a character the alphabet does not have).
 */
export function normalizeLicenseKey(input: string): string | null {
  const compact = input.trim().toUpperCase().replace(/[-\s]/g, "");
  if (compact.length !== LICENSE_GROUPS * LICENSE_GROUP_LENGTH) return null;
  for (const char of compact) if (!LICENSE_ALPHABET.includes(char)) return null;
  const groups: string[] = [];
  for (let g = 0; g < LICENSE_GROUPS; g++) groups.push(compact.slice(g * LICENSE_GROUP_LENGTH, (g + 1) * LICENSE_GROUP_LENGTH));
  return groups.join("-");
}
