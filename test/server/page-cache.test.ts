import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readPageCache, writePageCache } from "../../server/site/pages/page-cache";
import type { PrebuiltPage } from "../../server/site/prebuilt-page";

// The executable keeps the pages it rendered in the data folder, so that a restart answers without
// rendering them again; a restart of another build, or a damaged file, renders as a first start does.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "page-cache-"));
  dirs.push(dir);
  return dir;
};
const bytes = (text: string) => new TextEncoder().encode(text);
const page = (key: string, html: string): PrebuiltPage => ({
  key,
  dataHash: `hash of ${key}`,
  status: 200,
  html: bytes(html),
  br: bytes(`br ${html}`),
  gzip: bytes(`gzip ${html}`),
});
const text = (body: Uint8Array) => new TextDecoder().decode(body);

test("the pages kept by one start are read back whole by the next start of the same build", () => {
  const dir = dataDir();
  const pages = [page("fr 200 landing", "<html lang=fr>"), page("en 404 not-found", "<html lang=en>")];
  expect(writePageCache(dir, "build-1", pages)).toBe(true);
  const read = readPageCache(dir, "build-1");
  expect(read.map((p) => [p.key, p.dataHash, p.status, text(p.html), text(p.br), text(p.gzip)])).toEqual(
    pages.map((p) => [p.key, p.dataHash, p.status, text(p.html), text(p.br), text(p.gzip)]),
  );
});

test("another build's pages are not used: its code may render them differently", () => {
  const dir = dataDir();
  writePageCache(dir, "build-1", [page("fr 200 landing", "<html>")]);
  expect(readPageCache(dir, "build-2")).toEqual([]);
});

test("a damaged or missing file gives no page rather than wrong bytes", () => {
  const dir = dataDir();
  expect(readPageCache(dir, "build-1")).toEqual([]);
  writePageCache(dir, "build-1", [page("fr 200 landing", "<html lang=fr>")]);
  const path = join(dir, "pages-cache.bin");
  const file = readFileSync(path);
  writeFileSync(path, file.subarray(0, file.byteLength - 3));
  expect(readPageCache(dir, "build-1")).toEqual([]);
  const last = file.byteLength - 1;
  file.writeUInt8(file.readUInt8(last) ^ 1, last);
  writeFileSync(path, file);
  expect(readPageCache(dir, "build-1")).toEqual([]);
});

test("a data folder that cannot be written only costs the next start its head start", () => {
  expect(writePageCache(join(dataDir(), "missing", "folder"), "build-1", [page("fr 200 landing", "<html>")])).toBe(false);
});
