import { ISLAND_DATA_ID, type IslandData, type IslandName, type IslandProps } from "../shared/page-data";
import { startBeacons } from "./beacon";
import { ISLANDS, type IslandTrigger, isIslandName } from "./islands";
import { keepSectionOnLanguageSwitch } from "./islands/language-section";
import { watchSupportCorner } from "./islands/support-corner";

// The page's only script: it finds the islands the server marked (client/island.tsx) and hydrates
// each one when it is needed (client/islands/index.ts says when). React and each island's code are
// loaded then, as separate files; the rest of the page stays the server's HTML.
//
// Each container says where its island stands in `data-island-state`: waiting, loading, hydrated,
// skipped (it had nothing to do) or failed.

type IslandState = "waiting" | "loading" | "hydrated" | "skipped" | "failed";

const setState = (container: HTMLElement, state: IslandState) => {
  container.dataset.islandState = state;
};

function start(data: IslandData): void {
  // Islands that come along with the first other one (the toast region).
  const companions: (() => void)[] = [];
  let started = false;
  const onStart = () => {
    if (started) return;
    started = true;
    for (const go of companions.splice(0)) go();
  };

  for (const container of document.querySelectorAll<HTMLElement>("[data-island]")) {
    const name = container.dataset.island;
    const index = Number(container.dataset.islandProps);
    const props = data.islands[index];
    if (!isIslandName(name) || props === undefined) continue;
    setState(container, "waiting");
    let activation: Promise<void> | null = null;
    const go = () => (activation ??= activate(name, props, { container, index, data, onStart }));
    const trigger = ISLANDS[name].when;
    // An island earlier in the page may have started already, in this loop (one that starts at
    // once, with nothing to prepare): its companions found after it come along now.
    if (trigger.on === "companion") {
      if (started) void go();
      else companions.push(go);
    } else schedule(trigger, container, go);
  }
}

function schedule(trigger: Exclude<IslandTrigger, { on: "companion" }>, container: HTMLElement, go: () => Promise<void>): void {
  switch (trigger.on) {
    case "load":
      void go();
      return;
    case "loaded":
      if (document.readyState === "complete") inTaskOfItsOwn(go);
      else window.addEventListener("load", () => inTaskOfItsOwn(go), { once: true });
      return;
    case "delay":
      // Counted from the page load (navigation start), like the island's own timers.
      setTimeout(go, Math.max(0, trigger.ms - performance.now()));
      return;
    case "visible":
      whenNearViewport(container, go);
      return;
    case "intent":
      whenReachedFor(container, trigger.also, go);
  }
}

/**
 * Runs `go` in a task of its own (a message to itself), so that its work (storage, a request) does
 * not lengthen the task that finished loading the page: one long task blocks input as a whole.
 */
function inTaskOfItsOwn(go: () => Promise<void>): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    void go();
  };
  channel.port2.postMessage(null);
}

function whenNearViewport(container: HTMLElement, go: () => Promise<void>): void {
  // The container takes no box (display: contents): watch what it holds.
  const targets = [...container.children];
  if (targets.length === 0 || typeof IntersectionObserver !== "function") {
    void go();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      void go();
    },
    { rootMargin: "100% 0px" },
  );
  for (const target of targets) observer.observe(target);
}

const INTENT_EVENTS = ["pointerover", "pointerdown", "touchstart", "focusin", "click"] as const;

/**
 * Loads the island at the first sign the visitor is reaching for it. A click that comes before it
 * is ready is held and replayed on the same element once it is (or, if the island could not load,
 * a link is followed as it would have been without script).
 */
function whenReachedFor(container: HTMLElement, also: string | undefined, go: () => Promise<void>): void {
  let clicked: HTMLElement | null = null;
  // biome-ignore lint/correctness/noUnusedVariables: read by the ??= below, which biome does not count.
  let loading: Promise<void> | null = null;
  const stop = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, listener, true);
  };
  const listener = (event: Event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (!container.contains(target) && (also === undefined || target.closest(also) === null)) return;
    if (event.type === "click") {
      event.preventDefault();
      event.stopPropagation();
      clicked = target.closest<HTMLElement>("a, button") ?? (target instanceof HTMLElement ? target : null);
    }
    loading ??= go().then(
      () => {
        stop();
        clicked?.click();
      },
      () => {
        stop();
        if (clicked instanceof HTMLAnchorElement) window.location.assign(clicked.href);
      },
    );
  };
  for (const type of INTENT_EVENTS) document.addEventListener(type, listener, { capture: true, passive: type !== "click" });
}

async function activate<N extends IslandName>(
  name: N,
  props: IslandProps[N],
  page: { container: HTMLElement; index: number; data: IslandData; onStart: () => void },
): Promise<void> {
  const { container } = page;
  const loader = ISLANDS[name];
  setState(container, "loading");
  try {
    const prepared = loader.prepare === undefined ? props : await loader.prepare(props);
    if (prepared === null) {
      setState(container, "skipped");
      return;
    }
    page.onStart();
    const [Component, { hydrateIsland }] = await Promise.all([loader.load(), import("./hydrate")]);
    await hydrateIsland(container, page.index, Component, prepared, page.data);
    setState(container, "hydrated");
  } catch (error) {
    setState(container, "failed");
    throw error;
  }
}

// Last, once everything above is defined.
startBeacons();
keepSectionOnLanguageSwitch();
const script = document.getElementById(ISLAND_DATA_ID);
if (document.querySelector('[data-island="support"]') !== null) watchSupportCorner();
if (script?.textContent) start(JSON.parse(script.textContent));
