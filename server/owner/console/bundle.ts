import { createHash } from "node:crypto";
import { join } from "node:path";
import { compressBest, type Compressed } from "../../platform/http/compress";

/** The console's own script and stylesheet, built apart from the site's: public pages never name them. */
export type ConsoleFile = { body: Uint8Array<ArrayBuffer>; type: string } & Partial<Compressed>;

export type ConsoleBundle = {
  script: string;
  style: string;
  get(pathname: string): ConsoleFile | undefined;
  /** Every file, for the weight the console's first load costs. */
  files(): [string, ConsoleFile][];
};

const ENTRY = join(import.meta.dir, "..", "..", "..", "client", "admin", "entry.ts");

/**
 * Bundles client/admin/ with Bun's bundler: one entry, uPlot split into its own chunk that only the
 * overview loads. File names carry their content hash, so they are cached as immutable.
 */
export async function buildConsoleBundle(): Promise<ConsoleBundle> {
  const result = await Bun.build({ entrypoints: [ENTRY], splitting: true, minify: true, target: "browser", naming: "[name]-[hash].[ext]" });
  if (!result.success) throw new Error(`console bundle failed: ${result.logs.map(String).join("\n")}`);
  const files = new Map<string, ConsoleFile>();
  let script = "";
  let style = "";
  for (const output of result.outputs) {
    const body = new Uint8Array(await output.arrayBuffer());
    const name = output.path.replace(/^.*\//, "").replace(/^\.\//, "");
    const path = `/admin/assets/${name}`;
    const type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    // Sent compressed to a phone, as the site's own script is: brotli or gzip, made once here.
    files.set(path, { body, type, ...(await compressBest(body)) });
    if (output.kind === "entry-point") script = path;
    if (name.endsWith(".css") && (style === "" || name.startsWith("entry"))) style = path;
  }
  return { script, style, get: (pathname) => files.get(pathname), files: () => [...files] };
}

export const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
