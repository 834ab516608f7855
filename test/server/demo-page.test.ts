import { afterAll, beforeAll, expect, test } from "bun:test";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { mp4DurationSeconds } from "../../server/site/video-duration";
import { LOCALE_TAGS, LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

// Every demo link opens the demo page when no script runs (and the dialog when one does): the page
// must give such a visitor what the dialog gives, the video with its captions in their language.

let site: TestSite;
let seconds: number | null = null;
beforeAll(async () => {
  site = await createTestSite();
  seconds = mp4DurationSeconds(new Uint8Array(await (await site.request("/demo-video.mp4")).arrayBuffer()));
});
afterAll(() => site.close());

type Found = { attributes: Record<string, string>; text: string };

/** The page's elements that match `selector`, with their attributes (names as HTML reads them,
 * whatever their case in the source) and their text. */
async function elements(html: string, selector: string): Promise<Found[]> {
  const found: Found[] = [];
  await new HTMLRewriter()
    .on(selector, {
      element(element) {
        found.push({
          attributes: Object.fromEntries([...element.attributes].map(([name, value]) => [name.toLowerCase(), value])),
          text: "",
        });
      },
      text(chunk) {
        const last = found.at(-1);
        if (last !== undefined) last.text += chunk.text;
      },
    })
    .transform(new Response(html))
    .text();
  return found;
}

const decode = (text: string) =>
  text
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\u00a0/g, " ");

test("the demo page answers in every language with its heading stating the file's own length, its title and its links back", async () => {
  expect(seconds).not.toBeNull();
  expect(LOCALES.map((locale) => pathFor("demo", locale))).toEqual(["/demo", "/en/demo", "/it/demo", "/es/demo"]);
  for (const locale of LOCALES) {
    const path = pathFor("demo", locale);
    const response = await site.request(path);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    const html = await response.text();
    const [h1, ...others] = await elements(html, "main h1");
    expect(others).toEqual([]);
    const heading = SOURCE_MESSAGES[locale]["demo.title"]
      .replace("{siteName}", site.content.current().site.name)
      .replace("{seconds}", String(seconds));
    expect({ path, heading: decode(h1?.text ?? "") }).toEqual({ path, heading });
    const title = SOURCE_MESSAGES[locale]["meta.demoTitle"].replace("{siteName}", site.content.current().site.name);
    expect({ path, title: decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "") }).toEqual({ path, title });
    // Back to the offer and on to pay, in the page's language.
    const links = (await elements(html, "main a")).map((a) => a.attributes.href);
    expect(links).toContain(pathFor("payment", locale));
    expect(links).toContain(`${pathFor("landing", locale)}#pricing`);
    // The site's header and footer, as on every page.
    expect(await elements(html, "header.site-header")).toHaveLength(1);
    expect(await elements(html, "footer.site-footer")).toHaveLength(1);
  }
});

test("the player is the dialog's: poster, controls, nothing downloaded before play, and a caption track per language, the page's own shown", async () => {
  for (const locale of LOCALES) {
    const path = pathFor("demo", locale);
    const html = await (await site.request(path)).text();
    const videos = await elements(html, "main video");
    expect({ path, videos: videos.length }).toEqual({ path, videos: 1 });
    const video = videos[0]!.attributes;
    expect({ path, controls: "controls" in video, preload: video.preload }).toEqual({ path, controls: true, preload: "none" });
    const poster = await site.request(video.poster ?? "");
    expect({ path, poster: poster.status, type: poster.headers.get("content-type") }).toEqual({ path, poster: 200, type: "image/webp" });
    const [source] = await elements(html, "main video source");
    expect(source?.attributes).toMatchObject({ src: "/demo-video.mp4", type: "video/mp4" });

    const tracks = (await elements(html, "main video track")).map((t) => t.attributes);
    expect(tracks.map((t) => ({ kind: t.kind, srclang: t.srclang, label: t.label, default: "default" in t }))).toEqual(
      LOCALES.map((l) => ({ kind: "captions", srclang: l, label: LOCALE_TAGS[l].name, default: l === locale })),
    );
    // Each track is that language's captions, served as WebVTT.
    for (const track of tracks) {
      const vtt = await site.request(track.src ?? "");
      expect({ path, track: track.srclang, status: vtt.status, type: vtt.headers.get("content-type") }).toEqual({
        path,
        track: track.srclang,
        status: 200,
        type: "text/vtt; charset=utf-8",
      });
      const body = (await vtt.text()).replace(/\u00a0/g, " ");
      expect(body.startsWith("WEBVTT")).toBe(true);
      const own = SOURCE_MESSAGES[track.srclang as keyof typeof SOURCE_MESSAGES]["demo.caption.home"];
      expect({ path, track: track.srclang, caption: body.includes(own) }).toEqual({ path, track: track.srclang, caption: true });
    }
    // A browser that cannot play it offers the file.
    expect((await elements(html, "main video a")).map((a) => a.attributes.href)).toEqual(["/demo-video.mp4"]);
  }
});

test("the demo page runs no script of its own: the site's loader is its only script file", async () => {
  const html = await (await site.request("/en/demo")).text();
  const files = (await elements(html, "script[src]")).map((s) => s.attributes.src);
  expect(files).toEqual([expect.stringMatching(/^\/assets\/entry-[a-z0-9]+\.js$/)]);
  // No demo dialog on it: the video is in the page.
  expect(html).not.toContain('data-island="demo"');
});

test("every demo link of the landing page leads to the demo page of its language", async () => {
  for (const locale of LOCALES) {
    const html = await (await site.request(pathFor("landing", locale))).text();
    const links = (await elements(html, "[data-demo-button]")).map((a) => a.attributes.href);
    expect({ locale, links }).toEqual({ locale, links: Array(7).fill(pathFor("demo", locale)) });
  }
});
