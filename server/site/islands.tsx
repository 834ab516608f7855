import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { ACCESS_FORM_TEXT, AccessForm } from "../../client/components/access-form";
import { CARD_FORM_TEXT, CardForm } from "../../client/components/card-form";
import { COPY_KEY_TEXT, CopyKey } from "../../client/components/copy-key";
import { DEMO_DIALOG_TEXT, DemoDialog } from "../../client/components/demo-dialog";
import { DEVICES_TEXT, DevicesList } from "../../client/components/devices-list";
import { EXIT_POPUP_TEXT, ExitPopup } from "../../client/components/exit-popup";
import { LEAD_ISLAND_TEXT, LeadSection } from "../../client/components/lead-form";
import { NotFoundLog, PendingRefresh } from "../../client/components/page-effects";
import { PAY_BUTTON_TEXT, PayButton } from "../../client/components/pay-button";
import { SOCIAL_PROOF_TEXT, SocialProofToast } from "../../client/components/social-proof-toast";
import { SUPPORT_TEXT, SupportWidget } from "../../client/components/support-widget";
import { TOASTS_TEXT, Toasts } from "../../client/components/toast";
import { type IslandRenderer, islandIdPrefix } from "../../client/island";
import { IslandRoot } from "../../client/island-root";
import type { CompiledMessages, MessageKey } from "../../shared/i18n";
import type { IslandData, IslandName, IslandProps, PageData } from "../../shared/page-data";

type ServerIsland<N extends IslandName> = {
  Component: ComponentType<IslandProps[N]>;
  /** Every text the island may show: these, and only these, are sent to the browser for it. */
  text: readonly MessageKey[];
};

/** Every island, as the server renders it (the browser's side: client/islands/index.ts). */
const ISLANDS: { [N in IslandName]: ServerIsland<N> } = {
  demo: { Component: DemoDialog, text: DEMO_DIALOG_TEXT },
  "lead-form": { Component: LeadSection, text: LEAD_ISLAND_TEXT },
  devices: { Component: DevicesList, text: DEVICES_TEXT },
  "access-form": { Component: AccessForm, text: ACCESS_FORM_TEXT },
  "pay-button": { Component: PayButton, text: PAY_BUTTON_TEXT },
  "card-form": { Component: CardForm, text: CARD_FORM_TEXT },
  "exit-popup": { Component: ExitPopup, text: EXIT_POPUP_TEXT },
  support: { Component: SupportWidget, text: SUPPORT_TEXT },
  "social-proof": { Component: SocialProofToast, text: SOCIAL_PROOF_TEXT },
  toasts: { Component: Toasts, text: TOASTS_TEXT },
  "pending-refresh": { Component: PendingRefresh, text: [] },
  "copy-key": { Component: CopyKey, text: COPY_KEY_TEXT },
  "not-found-log": { Component: NotFoundLog, text: [] },
};

/** The texts an island lists (for component tests, which render islands as the server does). */
export const islandText = (name: IslandName): readonly MessageKey[] => ISLANDS[name].text;

export type PageIslands = {
  render: IslandRenderer;
  /** The page's islands and their texts, once the page is rendered; null when it has none. */
  data: () => IslandData | null;
};

/**
 * Collects the islands of one page as it renders. Each is rendered as a React root of its own with
 * only its own texts, exactly as the browser will hydrate it, so a text it uses without listing it
 * fails here, on the server, rather than in a visitor's browser.
 */
export function pageIslands(page: PageData): PageIslands {
  const islands: IslandProps[IslandName][] = [];
  const keys = new Set<MessageKey>();
  const pick = (list: Iterable<MessageKey>) => pickMessages(page.messages, list);
  const render: IslandRenderer = (name, props) => {
    const index = islands.push(props) - 1;
    const { Component, text } = ISLANDS[name];
    for (const key of text) keys.add(key);
    const html = renderToString(
      <IslandRoot locale={page.locale} messages={pick(text)} values={page.values} listed={text}>
        <Component {...props} />
      </IslandRoot>,
      { identifierPrefix: islandIdPrefix(index) },
    );
    return { index, html };
  };
  return {
    render,
    data: () => (islands.length === 0 ? null : { locale: page.locale, values: page.values, messages: pick(keys), islands }),
  };
}

/** The compiled texts of `keys` that the language has (one it lacks renders its key, or a fallback). */
export function pickMessages(messages: CompiledMessages, keys: Iterable<MessageKey>): CompiledMessages {
  const picked: CompiledMessages = {};
  for (const key of keys) {
    const message = messages[key];
    if (message !== undefined) picked[key] = message;
  }
  return picked;
}
