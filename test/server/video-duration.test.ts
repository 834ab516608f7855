import { afterAll, expect, test } from "bun:test";
import { mp4DurationSeconds } from "../../server/site/video-duration";
import { LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite } from "../support/app";

// The demo's title states the length of the video the site really serves, read from the file.

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

test("the length is read from the file's movie header, after any other box, rounded to whole seconds", () => {
  expect(mp4DurationSeconds(concat(box("ftyp", new Uint8Array(8)), box("moov", mvhd(1000, 61_500))))).toBe(62);
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
