import { afterAll, expect, test } from "bun:test";
import * as v from "valibot";
import { DemoCuesSchema, demoCaptionsVtt } from "../../server/site/demo-captions";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { mp4DurationSeconds } from "../../server/site/video-duration";
import { LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, sharedAssets } from "../support/app";
import { plainSpaces } from "../support/text";

// The demo's title states the length of the video the site really serves, read from the file, and
// its captions (the video draws no sentence) speak each language.

const box = (type: string, body: Uint8Array) => {
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(body, 8);
  return out;
};
/** A movie header (version 0): flags, creation, modification, timescale, duration. */
const mvhd = (timescale: number, duration: number) => {
  const body = new Uint8Array(100);
  const view = new DataView(body.buffer);
  view.setUint32(12, timescale);
  view.setUint32(16, duration);
  return box("mvhd", body);
};
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

test("the length is read from the file's movie header, after any other box, in whole seconds as a player shows them", () => {
  // A player shows 25.767 s as 0:25 and 61.5 s as 1:01: the title says no more than the player beside it.
  expect(mp4DurationSeconds(concat(box("ftyp", new Uint8Array(8)), box("moov", mvhd(1000, 61_500))))).toBe(61);
  expect(mp4DurationSeconds(box("moov", mvhd(1000, 25_767)))).toBe(25);
  expect(mp4DurationSeconds(box("moov", mvhd(1000, 400)))).toBe(1);
  expect(
    mp4DurationSeconds(
      concat(box("ftyp", new Uint8Array(8)), box("moov", concat(box("trak", new Uint8Array(4)), mvhd(90_000, 2_250_000)))),
    ),
  ).toBe(25);
  expect(mp4DurationSeconds(box("ftyp", new Uint8Array(8)))).toBeNull();
  expect(mp4DurationSeconds(new Uint8Array([0, 0, 0, 99, 109, 111, 111, 118]))).toBeNull();
});

const site = await createTestSite();
afterAll(() => site.close());

test("every landing page names the served video's real length in its demo title", async () => {
  const seconds = mp4DurationSeconds(new Uint8Array(await (await site.request("/demo-video.mp4")).arrayBuffer()));
  expect(seconds).toBeGreaterThan(0);
  const words = { fr: "secondes", en: "seconds", it: "secondi", es: "segundos" } as const;
  for (const locale of LOCALES) {
    const html = await (await site.request(pathFor("landing", locale))).text();
    const title = /<h2 id="demo-title">([^<]*)<\/h2>/.exec(html)?.[1] ?? "";
    expect({ locale, title }).toEqual({ locale, title: expect.stringContaining(`${seconds} ${words[locale]}`) });
  }
});

const CAPTION_KEYS = (["home", "search", "film", "devices", "offline", "end"] as const).map((scene) => `demo.caption.${scene}` as const);

test("each language's captions of the demo are served as WebVTT, that language's texts in scene order, timed inside the video", async () => {
  const duration = mp4DurationSeconds(new Uint8Array(await (await site.request("/demo-video.mp4")).arrayBuffer())) ?? 0;
  const { captions } = (await sharedAssets()).urls;
  expect(captions.map((c) => c.locale)).toEqual([...LOCALES]);
  for (const { locale, url } of captions) {
    const response = await site.request(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    const vtt = await response.text();
    expect(vtt.startsWith("WEBVTT\n\n")).toBe(true);
    const cues = [...vtt.matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) --> (\d\d):(\d\d):(\d\d)\.(\d{3})\n(.+)$/gm)].map((m) => {
      const at = (h = "", min = "", s = "", ms = "") => Number(h) * 3600 + Number(min) * 60 + Number(s) + Number(ms) / 1000;
      return { start: at(m[1], m[2], m[3], m[4]), end: at(m[5], m[6], m[7], m[8]), text: plainSpaces(m[9]) };
    });
    expect({ locale, texts: cues.map((c) => c.text) }).toEqual({ locale, texts: CAPTION_KEYS.map((key) => SOURCE_MESSAGES[locale][key]) });
    // One after the other, from the first seconds to the end of the video.
    cues.forEach((cue, i) => {
      expect(cue.end).toBeGreaterThan(cue.start);
      if (i > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[i - 1]?.end ?? 0);
    });
    expect(cues[0]?.start).toBeLessThan(1);
    // (The whole seconds stated are the part of the length a player shows: the last cue ends within the next second.)
    expect(cues.at(-1)?.end ?? 0).toBeGreaterThanOrEqual(duration);
    expect(cues.at(-1)?.end ?? 0).toBeLessThan(duration + 1);
  }
});

test("the cue list is refused when it names a text that is not a caption or a cue that ends before it starts", () => {
  const good = { cues: [{ start: 0, end: 4.2, key: "demo.caption.home" }] };
  expect(v.is(DemoCuesSchema, good)).toBe(true);
  expect(v.is(DemoCuesSchema, { cues: [{ start: 0, end: 4.2, key: "hero.title" }] })).toBe(false);
  expect(v.is(DemoCuesSchema, { cues: [{ start: 5, end: 4.2, key: "demo.caption.home" }] })).toBe(false);
  expect(v.is(DemoCuesSchema, { cues: [] })).toBe(false);
});

test("a cue is written with WebVTT's hours, minutes, seconds and milliseconds, beyond the first minute too", () => {
  const vtt = demoCaptionsVtt({ cues: [{ start: 1.5, end: 61.25, key: "demo.caption.home" }] }, "en");
  expect(vtt).toBe(`WEBVTT\n\n1\n00:00:01.500 --> 00:01:01.250\n${SOURCE_MESSAGES.en["demo.caption.home"]}\n`);
});
