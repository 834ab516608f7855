/**
 * A place name as the list of places stores it and a buyer's city is looked up: without accents,
 * case, or the punctuation people type differently ("Saint-Étienne", "saint etienne" and "SAINT
 * ETIENNE" are one key). Shared by the list's generator (scripts/places/make-place-list.ts).
 */
export function placeKey(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[-'’.]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
