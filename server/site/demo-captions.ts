import * as v from "valibot";
import { createTranslator, type MessageKey } from "../../shared/i18n";
import type { Locale } from "../../shared/locales";
import { PAGE_TEXTS } from "./locales";

// The demo video draws no sentence: what it says is its captions, one WebVTT file per language.
// scripts/media/make-media.sh writes when each scene's caption shows (public/demo-video.cues.json,
// beside the video it made); the words are the locales' "demo.caption.*" texts, so a language's
// captions change with its texts, without remaking the video.

const isCaptionKey = (key: string): key is MessageKey => key.startsWith("demo.caption.") && key in PAGE_TEXTS.fr;

/** The cue list as the script writes it; checked, since a file edited by hand could say anything. */
export const DemoCuesSchema = v.object({
  cues: v.pipe(
    v.array(
      v.pipe(
        v.object({
          start: v.pipe(v.number(), v.minValue(0)),
          end: v.number(),
          key: v.pipe(v.string(), v.check(isCaptionKey, "not a demo.caption.* text of the locales")),
        }),
        v.check((cue) => cue.end > cue.start, "a cue must end after it starts"),
      ),
    ),
    v.minLength(1),
  ),
});
export type DemoCues = v.InferOutput<typeof DemoCuesSchema>;

/** 12.345 s as WebVTT's 00:00:12.345. */
export function timestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** One language's captions of the demo video, as a WebVTT file. */
export function demoCaptionsVtt(cues: DemoCues, locale: Locale): string {
  const t = createTranslator(locale, PAGE_TEXTS[locale]);
  const blocks = cues.cues.map((cue, i) => {
    // A caption is one line of text: a line break or "-->" in a translation cannot end the cue early.
    const text = (isCaptionKey(cue.key) ? t(cue.key) : cue.key).replace(/\s*\n\s*/g, " ").replaceAll("-->", "→");
    return `${i + 1}\n${timestamp(cue.start)} --> ${timestamp(cue.end)}\n${text}`;
  });
  return `WEBVTT\n\n${blocks.join("\n\n")}\n`;
}
