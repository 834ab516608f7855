import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { zipSync } from "fflate";
import type { BrowserContext, Page } from "playwright-core";
import { LOCALE_TAGS } from "../../shared/locales";
import { catalogueCsv, posterJpeg, posterPng } from "../catalogue/fixtures";
import { freePort } from "../support/pebble";
import { axeViolations } from "./axe";
import { demoCaptions } from "./captions";
import { type RunningServer, startServer } from "./harness";
import { addPasskeyAuthenticator } from "./passkey";
import { useBrowser } from "./shared-browser";

// The owner gives the site its catalogue, pictures and demo from the console's Catalogue area, in
// Chromium signed in with a passkey (a virtual authenticator): three posters and a screenshot,
// a 500-title CSV with its posters in a zip, the demo video with French and English captions. The
// landing page shows the poster wall in four languages at 360 and 1440 px (axe: no violation), the
// catalogue page lists and searches with and without JavaScript, the pictures arrive as AVIF or
// WebP chosen from a srcset, and the landing page's dialog and the demo page play the video with
// the page language's captions (on a phone, the dialog the screen's full width).
// A bad upload is refused with its reason and stores nothing.

const PORT = freePort();
const BASE = `http://localhost:${PORT}`;
const ROOT = join(import.meta.dir, "..", "..");
const shared = useBrowser();
let server: RunningServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer({ env: { PORT: String(PORT), PUBLIC_BASE_URL: BASE } });
  context = await shared.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB", bypassCSP: true });
  page = await context.newPage();
  await addPasskeyAuthenticator(context, page);
});
afterAll(async () => {
  await context?.close();
  await server?.stop();
});

async function signIn() {
  const invite = spawnSync({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "owner", "invite"],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, PUBLIC_BASE_URL: BASE, PORT: String(PORT) },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(invite.exitCode).toBe(0);
  const link = /http:\/\/localhost:\d+\/admin\/invite\/\S+/.exec(invite.stdout.toString())?.[0] ?? "";
  await page.goto(link);
  await page.getByRole("button", { name: "Create the passkey" }).click();
  await page.locator("#recovery-codes").waitFor({ state: "visible" });
  await page.getByRole("link", { name: "I have written them down, continue" }).click();
  await page.waitForURL(`${BASE}/admin`);
}

const file = (name: string, mimeType: string, bytes: Uint8Array) => ({ name, mimeType, buffer: Buffer.from(bytes) });
const mediaCount = async () => {
  const { Database } = await import("bun:sqlite");
  const db = new Database(join(server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<{ n: number }, []>("SELECT count(*) AS n FROM media").get()?.n ?? 0;
  } finally {
    db.close();
  }
};

test("posters, a screenshot and a 500-title catalogue from the console: the wall in four languages, the catalogue page with and without JavaScript", async () => {
  await signIn();
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Catalogue" }).click();
  expect(await axeViolations(page, "catalogue area")).toEqual([]);

  // A renamed executable as a screenshot: refused with the reason, nothing stored.
  await page
    .locator("#slot-previewPhone")
    .setInputFiles(file("phone.png", "image/png", new Uint8Array(readFileSync(process.execPath).subarray(0, 256 * 1024))));
  await page.locator("#slot-previewPhone").locator("xpath=ancestor::form").getByRole("button", { name: "Upload and publish" }).click();
  await page.getByRole("alert").filter({ hasText: "phone.png: is not a picture" }).waitFor();
  expect(await axeViolations(page, "catalogue area, refused")).toEqual([]);
  expect(await mediaCount()).toBe(0);

  await page
    .locator("#posters-files")
    .setInputFiles([
      file("one.png", "image/png", await posterPng(400, 600, "#1d3557")),
      file("two.jpg", "image/jpeg", await posterJpeg(400, 600, "#e63946")),
      file("three.png", "image/png", await posterPng(400, 600, "#2a9d8f")),
    ]);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Posters uploaded" }).waitFor();

  await page.locator("#slot-previewComputer").setInputFiles(file("computer.png", "image/png", await posterPng(1600, 1000, "#264653")));
  await page.locator("#slot-previewComputer").locator("xpath=ancestor::form").getByRole("button", { name: "Upload and publish" }).click();
  await page.getByRole("status").filter({ hasText: "Picture published" }).waitFor();

  const zip = zipSync({ "four.png": await posterPng(400, 600, "#f4a261"), "five.jpg": await posterJpeg(400, 600, "#8338ec") });
  await page
    .locator("#import-csv")
    .setInputFiles(
      file(
        "titles.csv",
        "text/csv",
        new TextEncoder().encode(catalogueCsv(500, ["one.png", "two.jpg", "three.png", "four.png", "five.jpg"])),
      ),
    );
  await page.locator("#import-posters").setInputFiles(file("posters.zip", "application/zip", zip));
  await page.getByRole("button", { name: "Import and publish" }).click();
  await page.getByRole("status").filter({ hasText: "Catalogue imported and published" }).waitFor({ timeout: 60_000 });
  await page.getByText("500 titles, 24 on the poster wall.").waitFor();
  expect(await axeViolations(page, "catalogue area, imported")).toEqual([]);

  // The landing page: the wall in each language, at a phone's width and a desktop's.
  const visitor = await shared.newContext({ locale: "fr-FR", bypassCSP: true });
  const types = new Set<string>();
  for (const width of [360, 1440]) {
    const tab = await visitor.newPage();
    await tab.setViewportSize({ width, height: 900 });
    tab.on("response", (r) => {
      if (r.url().includes("/media/")) types.add(r.headers()["content-type"] ?? "");
    });
    for (const path of ["/", "/en", "/it", "/es"]) {
      await tab.goto(`${BASE}${path}`);
      const wall = tab.locator(".poster-wall");
      await wall.scrollIntoViewIfNeeded();
      expect(await wall.locator("li").count()).toBe(24);
      // Lazy posters: the first loads once the wall is on screen.
      await tab.waitForFunction(() => {
        const img = document.querySelector(".poster-wall img");
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
      });
      expect(await wall.locator("source[type='image/avif']").first().getAttribute("srcset")).toMatch(
        /\/media\/[0-9a-f]{16}-160\.avif 160w/,
      );
      expect(await axeViolations(tab, `landing ${path} at ${width}`)).toEqual([]);
    }
    await tab.close();
  }
  // What Chromium took from the srcsets: a modern format, never the JPEG fallback.
  expect([...types].every((t) => t === "image/avif" || t === "image/webp")).toBe(true);
  expect(types.size).toBeGreaterThan(0);

  // The catalogue page lists and searches, with JavaScript and without.
  const noScript = await shared.newContext({ javaScriptEnabled: false, locale: "en-GB", bypassCSP: true });
  for (const ctx of [visitor, noScript]) {
    const tab = await ctx.newPage();
    await tab.goto(`${BASE}/en/catalogue`);
    await tab.getByText("500 titles").first().waitFor();
    await tab.getByLabel("Search").fill("amelie");
    await tab.getByLabel("Search").press("Enter");
    await tab.waitForURL(/q=amelie/);
    await tab.getByText("Amélie, la suite").waitFor();
    expect(await tab.locator(".title-list li").count()).toBe(1);
    if (ctx === visitor) expect(await axeViolations(tab, "catalogue search")).toEqual([]);
    await tab.close();
  }
  await noScript.close();
  await visitor.close();
}, 240_000);

const OWNER_CAPTIONS = {
  fr: ["Vos films sur tous vos écrans", "Une seule fois, pour toujours"],
  en: ["Your films on every screen", "Once, for life"],
} as const;

/**
 * The owner's video in `video` (the dialog's or the demo page's player): its file, the page
 * language's caption track shown by default (its WebVTT holds that language's lines, not the
 * other's), both tracks loaded with their cues, and the video playing.
 */
async function seeOwnerDemo(tab: Page, video: string, lang: "fr" | "en") {
  const player = tab.locator(video);
  await player.waitFor({ state: "visible" });
  expect(await player.locator("source").getAttribute("src")).toMatch(/^\/media\/[0-9a-f]{16}\.mp4$/);
  const track = player.locator(`track[srclang='${lang}']`);
  expect(await track.getAttribute("default")).not.toBeNull();
  const src = (await track.getAttribute("src")) ?? "";
  expect(src).toMatch(new RegExp(`^/media/captions-${lang}-[0-9a-f]{16}\\.vtt$`));
  const vtt = await (await fetch(BASE + src)).text();
  const other = lang === "fr" ? "en" : "fr";
  for (const line of OWNER_CAPTIONS[lang]) expect(vtt).toContain(line);
  for (const line of OWNER_CAPTIONS[other]) expect(vtt).not.toContain(line);
  expect(await demoCaptions(tab, video)).toEqual(
    (["fr", "en"] as const).map((locale) => ({
      srclang: locale,
      label: LOCALE_TAGS[locale].name,
      mode: locale === lang ? "showing" : "disabled",
      cues: [...OWNER_CAPTIONS[locale]],
    })),
  );
  // It plays: started here (the demo page waits for a press; the dialog may have started it).
  await tab.evaluate((selector) => document.querySelector<HTMLVideoElement>(selector)?.play(), video);
  await tab.waitForFunction((selector) => (document.querySelector<HTMLVideoElement>(selector)?.currentTime ?? 0) > 0.2, video, {
    timeout: 20_000,
  });
}

test("the demo video with French and English captions plays in the landing page's dialog and on the demo page with the page language's track, full width on a phone", async () => {
  await page.goto(`${BASE}/admin/catalogue`);
  await page
    .locator("#slot-video")
    .setInputFiles(file("my-demo.mp4", "video/mp4", new Uint8Array(readFileSync(join(ROOT, "public/demo-video.mp4")))));
  await page.locator("#slot-video").locator("xpath=ancestor::form").getByRole("button", { name: "Upload and publish" }).click();
  await page.getByRole("status").filter({ hasText: "Demo video published" }).waitFor();
  await page.locator("#captions-fr").fill(`0:00 0:04 ${OWNER_CAPTIONS.fr[0]}\n0:04 0:09 ${OWNER_CAPTIONS.fr[1]}`);
  await page.locator("#captions-en").fill(`0:00 0:04 ${OWNER_CAPTIONS.en[0]}\n0:04 0:09 ${OWNER_CAPTIONS.en[1]}`);
  await page.locator("#captions").getByRole("button", { name: "Publish" }).click();
  await page.getByRole("status").filter({ hasText: "Captions published" }).waitFor();

  for (const [path, lang] of [
    ["/", "fr"],
    ["/en", "en"],
  ] as const) {
    const tab = await context.newPage();
    await tab.goto(`${BASE}${path}`);
    await tab.locator("[data-demo-button]").first().click();
    await tab.locator("dialog.demo-dialog[open]").waitFor({ state: "visible" });
    await seeOwnerDemo(tab, "dialog.demo-dialog video", lang);
    await tab.goto(`${BASE}${path === "/" ? "" : path}/demo`);
    await seeOwnerDemo(tab, "main video", lang);
    await tab.close();
  }

  // A phone: the dialog and its video the screen's full width, not a box inside it.
  const phone = await shared.newContext({ viewport: { width: 360, height: 800 }, locale: "fr-FR", bypassCSP: true, hasTouch: true });
  const tab = await phone.newPage();
  await tab.goto(`${BASE}/`);
  await tab.locator("[data-demo-button]").first().click();
  await seeOwnerDemo(tab, "dialog.demo-dialog video", "fr");
  for (const box of [await tab.locator("dialog.demo-dialog").boundingBox(), await tab.locator("dialog.demo-dialog video").boundingBox()])
    expect({ x: Math.round(box?.x ?? -1), width: Math.round(box?.width ?? 0) }).toEqual({ x: 0, width: 360 });
  expect(await axeViolations(tab, "owner's demo in the dialog at 360 px")).toEqual([]);
  await phone.close();
}, 120_000);
