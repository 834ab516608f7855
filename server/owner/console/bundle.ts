import { createHash } from "node:crypto";
import { join } from "node:path";

/** The console's own script and stylesheet, built apart from the site's: public pages never name them. */
export type ConsoleBundle = {
  script: string;
  style: string;
  get(pathname: string): { body: Uint8Array<ArrayBuffer>; type: string } | undefined;
};

const ENTRY = join(import.meta.dir, "..", "..", "..", "client", "admin", "entry.ts");

/**
 * Bundles client/admin/ with Bun's bundler: one entry, uPlot split into its own chunk that only the
 * overview loads. File names carry their content hash, so they are cached as immutable.
 */
export async function buildConsoleBundle(): Promise<ConsoleBundle> {
  const result = await Bun.build({ entrypoints: [ENTRY], splitting: true, minify: true, target: "browser", naming: "[name]-[hash].[ext]" });
  if (!result.success) throw new Error(`console bundle failed: ${result.logs.map(String).join("\n")}`);
  const files = new Map<string, { body: Uint8Array<ArrayBuffer>; type: string }>();
  let script = "";
  let style = "";
  for (const output of result.outputs) {
    const body = new Uint8Array(await output.arrayBuffer());
    const name = output.path.replace(/^.*\//, "").replace(/^\.\//, "");
    const path = `/admin/assets/${name}`;
    const type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    files.set(path, { body, type });
    if (output.kind === "entry-point") script = path;
    if (name.endsWith(".css") && (style === "" || name.startsWith("entry"))) style = path;
  }
  return { script, style, get: (pathname) => files.get(pathname) };
}

export const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
