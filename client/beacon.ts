import { type BeaconEvent, deviceClassOf, type VitalMetric } from "../shared/analytics";
import { BEACON } from "../shared/api";

// Counting, without cookies or storage (docs/audience.md): one beacon per page view and per event,
// sent with sendBeacon to the site itself. The server makes the visitor's daily hash from the
// request; nothing here identifies anyone. Without JavaScript nothing is sent.

const send = (body: Record<string, string | number | undefined>) => {
  try {
    // A string goes as text/plain: no preflight, and it is sent even as the page unloads.
    navigator.sendBeacon?.(BEACON.path, JSON.stringify(body));
  } catch {
    // Counting must never break the page.
  }
};

const common = () => ({ path: location.pathname, device: deviceClassOf(window.innerWidth) });

/** What a click or a form sent counts as: the elements are the server's HTML, so this holds before hydration too. */
const EVENT_OF: [selector: string, on: "click" | "submit", event: BeaconEvent][] = [
  ["[data-demo-button]", "click", "demo_opened"],
  ["form.pay-form", "submit", "pay_clicked"],
  ["form.lead-form", "submit", "lead_sent"],
  ['[data-track="chat_opened"]', "click", "chat_opened"],
];

/** A measure as client/vitals.ts gives it, already rounded (the rounding rides in the chunk loaded after the page). */
export function reportVital(metric: VitalMetric, value: number): void {
  send({ kind: "vital", ...common(), metric, value });
}

/**
 * Pages that are no page of the site's audience: the test checkout's card page stands for the payment
 * provider's own, and an error page has no route to count (the server would refuse its path).
 */
const UNCOUNTED_PAGES = ["page-test-checkout", "page-not-found", "page-error"];

export function startBeacons(): void {
  if (UNCOUNTED_PAGES.some((name) => document.body.classList.contains(name))) return;
  const params = new URLSearchParams(location.search);
  const param = (name: string) => params.get(name)?.slice(0, 100) || undefined;
  let referrer: string | undefined;
  try {
    const host = document.referrer === "" ? "" : new URL(document.referrer).host;
    if (host !== "" && host !== location.host) referrer = host;
  } catch {
    // An unreadable referrer is no source.
  }
  // A partner's link (`?ref=NAME`) is the visit's source unless the link says another (the server
  // trims and lowers it as it does utm_source). Keeping it in the site's links comes after `load`.
  send({
    kind: "pageview",
    ...common(),
    referrer,
    utmSource: param("utm_source") ?? param("ref"),
    utmMedium: param("utm_medium"),
    utmCampaign: param("utm_campaign"),
  });

  // A click the island loader holds and replays (client/entry.ts) is one event, not two.
  const last = new Map<BeaconEvent, number>();
  const listen = (on: "click" | "submit") => (event: Event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    for (const [selector, kind, name] of EVENT_OF) {
      if (kind !== on || target.closest(selector) === null) continue;
      const now = performance.now();
      if (now - (last.get(name) ?? -Infinity) < 1000) return;
      last.set(name, now);
      send({ kind: name, ...common() });
      return;
    }
  };
  // On window, capturing: before any handler of the page can stop the event.
  window.addEventListener("click", listen("click"), { capture: true, passive: true });
  window.addEventListener("submit", listen("submit"), { capture: true, passive: true });

  // Real-user speed (web-vitals) and the carried code or partner: a chunk of their own, fetched only
  // once the page has loaded (client/after-load.ts).
  const later = () => void import("./after-load").then((m) => m.afterLoad(reportVital)).catch(() => {});
  if (document.readyState === "complete") setTimeout(later, 0);
  else window.addEventListener("load", () => setTimeout(later, 0), { once: true });
}
