// Requests per second and p50/p99 latency of `/` and `/en` at 50 concurrent connections on
// loopback, against the single executable (production React), and the compressed weight of the
// landing page's first load.  Run: ./node_modules/.bin/bun run bench/pages.ts [seconds]

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { fmt, runLoad, startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
const seconds = Number(process.argv[2] ?? 10);
const exe = join(root, "dist", "site");
if (!existsSync(exe)) await $`${process.execPath} run ${join(root, "scripts/build.ts")}`.quiet();

const dataDir = mkdtempSync(join(tmpdir(), "bench-pages-"));
const server = await startBenchServer([exe], { DATA_DIR: dataDir }, root);
const base = server.base;

try {
  const headers = { "accept-encoding": "br, gzip" };
  for (const path of ["/", "/en"]) {
    await runLoad({ concurrency: 10, seconds: 1, request: () => fetch(base + path, { headers }) }); // warm-up
    const result = await runLoad({ concurrency: 50, seconds, request: () => fetch(base + path, { headers }) });
    console.log(`GET ${path.padEnd(4)} 50 connections, ${seconds}s: ${fmt(result)}`);
  }

  // First-load weight of the landing page as a phone downloads it (br), video excluded.
  const html = await fetch(`${base}/`, { headers }).then((r) => r.text());
  // Bytes on the wire: fetch() would decompress, so ask it not to.
  const wire = async (url: string) => {
    const response = await fetch(base + url, { headers, decompress: false });
    return (await response.arrayBuffer()).byteLength;
  };
  const htmlBytes = await wire("/");
  const pick = (re: RegExp) => [...new Set([...html.matchAll(re)].map((m) => m[1]!))];
  const css = pick(/<link rel="stylesheet" href="([^"]+)"/g);
  const js = pick(/<script[^>]* src="([^"]+)"/g).concat(pick(/<link rel="modulepreload"[^>]* href="([^"]+)"/g));
  const font = pick(/<link rel="preload" href="([^"]+\.woff2)"/g);
  // What a phone loads: the 640 w candidate of each srcset, else the src (the dialog's poster only loads when opened).
  const images = [...html.matchAll(/<img[^>]*>/g)]
    .map((m) => /srcSet="([^" ]+) 640w/i.exec(m[0])?.[1] ?? / src="([^"]+)"/.exec(m[0])?.[1] ?? "")
    .filter((u) => u !== "" && !u.includes("poster") && !u.startsWith("data:"));
  const icon = pick(/<link rel="icon" href="([^"]+)"/g);
  const rows: [string, number][] = [["HTML", htmlBytes]];
  for (const [label, urls] of [
    ["CSS", css],
    ["JS", [...new Set(js)]],
    ["font", font],
    ["images", [...images, ...icon]],
  ] as const) {
    let total = 0;
    for (const url of urls) total += await wire(url);
    rows.push([label, total]);
  }
  const total = rows.reduce((sum, [, bytes]) => sum + bytes, 0);
  console.log("Landing page first load (compressed, video and dialog poster excluded; phone-size preview image):");
  for (const [label, bytes] of rows) console.log(`  ${label.padEnd(7)} ${(bytes / 1024).toFixed(1).padStart(7)} KiB`);
  console.log(`  total   ${(total / 1024).toFixed(1).padStart(7)} KiB`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
