import { createHash } from "node:crypto";
import * as v from "valibot";
import demoCues from "../../public/demo-video.cues.json";
import { LOCALES } from "../../shared/locales";
import type { AssetUrls } from "../../shared/page-data";
import { BytesSchema } from "../platform/bytes-schema";
import { type Bytes, type Compress, compressBest } from "../platform/http/compress";
import { type ClientFile, FONT_PLACEHOLDER } from "./client-build";
import { DemoCuesSchema, demoCaptionsVtt } from "./demo-captions";
import { PUBLIC_FILES } from "./public-files";
import { mp4DurationSeconds } from "./video-duration";

/** One static file in memory; also the shape checked when a worker receives the first process's files. */
export const AssetSchema = v.object({
  body: BytesSchema,
  type: v.string(),
  /** The identity bytes' ETag; each compressed body has its own (pages/static.ts: assetEtag). */
  etag: v.string(),
  /** Content-hashed URL: cache for a year, never revalidate. */
  immutable: v.boolean(),
  br: v.optional(BytesSchema),
  gzip: v.optional(BytesSchema),
});
export type Asset = v.InferOutput<typeof AssetSchema>;

export type AssetStore = { urls: AssetUrls; get(pathname: string): Asset | undefined; entries(): [string, Asset][] };

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  woff2: "font/woff2",
  png: "image/png",
  webp: "image/webp",
  jpg: "image/jpeg",
  mp4: "video/mp4",
  svg: "image/svg+xml",
  vtt: "text/vtt; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  map: "application/json",
};
const COMPRESSIBLE = new Set(["js", "css", "svg", "txt", "map", "vtt"]);

const hashOf = (body: Uint8Array) => createHash("sha256").update(body).digest("hex").slice(0, 12);
const extOf = (name: string) => name.slice(name.lastIndexOf(".") + 1);

async function makeAsset(body: Bytes, ext: string, immutable: boolean, compress: Compress): Promise<Asset> {
  const asset: Asset = { body, type: TYPES[ext] ?? "application/octet-stream", etag: `"${hashOf(body)}"`, immutable };
  if (COMPRESSIBLE.has(ext) && body.byteLength > 512) {
    const { br, gzip } = await compress(body);
    asset.br = br;
    asset.gzip = gzip;
  }
  return asset;
}

/**
 * All static files in memory, each under a content-hashed URL below /assets/. The demo video is
 * also served at /demo-video.mp4 (the address its players and their download link name), revalidated by ETag since that name never changes;
 * its captions, one WebVTT file per language, are made here from the cue list and the locales.
 * Text files are compressed at the best levels, all at once on the thread pool (the executable
 * brings them compressed by the build, so it answers at once).
 */
export async function createAssetStore(clientFiles: ClientFile[], compress: Compress = compressBest): Promise<AssetStore> {
  const byPath = new Map<string, Asset>();
  const publicUrls: Record<string, string> = {};
  let videoSeconds: number | null = null;
  for (const [key, file] of Object.entries(PUBLIC_FILES)) {
    const body = new Uint8Array(await Bun.file(file.path).arrayBuffer());
    if (key === "video") videoSeconds = mp4DurationSeconds(body);
    const asset = await makeAsset(body, file.ext, true, compress);
    const url = `/assets/${file.name}-${asset.etag.slice(1, 9)}.${file.ext}`;
    byPath.set(url, asset);
    publicUrls[key] = url;
  }

  const cues = v.safeParse(DemoCuesSchema, demoCues);
  if (!cues.success) throw new Error(`public/demo-video.cues.json: ${v.summarize(cues.issues)}`);
  const captions: AssetUrls["captions"] = [];
  for (const locale of LOCALES) {
    const asset = await makeAsset(new TextEncoder().encode(demoCaptionsVtt(cues.output, locale)), "vtt", true, compress);
    const url = `/assets/demo-captions-${locale}-${asset.etag.slice(1, 9)}.vtt`;
    byPath.set(url, asset);
    captions.push({ locale, url });
  }

  let js = "";
  let css = "";
  const clientAssets: Promise<void>[] = [];
  for (const file of clientFiles) {
    let { name, body } = file;
    if (name.endsWith(".css")) {
      // Bun inlines any url() under 128 KB as a data: URI, so the stylesheet names the font by a
      // fixed address that is swapped here for its hashed URL (and the stylesheet renamed to match).
      const text = new TextDecoder().decode(body).replaceAll(FONT_PLACEHOLDER, publicUrls.font ?? "");
      body = new TextEncoder().encode(text);
      name = `styles-${hashOf(body).slice(0, 8)}.css`;
    }
    const url = `/assets/${name}`;
    clientAssets.push(makeAsset(body, extOf(name), true, compress).then((asset) => void byPath.set(url, asset)));
    if (/^entry-.*\.js$/.test(name)) js = url;
    if (name.endsWith(".css")) css = url;
  }
  await Promise.all(clientAssets);
  if (js === "" || css === "") throw new Error("Client bundle is missing its entry script or stylesheet");

  const videoAsset = byPath.get(publicUrls.video ?? "");
  if (videoAsset) byPath.set("/demo-video.mp4", { ...videoAsset, immutable: false });
  const faviconAsset = byPath.get(publicUrls.favicon ?? "");
  if (faviconAsset) byPath.set("/favicon.svg", { ...faviconAsset, immutable: false });
  byPath.set(
    "/robots.txt",
    await makeAsset(new TextEncoder().encode("User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /checkout/\n"), "txt", false, compress),
  );

  const url = (key: keyof typeof PUBLIC_FILES) => publicUrls[key] ?? "";
  return assetStoreFrom({
    urls: {
      js,
      css,
      font: url("font"),
      poster: url("poster"),
      video: "/demo-video.mp4",
      videoSeconds,
      captions,
      preview640: url("preview640"),
      preview960: url("preview960"),
      preview1280: url("preview1280"),
      ogImage: url("ogImage"),
      favicon: url("favicon"),
      appleTouchIcon: url("appleTouchIcon"),
    },
    files: [...byPath.entries()],
  });
}

/** Everything an asset store holds, as plain data: a second server process gets it from the first. */
export type AssetSnapshot = { urls: AssetUrls; files: [string, Asset][] };

export function assetStoreFrom(snapshot: AssetSnapshot): AssetStore {
  const byPath = new Map(snapshot.files);
  return { urls: snapshot.urls, get: (pathname) => byPath.get(pathname), entries: () => [...byPath.entries()] };
}
