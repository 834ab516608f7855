import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BunPlugin } from "bun";
import type { Bytes } from "../platform/http/compress";

/** A built client file: the bundler already put the content hash in its name. */
export type ClientFile = { name: string; body: Bytes };

/**
 * The address the stylesheet names the font by: the asset store (server/site/assets.ts) swaps it
 * for the font's content-hashed URL.
 */
export const FONT_PLACEHOLDER = "/fonts/inter-latin.woff2";

const CLIENT_ENTRY = join(import.meta.dir, "..", "..", "client", "entry.ts");
const CLIENT_STYLES = join(import.meta.dir, "..", "..", "client", "styles.css");

/**
 * The browser formats texts the server has already parsed (server/site/locales.ts), so intl-messageformat
 * gets FormatJS's parser-less build of its parser module: the same syntax-tree helpers, and a
 * `parse` that throws, in place of about 12 KB (compressed) of parser.
 */
const withoutIcuParser: BunPlugin = {
  name: "without-icu-parser",
  setup(build) {
    const noParser = Bun.resolveSync("@formatjs/icu-messageformat-parser/no-parser.js", import.meta.dir);
    build.onResolve({ filter: /^@formatjs\/icu-messageformat-parser$/ }, () => ({ path: noParser }));
  },
};

/**
 * Bundles the browser code in memory (used when running from source; the executable embeds the
 * result): the entry (the islands' loader), and a chunk per island and per shared dependency
 * (React among them) that the loader imports when a page needs it.
 */
export async function buildClient(): Promise<ClientFile[]> {
  const result = await Bun.build({
    entrypoints: [CLIENT_ENTRY, CLIENT_STYLES],
    target: "browser",
    format: "esm",
    minify: true,
    splitting: true,
    naming: { entry: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    plugins: [withoutIcuParser],
    // Keep the font a file of its own (Bun would inline it into the CSS as a data: URL).
    external: [FONT_PLACEHOLDER],
    throw: false,
  });
  if (!result.success) {
    throw new Error(`Client build failed:\n${result.logs.map(String).join("\n")}`);
  }
  return Promise.all(
    result.outputs.map(async (out) => ({ name: out.path.replace(/^.*\//, ""), body: new Uint8Array(await out.arrayBuffer()) })),
  );
}

/** What the browser code is made from, besides the bundler and these build settings (this file). */
const CLIENT_SOURCES = ["client", "shared", "locales"];
const ROOT = join(import.meta.dir, "..", "..");

/** Every file below `dir`, sorted (the order of a listing is the file system's). */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * The bundle's key: the SHA-256 of every source file it may read (client/, shared/, locales/), the
 * installed packages (package-lock.json), this file's settings and the Bun that bundles.
 */
function sourcesKey(): string {
  const hash = new Bun.CryptoHasher("sha256");
  hash.update(Bun.version);
  for (const path of [import.meta.path, join(ROOT, "package-lock.json"), ...CLIENT_SOURCES.flatMap((dir) => filesBelow(join(ROOT, dir)))]) {
    hash.update(path.slice(ROOT.length));
    hash.update(readFileSync(path));
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * `buildClient`, kept in `cacheDir` under the key of its sources when run from source: a restart,
 * `bun --watch` after a server-side edit, or the tests' servers (about 40 a run, 0.2 to 0.3 s of CPU
 * each for the bundle) do not bundle the same sources again. A cache that cannot be read or
 * written only means bundling.
 */
export async function buildClientCached(cacheDir: string): Promise<ClientFile[]> {
  let key: string | null = null;
  try {
    key = sourcesKey();
    const dir = join(cacheDir, key);
    const names = readFileSync(join(dir, "files.txt"), "utf8").split("\n").filter(Boolean);
    return names.map((name) => ({ name, body: new Uint8Array(readFileSync(join(dir, name))) }));
  } catch {
    // Not built yet for these sources (or unreadable): build.
  }
  const files = await buildClient();
  if (key === null) return files;
  try {
    // Written whole in a folder of its own, then renamed: a reader sees all of it or none.
    const partial = join(cacheDir, `${key}.${process.pid}.tmp`);
    mkdirSync(partial, { recursive: true });
    for (const file of files) writeFileSync(join(partial, file.name), file.body);
    writeFileSync(join(partial, "files.txt"), files.map((file) => file.name).join("\n"));
    renameSync(partial, join(cacheDir, key));
  } catch {
    // Another process stored it first, or a read-only or full disk: the next start bundles again.
    rmSync(join(cacheDir, `${key}.${process.pid}.tmp`), { recursive: true, force: true });
  }
  return files;
}
