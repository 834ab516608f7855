// A translated sentence with one linked part, written in brackets in the locales ("I accept the
// [terms of sale] and..."), so that each language places the link where its grammar wants it. The
// pages turn the part into a link.

export type LinkedText = { before: string; link: string; after: string };

/** The text around and inside the first `[...]`; the whole text as `before` when there is none. */
export function splitLinked(text: string): LinkedText {
  const match = /\[([^\]]+)\]/.exec(text);
  if (match === null) return { before: text, link: "", after: "" };
  return { before: text.slice(0, match.index), link: match[1] ?? "", after: text.slice(match.index + match[0].length) };
}
