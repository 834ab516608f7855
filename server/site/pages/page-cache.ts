import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../platform/http/compress";
import { decodePrebuilt, encodePrebuilt } from "../prebuilt";
import type { PrebuiltPage } from "../prebuilt-page";

// The pages an executable rendered at its last start, kept in the data folder so that a restart
// answers at once instead of rendering them again: with the default early-bird offer, the pages
// show an end date that only exists once the site has first started on this data folder, so the
// build cannot make them (docs/decisions/017-start-time.md). Only the executable keeps them: its
// build id names the code that rendered them, and each page is still used only when its page data
// matches the running configuration's (server/site/pages/static-pages.ts), like the build's.

const FILE = "pages-cache.bin";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The pages kept by the last start of the executable `buildId` on this data folder; none when absent or unreadable. */
export function readPageCache(dataDir: string, buildId: string): PrebuiltPage[] {
  try {
    // A view of the bytes read, not a copy (the pages' bodies are views into it in turn).
    const read = readFileSync(join(dataDir, FILE));
    const file = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    const headLength = file.indexOf(10);
    const body = file.subarray(headLength + 1);
    // The build that wrote it, and the SHA-256 of what follows: a damaged file is not served from.
    if (headLength === -1 || decoder.decode(file.subarray(0, headLength)) !== `${buildId} ${contentHash(body)}`) return [];
    return decodePrebuilt(body).pages;
  } catch {
    // A missing, truncated or foreign file: the pages are rendered as on a first start.
    return [];
  }
}

/**
 * Keeps these pages for the next start of the executable `buildId`. Written whole under another
 * name and renamed, so a start never reads half a file; a full or read-only disk only costs the
 * next start its head start.
 */
export function writePageCache(dataDir: string, buildId: string, pages: readonly PrebuiltPage[]): boolean {
  const path = join(dataDir, FILE);
  const partial = `${path}.${process.pid}.tmp`;
  try {
    const body = encodePrebuilt({ compressed: new Map(), pages: [...pages] });
    const head = encoder.encode(`${buildId} ${contentHash(body)}\n`);
    const out = new Uint8Array(head.byteLength + body.byteLength);
    out.set(head);
    out.set(body, head.byteLength);
    writeFileSync(partial, out);
    renameSync(partial, path);
    return true;
  } catch {
    rmSync(partial, { force: true });
    return false;
  }
}
