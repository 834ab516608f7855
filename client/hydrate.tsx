import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import type { IslandData, IslandName, IslandProps } from "../shared/page-data";
import { islandIdPrefix } from "./island";
import { IslandRoot } from "./island-root";

// React itself is loaded with the first island a page needs (client/entry.ts imports this module).

/** Hydrates one island's container as a React root; resolves once it is hydrated and its effects ran. */
export function hydrateIsland<P extends IslandProps[IslandName]>(
  container: HTMLElement,
  index: number,
  Component: ComponentType<P>,
  props: P,
  data: IslandData,
): Promise<void> {
  return new Promise((resolve, reject) => {
    hydrateRoot(
      container,
      <IslandRoot locale={data.locale} messages={data.messages} values={data.values} onHydrated={resolve}>
        {createElement(Component, props)}
      </IslandRoot>,
      {
        identifierPrefix: islandIdPrefix(index),
        onUncaughtError(error) {
          reportError(error);
          reject(error);
        },
      },
    );
  });
}
