import { createContext, useContext } from "react";
import type { IslandName, IslandProps } from "../shared/page-data";

/** Renders an island's HTML for the page and records its props; `index` finds them in the page's island data. */
export type IslandRenderer = <N extends IslandName>(name: N, props: IslandProps[N]) => { index: number; html: string };

export const IslandRendererContext = createContext<IslandRenderer | null>(null);

/**
 * An interactive part of a page, rendered on the server as a React root of its own inside a marked
 * container (server/site/islands.tsx), which client/entry.ts hydrates on its own when it is needed. The
 * container takes no box (styles.css), so an island sits in the layout as its content would.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps[N] }) {
  const render = useContext(IslandRendererContext);
  if (render === null) throw new Error("Island outside a page");
  const { index, html } = render(name, props);
  return <div data-island={name} data-island-props={index} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Each island is its own React root: a prefix of its own keeps the ids React makes (useId) unique on the page. */
export const islandIdPrefix = (index: number) => `i${index}-`;
