/**
 * Whether `If-None-Match` names the current ETag (RFC 9110 §13.1.2), the one test of a conditional
 * GET for pages and assets alike: `*` matches any current representation; otherwise the header is
 * a comma-separated list in which any entry matches by the weak comparison (§8.8.3.2), so a `W/`
 * prefix a proxy added still counts. Entries are read as quoted strings, so a comma inside an ETag
 * does not split it.
 */
export function noneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const value = header.trim();
  if (value === "*") return true;
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const entry of value.matchAll(/(?:W\/)?("[^"]*")/g)) if (entry[1] === opaque) return true;
  return false;
}
