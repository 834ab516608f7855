import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { TOASTS_TEXT, Toasts } from "../../client/components/toast";
import { I18nProvider } from "../../client/i18n";
import { IslandRendererContext } from "../../client/island";
import { IslandRoot } from "../../client/island-root";
import { islandText, pageIslands, pickMessages } from "../../server/site/islands";
import type { IslandName, PageData } from "../../shared/page-data";

/**
 * An island root as the server and the browser make it for `names` (their listed texts only, the
 * listing checked), with the page's toast region in it, for component tests.
 */
export function IslandTestRoot({ names, page, children }: { names: IslandName[]; page: PageData; children: ReactNode }) {
  const listed = [...new Set([...names.flatMap((name) => islandText(name)), ...TOASTS_TEXT])];
  return (
    <IslandRoot locale={page.locale} messages={pickMessages(page.messages, listed)} values={page.values} listed={listed}>
      {children}
      <Toasts />
    </IslandRoot>
  );
}

/** The server's HTML of a part of a page (islands included, as server HTML), in a detached element. */
export function serverHtml(page: PageData, ui: ReactNode): HTMLElement {
  const islands = pageIslands(page);
  const container = document.createElement("div");
  container.innerHTML = renderToString(
    <I18nProvider data={page}>
      <IslandRendererContext.Provider value={islands.render}>{ui}</IslandRendererContext.Provider>
    </I18nProvider>,
  );
  return container;
}
