import { pickEncoding } from "../../platform/http/accept-encoding";
import { noneMatchHits } from "../../platform/http/conditional";
import type { Asset } from "../assets";

const YEAR = 31_536_000;

type Encoding = "br" | "gzip";

/**
 * Each encoding of an asset is its own representation, with its own ETag (RFC 9110 §8.8.3): a
 * cache that kept the gzip bytes must not be told they are the brotli ones. The identity bytes keep
 * the asset's ETag; the others add the encoding to it.
 */
export function assetEtag(asset: Pick<Asset, "etag">, encoding: Encoding | null): string {
  return encoding === null ? asset.etag : `${asset.etag.slice(0, -1)}-${encoding}"`;
}

/** The encoding to send: brotli or gzip when the client takes it and the asset has it, else none. */
function encodingFor(request: Request, asset: Asset): Encoding | null {
  const accepted = pickEncoding(request.headers.get("accept-encoding"));
  if (asset.br && accepted === "br") return "br";
  if (asset.gzip && (accepted === "gzip" || (accepted === "br" && !asset.br))) return "gzip";
  return null;
}

/** Serves one in-memory asset: ETag revalidation, precompressed bodies, and byte ranges for video. */
export function serveAsset(request: Request, asset: Asset): Response {
  // A Range header we cannot read is ignored (RFC 9110 §14.2): the whole file is sent. A range is
  // always of the identity bytes.
  const range = parseRange(request.headers.get("range"));
  const encoding = range === null ? encodingFor(request, asset) : null;
  const etag = assetEtag(asset, encoding);
  const headers: Record<string, string> = {
    "content-type": asset.type,
    etag,
    "cache-control": asset.immutable ? `public, max-age=${YEAR}, immutable` : "public, max-age=3600, must-revalidate",
    "accept-ranges": "bytes",
    vary: "Accept-Encoding",
  };
  if (noneMatchHits(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  if (range !== null) return rangeResponse(range, asset, headers);
  if (encoding === "br" && asset.br) return new Response(asset.br, { headers: { ...headers, "content-encoding": "br" } });
  if (encoding === "gzip" && asset.gzip) return new Response(asset.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  return new Response(asset.body, { headers });
}

function parseRange(header: string | null): { start: string; end: string } | null {
  const match = header === null ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null || (match[1] === "" && match[2] === "")) return null;
  return { start: match[1] ?? "", end: match[2] ?? "" };
}

function rangeResponse(range: { start: string; end: string }, asset: Asset, headers: Record<string, string>): Response {
  const size = asset.body.byteLength;
  let start: number;
  let end: number;
  if (range.start === "") {
    start = Math.max(0, size - Number(range.end));
    end = size - 1;
  } else {
    start = Number(range.start);
    end = range.end === "" ? size - 1 : Math.min(Number(range.end), size - 1);
  }
  if (start >= size || start > end) {
    return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
  }
  return new Response(asset.body.subarray(start, end + 1), {
    status: 206,
    headers: { ...headers, "content-range": `bytes ${start}-${end}/${size}` },
  });
}
