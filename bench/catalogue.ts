// The catalogue's figures, on the server as `bun run` starts it (sharp loads beside it):
//   1. image conversion time per upload: a poster (2 widths × AVIF + WebP, a JPEG) and a screenshot
//      (3 widths), each converted once, on upload;
//   2. a 5,000-title catalogue with 24 distinct posters on the wall imported from the command line;
//   3. its catalogue page: HTML weight (raw and gzip/brotli on the wire) and the time to answer a
//      search (median of 30, over loopback);
//   4. a phone's first visit of the landing page with the 24-poster wall (bench/first-visit.ts,
//      target unscrolled ≤ 120 KB).
// Prints figures only:  ./node_modules/.bin/bun run bench/catalogue.ts

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { convertPicture } from "../server/site/catalogue/media";
import { startBenchServer } from "./load";
import { noisyJpeg } from "./pictures";
import { loadAverage } from "./site";

const root = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "bench-catalogue-"));
const dataDir = join(dir, "data");
const posters = join(dir, "posters");
mkdirSync(posters, { recursive: true });

console.log(loadAverage());
const times: number[] = [];
for (let i = 0; i < 24; i++) {
  const bytes = await noisyJpeg(i, 600, 900);
  writeFileSync(join(posters, `p${i}.jpg`), bytes);
  const started = performance.now();
  await convertPicture("poster", `p${i}.jpg`, new Uint8Array(bytes));
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(
  `Poster 600×900 JPEG → AVIF+WebP 160/320 + JPEG: median ${times[12]?.toFixed(0)} ms, max ${times[23]?.toFixed(0)} ms (24 uploads)`,
);
const shot = await noisyJpeg(99, 2560, 1600);
let started = performance.now();
await convertPicture("preview", "shot.jpg", new Uint8Array(shot));
console.log(`Screenshot 2560×1600 → AVIF+WebP 640/960/1280 + JPEG: ${(performance.now() - started).toFixed(0)} ms`);

const lines = ["name,kind,year,category,poster"];
const categories = ["Action", "Comédie", "Drame", "Science-fiction", "Documentaires", "Animation", "Thriller", "Séries TV"];
for (let i = 0; i < 5000; i++)
  lines.push(
    `Titre numéro ${i + 1},${i % 3 === 0 ? "series" : "film"},${1960 + (i % 65)},${categories[i % categories.length]},p${i % 24}.jpg`,
  );
writeFileSync(join(dir, "titles.csv"), `${lines.join("\n")}\n`);
// NODE_ENV=test: a real shop's pages, without development's sample purchases (their notice would
// load React on the phone's first screen and count in its weight).
const server = await startBenchServer(
  [process.execPath, "run", join(root, "server/main.ts")],
  { DATA_DIR: dataDir, NODE_ENV: "test" },
  root,
);
try {
  started = performance.now();
  const imported = await $`${process.execPath} run ${join(root, "server/main.ts")} catalogue import ${join(dir, "titles.csv")} ${posters}`
    .env({ ...process.env, DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent" })
    .quiet();
  console.log(
    `Import 5,000 titles, 24 posters (command line): ${((performance.now() - started) / 1000).toFixed(1)} s — ${imported.stdout.toString().trim()}`,
  );
  // The server follows the publish within a second or two.
  for (let i = 0; i < 100 && !(await (await fetch(`${server.base}/en/catalogue`)).text()).includes("5,000"); i++) await Bun.sleep(100);
  for (const encoding of ["identity", "gzip", "br"]) {
    const answer = await fetch(`${server.base}/en/catalogue`, { headers: { "accept-encoding": encoding }, decompress: false });
    const bytes = (await answer.arrayBuffer()).byteLength;
    console.log(`/en/catalogue (5,000 titles, ${120} a page) HTML ${encoding}: ${(bytes / 1024).toFixed(1)} KB`);
  }
  const searches: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await (await fetch(`${server.base}/en/catalogue?q=${encodeURIComponent(`numero ${i}7`)}`)).text();
    searches.push(performance.now() - t0);
  }
  searches.sort((a, b) => a - b);
  console.log(
    `Search of 5,000 titles (whole answer over loopback): median ${searches[15]?.toFixed(1)} ms, max ${searches[29]?.toFixed(1)} ms`,
  );
  const visit = await $`${process.execPath} run ${join(import.meta.dir, "first-visit.ts")} --url=${server.base} /`.quiet().nothrow();
  console.log(visit.stdout.toString().trim());
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
