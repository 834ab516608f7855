import type { Page } from "playwright-core";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { LOCALE_TAGS, LOCALES, type Locale } from "../../shared/locales";

// The demo video's caption tracks as Chromium loads them, in the landing page's dialog and on the
// demo page alike.

export type TrackSeen = { srclang: string; label: string; mode: TextTrackMode; cues: string[] };

/** The caption tracks of the page's `video` element, each loaded (the page's own is shown, the
 * others are loaded hidden, as the player's menu would) with its cues' texts. */
export function demoCaptions(page: Page, video: string): Promise<TrackSeen[]> {
  return page.evaluate(async (selector) => {
    const element = document.querySelector<HTMLVideoElement>(selector);
    if (element === null) throw new Error(`no ${selector}`);
    const tracks = [...element.querySelectorAll("track")];
    // Read before anything else changes it: the mode the browser chose from the track's attributes.
    const modes = tracks.map((track) => track.track.mode);
    for (const track of tracks) if (track.track.mode === "disabled") track.track.mode = "hidden";
    await Promise.all(
      tracks.map((track) =>
        track.readyState === HTMLTrackElement.LOADED
          ? null
          : new Promise((resolve, reject) => {
              track.addEventListener("load", resolve, { once: true });
              track.addEventListener("error", () => reject(new Error(`track ${track.srclang} did not load`)), { once: true });
            }),
      ),
    );
    return tracks.map((track, i) => ({
      srclang: track.srclang,
      label: track.label,
      mode: modes[i] ?? "disabled",
      cues: [...(track.track.cues ?? [])].map((cue) => (cue instanceof VTTCue ? cue.text.replace(/\u00a0/g, " ") : "")),
    }));
  }, video);
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
