import { splitLinked } from "../../shared/linked-text";

/** A translated sentence whose bracketed part ("I accept the [terms of sale]") becomes a link. */
export function LinkedText({ text, href }: { text: string; href: string }) {
  const { before, link, after } = splitLinked(text);
  if (link === "") return <>{text}</>;
  return (
    <>
      {before}
      <a href={href}>{link}</a>
      {after}
    </>
  );
}
