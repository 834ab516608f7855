// A translated sentence with one linked part, written in brackets in the locales ("I accept the
// [terms of sale] and..."), so that each language places the link where its grammar wants it. The
// pages turn the part into a link; Stripe's custom text gets it as a Markdown link.

export type LinkedText = { before: string; link: string; after: string };

/** The text around and inside the first `[...]`; the whole text as `before` when there is none. */
export function splitLinked(text: string): LinkedText {
  const match = /\[([^\]]+)\]/.exec(text);
  if (match === null) return { before: text, link: "", after: "" };
  return { before: text.slice(0, match.index), link: match[1] ?? "", after: text.slice(match.index + match[0].length) };
}

/** The same sentence with its link as Markdown (`[terms of sale](https://...)`). */
export function linkedToMarkdown(text: string, url: string): string {
  const { before, link, after } = splitLinked(text);
  return link === "" ? text : `${before}[${link}](${url})${after}`;
}
