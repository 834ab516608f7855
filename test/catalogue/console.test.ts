import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { count } from "drizzle-orm";
import { zipSync } from "fflate";
import { media, mediaFiles, ownerActivity } from "../../db/schema";
import { listVersions, readPublished } from "../../server/site/content/store";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { catalogueCsv, posterJpeg, posterPng } from "./fixtures";

// The console's Catalogue area (docs/catalogue.md): an owner imports a CSV with its posters (files
// or a zip), uploads screenshots, the demo video and its captions, writes the rights statement and
// confirms the claims; each is a publish in the history. A refused upload says why and stores nothing.

const sites: TestSite[] = [];
afterAll(async () => {
  for (const s of sites) await s.close();
});

async function signedIn() {
  const site = await createTestSite();
  sites.push(site);
  const cookie = await ownerCookie(site);
  const headers = { cookie, "accept-language": "en" };
  const get = (path: string) => site.request(path, { headers });
  const upload = (path: string, form: FormData) => site.request(path, { method: "POST", headers, body: form });
  const post = (path: string, fields: Record<string, string>) =>
    site.request(path, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  return { site, get, upload, post };
}

const fileOf = (bytes: Uint8Array | string, name: string, type = "application/octet-stream") =>
  new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name, { type });
const stored = (site: TestSite) => ({
  media: site.db.select({ n: count() }).from(media).get()?.n ?? 0,
  files: site.db.select({ n: count() }).from(mediaFiles).get()?.n ?? 0,
});

/** A PNG whose header claims `width`×`height` pixels though it holds a few bytes: an "image bomb". */
function claimedPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(body, 4);
    view.setUint32(8 + data.length, Bun.hash.crc32(body));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk("IHDR", ihdr),
    ...chunk("IDAT", new Uint8Array(deflateSync(new Uint8Array(64)))),
    ...chunk("IEND", new Uint8Array(0)),
  ]);
}

test("without a session the Catalogue page sends to the sign-in page and its forms are refused, changing nothing", async () => {
  const { site } = await signedIn();
  const page = await site.request("/admin/catalogue");
  expect({ status: page.status, location: page.headers.get("location") }).toEqual({ status: 303, location: "/admin/sign-in" });
  const form = new FormData();
  form.set("csv", fileOf(catalogueCsv(3, []), "titles.csv", "text/csv"));
  const refused = await site.request("/admin/catalogue/import", { method: "POST", body: form });
  expect(refused.status).toBe(401);
  expect(readPublished(site.db).version).toBe(0);
});

test("an import with posters as files and as a zip publishes the catalogue: counts per category in the console, the wall on the landing page", async () => {
  const { site, get, upload } = await signedIn();
  // Three posters uploaded first, then a CSV naming them and two more sent in a zip.
  const three = new FormData();
  three.append("posters", fileOf(await posterPng(300, 450, "#113355"), "a.png", "image/png"));
  three.append("posters", fileOf(await posterJpeg(300, 450, "#553311"), "b.jpg", "image/jpeg"));
  three.append("posters", fileOf(await posterPng(300, 450, "#335511"), "c.png", "image/png"));
  expect((await upload("/admin/catalogue/posters", three)).status).toBe(303);
  expect(stored(site).media).toBe(3);
  expect(readPublished(site.db).version).toBe(0);

  const zip = zipSync({
    "posters/d.png": await posterPng(300, 450, "#ff0000"),
    "posters/e.jpg": await posterJpeg(300, 450, "#00ff00"),
    "__MACOSX/posters/._d.png": new Uint8Array([0, 1, 2]),
  });
  const form = new FormData();
  form.set("csv", fileOf(catalogueCsv(40, ["a.png", "b.jpg", "c.png", "d.png", "e.jpg"]), "titles.csv", "text/csv"));
  form.append("posters", fileOf(zip, "posters.zip", "application/zip"));
  const answer = await upload("/admin/catalogue/import", form);
  expect(answer.status).toBe(303);
  expect(answer.headers.get("location")).toBe("/admin/catalogue?done=imported#imported");
  const published = readPublished(site.db);
  expect(published.version).toBe(1);
  expect(published.document.catalogue.set).not.toBeNull();
  expect(listVersions(site.db)[0]?.changes).toContain("catalogue.set");
  expect(stored(site).media).toBe(5);

  const console = await (await get("/admin/catalogue?done=imported")).text();
  expect(console).toContain("Catalogue imported and published (version 1)");
  expect(console).toContain("40 titles, 24 on the poster wall.");
  expect(console).toMatch(/<th scope="row">Action<\/th><td>8<\/td>/);
  expect(console).toContain('aria-current="page">Catalogue</a>');

  const landing = await (await site.request("/en/")).text();
  // Each poster of the wall in AVIF and WebP at two widths, the browser picking what the screen needs.
  expect(landing.match(/\/media\/[0-9a-f]{16}-160\.avif 160w, \/media\/[0-9a-f]{16}-320\.avif 300w/g)?.length).toBe(24);
  expect(landing).toMatch(/\/media\/[0-9a-f]{16}-160\.webp 160w/);

  // The activity log: the posters' upload, then the import with a link to its version.
  const log = (await (await get("/admin/activity")).text()).split("<tr>");
  expect(log[2]).toContain("Catalogue imported");
  expect(log[2]).toContain('<a href="/admin/content/history#version-1">Version 1</a>');
  expect(log[3]).toContain("Media uploaded");
  expect(log[3]).toContain("3 posters");
});

test("a CSV with bad rows is refused whole, each bad row named, and nothing is published or stored", async () => {
  const { site, upload } = await signedIn();
  const csv = "name,kind,year,category,poster\nGood,film,2001,Action,\n,film,2001,Action,\nThird,spaceship,20x1,Action,missing.png\n";
  const form = new FormData();
  form.set("csv", fileOf(csv, "titles.csv", "text/csv"));
  form.append("posters", fileOf(await posterPng(), "other.png", "image/png"));
  const answer = await upload("/admin/catalogue/import", form);
  expect(answer.status).toBe(422);
  const page = await answer.text();
  expect(page).toContain("Refused: nothing was changed or stored");
  expect(page).toContain("titles.csv: row 3, name: is empty");
  expect(page).toContain("titles.csv: row 4, kind:");
  expect(page).toContain("titles.csv: row 4, year:");
  expect(page).toContain("titles.csv: row 4, poster: &quot;missing.png&quot; is not in the posters&#x27; folder");
  expect(readPublished(site.db).version).toBe(0);
  expect(stored(site)).toEqual({ media: 0, files: 0 });
});

test("a renamed executable, a 200-megapixel image bomb and a non-video are refused with the reason, and nothing is stored", async () => {
  const { site, upload } = await signedIn();
  const send = async (slot: string, file: File) => {
    const form = new FormData();
    form.set("slot", slot);
    form.set("file", file);
    const answer = await upload("/admin/catalogue/media", form);
    return { status: answer.status, page: await answer.text() };
  };
  const elf = readFileSync(process.execPath).subarray(0, 64 * 1024);
  const executable = await send("previewPhone", fileOf(elf, "screenshot.png", "image/png"));
  expect(executable.status).toBe(422);
  expect(executable.page).toContain("screenshot.png: is not a picture");

  const bomb = await send("previewComputer", fileOf(claimedPng(20_000, 10_000), "huge.png", "image/png"));
  expect(bomb.status).toBe(422);
  expect(bomb.page).toContain("huge.png: is 20000×10000 pixels (200 megapixels)");

  const notVideo = await send("video", fileOf(await posterPng(), "demo.mp4", "video/mp4"));
  expect(notVideo.status).toBe(422);
  expect(notVideo.page).toContain("demo.mp4: is not an MP4 or WebM video");

  const bombInZip = new FormData();
  bombInZip.append("posters", fileOf(zipSync({ "ok.png": await posterPng(), "bomb.png": claimedPng(20_000, 10_000) }), "p.zip"));
  expect((await upload("/admin/catalogue/posters", bombInZip)).status).toBe(422);

  expect(stored(site)).toEqual({ media: 0, files: 0 });
  expect(readPublished(site.db).version).toBe(0);
  // Nothing stored, nothing logged: the sign-in is the only entry.
  expect(
    site.db
      .select()
      .from(ownerActivity)
      .all()
      .map((a) => a.action),
  ).toEqual(["sign-in-recovery"]);
});

test("a screenshot, the demo video and its French and English captions are published and served hashed, immutable, with 304s", async () => {
  const { site, upload, post, get } = await signedIn();
  const shot = new FormData();
  shot.set("slot", "previewComputer");
  shot.set("file", fileOf(await posterPng(1400, 900, "#224466"), "computer.png", "image/png"));
  expect((await upload("/admin/catalogue/media", shot)).status).toBe(303);
  // The hero and the preview show it in AVIF, then WebP, with a JPEG for browsers that read
  // neither, at its own proportions (1400 × 900, its largest size 1280 × 823), as the screenshots section does.
  const landingWithShot = await (await site.request("/")).text();
  const pictures = [...landingWithShot.matchAll(/<picture class="(hero__picture|preview__image)">(.*?)<\/picture>/g)];
  expect(pictures.map((m) => m[1])).toEqual(["hero__picture", "preview__image"]);
  for (const [, , inner = ""] of pictures) {
    expect(inner).toMatch(/<source type="image\/avif" srcSet="\/media\/[0-9a-f]{16}-\d+\.avif \d+w/);
    expect(inner).toMatch(/<source type="image\/webp" srcSet="\/media\/[0-9a-f]{16}-\d+\.webp \d+w/);
    expect(inner).toMatch(/<img[^>]*src="\/media\/[0-9a-f]{16}-\d+\.jpg"[^>]*width="1280" height="823"/);
    expect(inner).not.toContain("/assets/app-preview-");
  }

  const video = new FormData();
  video.set("slot", "video");
  video.set("file", fileOf(new Uint8Array(readFileSync("public/demo-video.mp4")), "my-demo.mp4", "video/mp4"));
  expect((await upload("/admin/catalogue/media", video)).status).toBe(303);

  const refusedCaptions = await post("/admin/catalogue/captions", { "captions:fr": "0:01 0:04 Bonjour\n0:05 0:03 Trop tôt" });
  expect(refusedCaptions.status).toBe(422);
  // The language named as the form's boxes name it ("Captions in Français"), not by its code.
  expect(await refusedCaptions.text()).toContain("Français, line 2: ends before it starts");

  const captions = await post("/admin/catalogue/captions", {
    "captions:fr": "0:00.5 0:03 Vos films partout\n0:03 0:06.25 Sur tous vos écrans",
    "captions:en": "0:00.5 0:03 Your films everywhere",
    "captions:it": "",
    "captions:es": "",
  });
  expect(captions.status).toBe(303);
  const published = readPublished(site.db);
  expect(published.document.captions.fr).toEqual([
    { start: 0.5, end: 3, text: "Vos films partout" },
    { start: 3, end: 6.25, text: "Sur tous vos écrans" },
  ]);
  expect(listVersions(site.db)[0]?.changes).toEqual(["captions.fr", "captions.en"]);
  // The box shows the lines back as they were written.
  expect(await (await get("/admin/catalogue")).text()).toContain("0:03 0:06.25 Sur tous vos écrans");

  const demo = await (await site.request("/demo")).text();
  const videoUrl = /src="(\/media\/[0-9a-f]{16}\.mp4)"/.exec(demo)?.[1];
  expect(videoUrl).toBeDefined();
  const track = /<track[^>]*src="(\/media\/captions-fr-[0-9a-f]{16}\.vtt)"/.exec(demo)?.[1];
  expect(track).toBeDefined();
  expect(demo).not.toContain("/assets/demo-captions-");
  const vtt = await site.request(track ?? "");
  expect(vtt.headers.get("content-type")).toContain("text/vtt");
  expect(vtt.headers.get("cache-control")).toContain("immutable");
  expect(await vtt.text()).toBe(
    "WEBVTT\n\n1\n00:00:00.500 --> 00:00:03.000\nVos films partout\n\n2\n00:00:03.000 --> 00:00:06.250\nSur tous vos écrans\n",
  );
  const again = await site.request(track ?? "", { headers: { "if-none-match": vtt.headers.get("etag") ?? "" } });
  expect(again.status).toBe(304);
  expect((await (await site.request("/en/demo")).text()).match(/captions-en-[0-9a-f]{16}\.vtt/)).not.toBeNull();

  const landing = await (await site.request("/")).text();
  const srcset = /\/media\/[0-9a-f]{16}-960\.webp/.exec(landing)?.[0];
  expect(srcset).toBeDefined();
  const picture = await site.request(srcset ?? "");
  expect(picture.headers.get("content-type")).toBe("image/webp");
  expect(picture.headers.get("cache-control")).toContain("immutable");
  const revalidated = await site.request(srcset ?? "", { headers: { "if-none-match": picture.headers.get("etag") ?? "" } });
  expect(revalidated.status).toBe(304);
});

test("the rights statement and the claims' confirmation are publishes, and the checklist follows them", async () => {
  const { site, post, get } = await signedIn();
  const tooLong = await post("/admin/catalogue/rights", { "rights:fr": "x".repeat(2001) });
  expect(tooLong.status).toBe(422);
  expect(readPublished(site.db).version).toBe(0);
  const rights = {
    "rights:fr": "Contenus sous licence de nos partenaires.",
    "rights:en": "Content licensed from our partners.",
    "rights:it": "Contenuti in licenza dai nostri partner.",
    "rights:es": "Contenidos con licencia de nuestros socios.",
  };
  expect((await post("/admin/catalogue/rights", rights)).status).toBe(303);
  expect(readPublished(site.db).document.catalogue.rights.en).toBe("Content licensed from our partners.");
  const before = await (await get("/admin/catalogue")).text();
  expect(before).toContain("Not confirmed yet.");
  expect(before).toContain("IPTV");
  expect((await post("/admin/catalogue/claims", { confirmed: "yes" })).status).toBe(303);
  expect(readPublished(site.db).document.catalogue.claimsConfirmed).toBe(true);
  expect(listVersions(site.db).map((v) => v.changes)).toContainEqual(["catalogue.claimsConfirmed"]);
  const overview = await (await get("/admin")).text();
  const claimsLine = overview.split("<li").find((li) => li.includes("the built-in claims"));
  expect(claimsLine).toContain('<span class="success">Done:</span>');
});
