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
