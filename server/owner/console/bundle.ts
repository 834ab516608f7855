import { createHash } from "node:crypto";
import { join } from "node:path";
import { type Compress, type Compressed, compressBest } from "../../platform/http/compress";
import type { ClientFile } from "../../site/client-build";

/** The console's own script and stylesheet, built apart from the site's: public pages never name them. */
export type ConsoleFile = { body: Uint8Array<ArrayBuffer>; type: string } & Partial<Compressed>;

export type ConsoleBundle = {
  script: string;
  style: string;
  get(pathname: string): ConsoleFile | undefined;
  /** Every file, for the weight the console's first load costs. */
  files(): [string, ConsoleFile][];
};

/** The console's bundle, made at its first use (the public site never waits for it). */
export type ConsoleBundleSource = () => Promise<ConsoleBundle>;

const ENTRY = join(import.meta.dir, "..", "..", "..", "client", "admin", "entry.ts");

/**
 * Bundles client/admin/ with Bun's bundler: one entry, uPlot split into its own chunk that only the
 * overview loads. File names carry their content hash, so they are cached as immutable. Run from
 * source at the console's first request; the build runs it once and embeds the files in the
 * executable, which has no sources to bundle.
 */
export async function buildConsoleFiles(): Promise<ClientFile[]> {
  const result = await Bun.build({
    entrypoints: [ENTRY],
    splitting: true,
    minify: true,
    target: "browser",
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  });
  if (!result.success) throw new Error(`console bundle failed: ${result.logs.map(String).join("\n")}`);
  return Promise.all(
    result.outputs.map(async (output) => ({ name: output.path.replace(/^.*\//, ""), body: new Uint8Array(await output.arrayBuffer()) })),
  );
}

/** The files served under /admin/assets/, each compressed once (the executable's were by the build). */
export async function consoleBundleFrom(built: readonly ClientFile[], compress: Compress = compressBest): Promise<ConsoleBundle> {
  const files = new Map<string, ConsoleFile>();
  let script = "";
  let style = "";
  for (const { name, body } of built) {
    const path = `/admin/assets/${name}`;
    const css = name.endsWith(".css");
    const type = css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    // Sent compressed to a phone, as the site's own script is: brotli or gzip, made once here.
    files.set(path, { body, type, ...(await compress(body)) });
    if (/^entry-.*\.js$/.test(name)) script = path;
    if (css) style = path;
  }
  if (script === "" || style === "") throw new Error("The console bundle is missing its entry script or stylesheet");
  return { script, style, get: (pathname) => files.get(pathname), files: () => [...files] };
}

/** The embedded files when there are (the executable), else a bundle of client/admin/ from source. */
export function consoleBundleSource(embedded: readonly ClientFile[] | undefined, compress: Compress = compressBest): ConsoleBundleSource {
  let made: Promise<ConsoleBundle> | undefined;
  return () =>
    (made ??= (embedded !== undefined ? Promise.resolve(embedded) : buildConsoleFiles()).then((files) =>
      consoleBundleFrom(files, compress),
    ));
}

export const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
