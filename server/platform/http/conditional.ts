/**
 * Whether `If-None-Match` names the current ETag (RFC 9110 §13.1.2): `*`, or a list in which any
 * entry matches by the weak comparison, so a `W/` prefix a proxy added still counts.
 */
export function noneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const value = header.trim();
  if (value === "*") return true;
  for (const part of value.split(",")) {
    const tag = part.trim();
    if ((tag.startsWith("W/") ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
