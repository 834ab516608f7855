import { createHash } from "node:crypto";
import { CAPTION_LIMITS, type CaptionCue } from "../../../shared/catalogue";
import { timestamp } from "../demo-captions";

// The owner's captions of the demo video, edited in the console as timed lines, one a line:
// `0:01.5 0:04 What the viewer reads` (start, end, text). Stored in the content (history, restore)
// and served as one WebVTT file per language, named by its hash like every medium.

/** A line that could not be read: its number in the box and why. */
export type CaptionProblem = { line: number; message: string };

/** `75`, `1:15`, `01:15.5`, `0:01:15.250` as seconds; null when it is none of them. */
function secondsOf(text: string): number | null {
  const m = /^(?:(\d{1,2}):)?(?:(\d{1,2}):)?(\d{1,5}(?:[.,]\d{1,3})?)$/.exec(text);
  if (m === null) return null;
  const parts = [m[1], m[2]].filter((p): p is string => p !== undefined).map(Number);
  const seconds = Number((m[3] ?? "").replace(",", "."));
  if (parts.length > 0 && seconds >= 60) return null;
  const [a, b] = parts;
  const total = parts.length === 2 ? (a ?? 0) * 3600 + (b ?? 0) * 60 + seconds : parts.length === 1 ? (a ?? 0) * 60 + seconds : seconds;
  return Math.round(total * 1000) / 1000;
}

/** The box's lines as cues, or every line that is wrong. Empty lines are skipped. */
export function readCaptionLines(text: string): { ok: true; cues: CaptionCue[] } | { ok: false; problems: CaptionProblem[] } {
  const cues: CaptionCue[] = [];
  const problems: CaptionProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const m = /^(\S+)\s+(?:-->\s+)?(\S+)\s+(.+)$/.exec(line);
    const start = m === null ? null : secondsOf(m[1] ?? "");
    const end = m === null ? null : secondsOf(m[2] ?? "");
    const words = (m?.[3] ?? "").trim().replaceAll("-->", "→");
    if (m === null || start === null || end === null)
      problems.push({ line: index + 1, message: "write the start, the end, then the text: 0:01.5 0:04 Text" });
    else if (end <= start) problems.push({ line: index + 1, message: "ends before it starts" });
    else if (end > CAPTION_LIMITS.seconds) problems.push({ line: index + 1, message: "is past the video's longest length" });
    else if (words.length > CAPTION_LIMITS.text)
      problems.push({ line: index + 1, message: `is longer than ${CAPTION_LIMITS.text} characters` });
    else cues.push({ start, end, text: words });
  });
  if (cues.length > CAPTION_LIMITS.cues) problems.push({ line: 0, message: `at most ${CAPTION_LIMITS.cues} lines` });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, cues: cues.sort((a, b) => a.start - b.start) };
}

const clock = (seconds: number) => {
  const whole = Math.floor(seconds);
  const rest = Math.round((seconds - whole) * 1000);
  const base = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  return rest === 0 ? base : `${base}.${String(rest).padStart(3, "0").replace(/0+$/, "")}`;
};

/** The cues as the console's box shows them (what readCaptionLines reads back). */
export const captionLines = (cues: readonly CaptionCue[]) => cues.map((c) => `${clock(c.start)} ${clock(c.end)} ${c.text}`).join("\n");

export function captionsVtt(cues: readonly CaptionCue[]): string {
  const blocks = cues.map((cue, i) => `${i + 1}\n${timestamp(cue.start)} --> ${timestamp(cue.end)}\n${cue.text}`);
  return `WEBVTT\n\n${blocks.join("\n\n")}\n`;
}

/** The file's public name: the language and the hash of its bytes (a change is a new name). */
export const captionsFileName = (locale: string, vtt: string) =>
  `captions-${locale}-${createHash("sha256").update(vtt).digest("hex").slice(0, 16)}.vtt`;
