import type { ComponentType } from "react";
import { SOCIAL_PROOF } from "../../shared/api";
import type { IslandName, IslandProps } from "../../shared/page-data";
import { EXIT_POPUP_DELAY_MS, exitPopupWasShown, markExitPopupShown } from "../components/exit-popup-memory";
import { socialProofDismissed } from "../components/social-proof-memory";
import { DEMO_BUTTON, SUPPORT_BUTTON } from "./triggers";

/**
 * When the loader (client/entry.ts) loads and hydrates an island:
 * - `load`: as soon as the page has run its scripts;
 * - `loaded`: once the page and what it needs for its first paint have loaded (the load event);
 * - `visible`: when it comes within a screen of the viewport (forms: until then, and if the script
 *   never comes, they post as plain HTML forms);
 * - `intent`: when the visitor reaches for it (pointer over, touch, focus, click) on the island or
 *   on the `also` elements outside it; a click made before it is ready is replayed once it is;
 * - `delay`: that long after the page started loading;
 * - `companion`: together with the first other island of the page.
 */
export type IslandTrigger =
  | { on: "load" }
  | { on: "loaded" }
  | { on: "visible" }
  | { on: "intent"; also?: string }
  | { on: "delay"; ms: number }
  | { on: "companion" };

export type IslandLoader<N extends IslandName> = {
  when: IslandTrigger;
  /** The island's code: a chunk of its own and the shared chunks it imports (React with the first one). */
  load: () => Promise<ComponentType<IslandProps[N]>>;
  /** Last look before loading: the props to hydrate with, or null to leave the island as it is. */
  prepare?: (props: IslandProps[N]) => IslandProps[N] | null | Promise<IslandProps[N] | null>;
};

/** Time given to the popup's code to arrive before it is due. */
const EXIT_POPUP_LEAD_MS = 5_000;

/**
 * Every island, as the browser loads it. Nothing here imports React or an island's code, so the
 * page's first script stays small; a page loads only what it has and what its visitor uses.
 */
export const ISLANDS: { [N in IslandName]: IslandLoader<N> } = {
  demo: {
    when: { on: "intent", also: DEMO_BUTTON },
    load: () => import("../components/demo-dialog").then((m) => m.DemoDialog),
  },
  "lead-form": {
    when: { on: "visible" },
    load: () => import("../components/lead-form").then((m) => m.LeadSection),
  },
  devices: {
    when: { on: "visible" },
    load: () => import("../components/devices-list").then((m) => m.DevicesList),
  },
  "access-form": {
    when: { on: "visible" },
    load: () => import("../components/access-form").then((m) => m.AccessForm),
  },
  "pay-button": {
    when: { on: "visible" },
    load: () => import("../components/pay-button").then((m) => m.PayButton),
  },
  "card-form": {
    when: { on: "visible" },
    load: () => import("../components/card-form").then((m) => m.CardForm),
  },
  "exit-popup": {
    when: { on: "delay", ms: EXIT_POPUP_DELAY_MS - EXIT_POPUP_LEAD_MS },
    prepare(props) {
      if (props.usedForm) markExitPopupShown();
      return exitPopupWasShown() ? null : props;
    },
    load: () => import("../components/exit-popup").then((m) => m.ExitPopup),
  },
  support: {
    when: { on: "intent", also: SUPPORT_BUTTON },
    load: () => import("../components/support-widget").then((m) => m.SupportWidget),
  },
  "social-proof": {
    // Its first notification is due 3 s after load: no need to compete with the page's first paint.
    when: { on: "loaded" },
    // Most visits see no purchase to show: ask first, load the toast only for one.
    async prepare() {
      if (socialProofDismissed()) return null;
      const feed: unknown = await fetch(SOCIAL_PROOF.path, { headers: { accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : null))
        .catch(() => null);
      return listsSomething(feed) ? { feed } : null;
    },
    load: () => import("../components/social-proof-toast").then((m) => m.SocialProofToast),
  },
  toasts: {
    when: { on: "companion" },
    load: () => import("../components/toast").then((m) => m.Toasts),
  },
  "pending-refresh": {
    when: { on: "load" },
    load: () => import("../components/page-effects").then((m) => m.PendingRefresh),
  },
  "copy-key": {
    when: { on: "visible" },
    load: () => import("../components/copy-key").then((m) => m.CopyKey),
  },
  "not-found-log": {
    when: { on: "load" },
    load: () => import("../components/page-effects").then((m) => m.NotFoundLog),
  },
};

/** The social-proof answer has entries (the island checks them against their schema). */
function listsSomething(feed: unknown): boolean {
  return typeof feed === "object" && feed !== null && "entries" in feed && Array.isArray(feed.entries) && feed.entries.length > 0;
}

export function isIslandName(name: string | undefined): name is IslandName {
  return name !== undefined && Object.hasOwn(ISLANDS, name);
}
