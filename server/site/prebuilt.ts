import * as v from "valibot";
import type { Bytes, Compressed } from "../platform/http/compress";
import { mapPageBodies, type PrebuiltPage, prebuiltPageSchema } from "./prebuilt-page";

/**
 * What the build makes ahead for the executable, so that it answers its first request without
 * compressing anything: the compressed client files (by the SHA-256 of their bytes) and the pages
 * that depend only on their route and language, rendered with the build's configuration (each is
 * used only when the running configuration gives the same page data).
 */
export type Prebuilt = { compressed: Map<string, Compressed>; pages: PrebuiltPage[] };

// One file: a magic line, the length of a JSON index, the index, then the bytes it points into.
const MAGIC = "site-prebuilt-1\n";

const Span = v.tuple([v.number(), v.number()]);
const Index = v.object({
  compressed: v.array(v.object({ hash: v.string(), br: Span, gzip: Span })),
  pages: v.array(prebuiltPageSchema(Span)),
});
type Span = v.InferOutput<typeof Span>;

export function encodePrebuilt(prebuilt: Prebuilt): Uint8Array {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const put = (bytes: Uint8Array): Span => {
    chunks.push(bytes);
    offset += bytes.byteLength;
    return [offset - bytes.byteLength, bytes.byteLength];
  };
  const index: v.InferOutput<typeof Index> = {
    compressed: [...prebuilt.compressed].map(([hash, c]) => ({ hash, br: put(c.br), gzip: put(c.gzip) })),
    pages: prebuilt.pages.map((p) => mapPageBodies(p, put)),
  };
  const head = new TextEncoder().encode(MAGIC + JSON.stringify(index));
  const out = new Uint8Array(4 + head.byteLength + offset);
  new DataView(out.buffer).setUint32(0, head.byteLength);
  out.set(head, 4);
  let at = 4 + head.byteLength;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Reads a file made by `encodePrebuilt`; the byte arrays are views into `file`, not copies. */
export function decodePrebuilt(file: Bytes): Prebuilt {
  const headLength = new DataView(file.buffer, file.byteOffset).getUint32(0);
  const head = new TextDecoder().decode(file.subarray(4, 4 + headLength));
  if (!head.startsWith(MAGIC)) throw new Error("prebuilt file: unknown format");
  const index = v.parse(Index, JSON.parse(head.slice(MAGIC.length)));
  const base = 4 + headLength;
  const at = ([start, length]: Span): Bytes => file.subarray(base + start, base + start + length);
  return {
    compressed: new Map(index.compressed.map((c) => [c.hash, { br: at(c.br), gzip: at(c.gzip) }])),
    pages: index.pages.map((p) => mapPageBodies(p, at)),
  };
}
