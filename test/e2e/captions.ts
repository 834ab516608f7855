import type { Page } from "playwright-core";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { LOCALE_TAGS, LOCALES, type Locale } from "../../shared/locales";

// The demo video's caption tracks as Chromium loads them, in the landing page's dialog and on the
// demo page alike.

export type TrackSeen = { srclang: string; label: string; mode: TextTrackMode; cues: string[] };

/** The caption tracks of the page's `video` element, each loaded (the page's own is shown, the
 * others are loaded hidden, as the player's menu would) with its cues' texts. Waited for from
 * here rather than by the tracks' events: a page opened without JavaScript runs no listener. */
export async function demoCaptions(page: Page, video: string): Promise<TrackSeen[]> {
  const tracks = `${video} track`;
  // Read before anything else changes it: the mode the browser chose from the track's attributes.
  const modes = await page.evaluate((selector) => {
    const elements = [...document.querySelectorAll<HTMLTrackElement>(selector)];
    const chosen = elements.map((track) => track.track.mode);
    for (const track of elements) if (track.track.mode === "disabled") track.track.mode = "hidden";
    return chosen;
  }, tracks);
  if (modes.length === 0) throw new Error(`no ${tracks}`);
  // Asked from here at intervals: a page without JavaScript runs no timer or animation frame either
  // (Playwright's waitForFunction would never look again).
  const LOADED = 2; // HTMLTrackElement.LOADED; ERROR (3) ends the wait too, and fails below
  for (;;) {
    const states = await page.evaluate(
      (selector) => [...document.querySelectorAll<HTMLTrackElement>(selector)].map((t) => t.readyState),
      tracks,
    );
    if (states.every((state) => state >= LOADED)) break;
    await Bun.sleep(50);
  }
  return page.evaluate(
    ({ selector, modes }) =>
      [...document.querySelectorAll<HTMLTrackElement>(selector)].map((track, i) => {
        if (track.readyState === HTMLTrackElement.ERROR) throw new Error(`track ${track.srclang} did not load`);
        return {
          srclang: track.srclang,
          label: track.label,
          mode: modes[i] ?? "disabled",
          cues: [...(track.track.cues ?? [])].map((cue) => (cue instanceof VTTCue ? cue.text.replace(/\u00a0/g, " ") : "")),
        };
      }),
    { selector: tracks, modes },
  );
}

const CAPTION_SCENES = ["home", "search", "film", "devices", "offline", "end"] as const;

/** Every language's track, each with its own language's six captions; the page's own is shown. */
export function expectedCaptions(pageLocale: Locale): TrackSeen[] {
  return LOCALES.map((locale) => ({
    srclang: locale,
    label: LOCALE_TAGS[locale].name,
    mode: locale === pageLocale ? "showing" : "disabled",
    cues: CAPTION_SCENES.map((scene) => SOURCE_MESSAGES[locale][`demo.caption.${scene}`]),
  }));
}
