import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { isHttps, securityHeaders } from "../../platform/http/security";
import type { Asset } from "../assets";
import { serveAsset } from "../pages/static";
import { MEDIA_PREFIX, readMediaFile } from "./media";

// The owner's uploads, served like the site's own assets: their names carry the hash of what was
// uploaded, so each is cached a year (immutable) and revalidates by ETag; video by byte ranges.
// A process keeps the files it served last in memory (their bytes never change under a name).

const NAME = /^[0-9a-f]{16}(-\d{2,4})?\.(avif|webp|jpg|mp4|webm)$/;
const CAPTIONS = /^captions-(fr|en|it|es)-[0-9a-f]{16}\.vtt$/;
const CACHE_BYTES = 64 * 1024 * 1024;

export function mediaController(deps: AppDeps) {
  const cache = new Map<string, Asset>();
  let cached = 0;
  const find = (name: string): Asset | null => {
    if (CAPTIONS.test(name)) {
      // Made from the published content (their lines are in its history): the current ones only.
      const found = deps.content.current().media.captions.find((c) => c.url.endsWith(`/${name}`));
      return found === undefined
        ? null
        : { body: new TextEncoder().encode(found.vtt), type: "text/vtt; charset=utf-8", etag: `"${name.slice(12, 28)}"`, immutable: true };
    }
    const hit = cache.get(name);
    if (hit !== undefined) return hit;
    const file = readMediaFile(deps.db, name);
    if (file === null) return null;
    const asset: Asset = {
      body: file.bytes,
      type: file.contentType,
      etag: `"${name.slice(0, 16)}${name.slice(16).replace(/\W/g, "")}"`,
      immutable: true,
    };
    if (file.bytes.byteLength <= CACHE_BYTES / 4) {
      // The oldest out first, until the new one fits.
      for (const [key, old] of cache) {
        if (cached + file.bytes.byteLength <= CACHE_BYTES) break;
        cache.delete(key);
        cached -= old.body.byteLength;
      }
      cache.set(name, asset);
      cached += file.bytes.byteLength;
    }
    return asset;
  };
  return new Elysia({ name: "media" }).get(`${MEDIA_PREFIX}:name`, ({ request, params }) => {
    const asset = NAME.test(params.name) || CAPTIONS.test(params.name) ? find(params.name) : null;
    if (asset === null)
      return Response.json(
        { error: "Not found" },
        { status: 404, headers: { ...securityHeaders(isHttps(request, deps.config.trustProxy)), "cache-control": "no-store" } },
      );
    const response = serveAsset(request, asset);
    for (const [k, v] of Object.entries(securityHeaders(isHttps(request, deps.config.trustProxy))))
      if (!response.headers.has(k)) response.headers.set(k, v);
    return response;
  });
}
