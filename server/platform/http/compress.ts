import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";
import { pickEncoding } from "./accept-encoding";

export type Bytes = Uint8Array<ArrayBuffer>;

/** A body in the two encodings browsers ask for, each at its best (and slowest) level. */
export type Compressed = { br: Bytes; gzip: Bytes };

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const copy = (buffer: Uint8Array): Bytes => new Uint8Array(buffer);

/**
 * For bytes compressed once and then served many times (pages, the client bundle): brotli quality
 * 11 and gzip level 9. About 0.2 s of CPU for a 70 KB page; the async zlib calls run on the thread
 * pool, so the event loop keeps answering requests meanwhile.
 */
export async function compressBest(body: Uint8Array): Promise<Compressed> {
  const [br, gz] = await Promise.all([
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { br: copy(br), gzip: copy(gz) };
}

/**
 * A body made for one answer only (a page rendered for one request): brotli else gzip, as the client
 * accepts, at quick levels (about a millisecond for a 50 KB page), or the body as it is.
 */
export function compressForOneAnswer(
  body: string | Bytes,
  acceptEncoding: string | null | undefined,
): { body: BodyInit; encoding: "br" | "gzip" | null } {
  const encoding = pickEncoding(acceptEncoding);
  if (encoding === "br") return { body: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), encoding };
  if (encoding === "gzip") return { body: gzipSync(body, { level: 6 }), encoding };
  return { body, encoding: null };
}

/** Compresses a body once for all its answers (`compressBest`, or its result made earlier). */
export type Compress = (body: Uint8Array) => Promise<Compressed>;

/**
 * `compressBest`, first looking for the result made earlier: in `made` (the executable's, from the
 * build) or in `cacheDir` (run from source: a restart, `bun --watch` or the tests' servers do not
 * compress the same bytes again). Both are keyed by the SHA-256 of the bytes and compression is
 * deterministic, so a stored result is the one compressing would give. A cache that cannot be read
 * or written is skipped.
 */
export function createCompressor(options: { made?: ReadonlyMap<string, Compressed>; cacheDir?: string } = {}): Compress {
  const { made, cacheDir } = options;
  if (cacheDir !== undefined) {
    try {
      mkdirSync(cacheDir, { recursive: true });
    } catch {
      return createCompressor({ made });
    }
  }
  return async (body) => {
    if (made === undefined && cacheDir === undefined) return compressBest(body);
    const hash = contentHash(body);
    const known = made?.get(hash);
    if (known !== undefined) return known;
    if (cacheDir === undefined) return compressBest(body);
    const [brPath, gzipPath] = [join(cacheDir, `${hash}.br`), join(cacheDir, `${hash}.gz`)];
    try {
      return { br: new Uint8Array(readFileSync(brPath)), gzip: new Uint8Array(readFileSync(gzipPath)) };
    } catch {
      // Not made yet (or unreadable): make it.
    }
    const compressed = await compressBest(body);
    try {
      // Written whole under another name, then renamed: a reader never sees half a file.
      for (const [path, bytes] of [
        [brPath, compressed.br],
        [gzipPath, compressed.gzip],
      ] as const) {
        const partial = `${path}.${process.pid}.tmp`;
        writeFileSync(partial, bytes);
        renameSync(partial, path);
      }
    } catch {
      // A read-only or full disk: the next start compresses again.
    }
    return compressed;
  };
}

/** The SHA-256 of some bytes in hex: the name of their compressed forms in the build's store. */
export const contentHash = (body: Uint8Array): string => createHash("sha256").update(body).digest("hex");

/** A strong ETag for exactly these bytes. */
export const strongEtag = (body: Uint8Array): string => `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
