import type { Asset } from "../assets";
import { pickEncoding } from "../../platform/http/accept-encoding";

const YEAR = 31_536_000;

/** Serves one in-memory asset: ETag revalidation, precompressed bodies, and byte ranges for video. */
export function serveAsset(request: Request, asset: Asset): Response {
  const headers: Record<string, string> = {
    "content-type": asset.type,
    etag: asset.etag,
    "cache-control": asset.immutable ? `public, max-age=${YEAR}, immutable` : "public, max-age=3600, must-revalidate",
    "accept-ranges": "bytes",
    vary: "Accept-Encoding",
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });

  // A Range header we cannot read is ignored (RFC 9110 §14.2): the whole file is sent.
  const range = parseRange(request.headers.get("range"));
  if (range !== null) return rangeResponse(range, asset, headers);

  const encoding = pickEncoding(request.headers.get("accept-encoding"));
  if (asset.br && encoding === "br") {
    return new Response(asset.br, { headers: { ...headers, "content-encoding": "br" } });
  }
  if (asset.gzip && (encoding === "gzip" || (encoding === "br" && !asset.br))) {
    return new Response(asset.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  }
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
