// What a first visit of the landing page downloads on a phone, as Chromium counts it on the wire
// (CDP's encodedDataLength: compressed bodies plus headers), by kind of resource:
//   1. a 360 x 740 phone with a 2x screen, the page loaded and left unscrolled (targets: ≤ 100 KB in
//      all, ≤ 60 KB of JavaScript);
//   2. the same phone scrolled to the end, a screen at a time (target: ≤ 160 KB).
// Prints figures only. Runs the executable (bench/site.ts), or measures a running site:
//   ./node_modules/.bin/bun run bench/first-visit.ts [--build] [--port=N] [--url=http://host:port] [path...]
import type { CDPSession } from "playwright-core";
import { openPhone } from "./phone";
import { loadAverage, startSite } from "./site";

const args = process.argv.slice(2);
const given = args.find((a) => a.startsWith("--url="))?.slice(6);
const paths = args.filter((a) => a.startsWith("/"));
if (paths.length === 0) paths.push("/", "/en");

type Row = { url: string; type: string; bytes: number };

/** Every response of the page and its encoded (on-the-wire) length, keyed by request id. */
function recordTransfers(cdp: CDPSession): () => Row[] {
  const responses = new Map<string, { url: string; type: string }>();
  const rows: Row[] = [];
  cdp.on("Network.responseReceived", (event) => responses.set(event.requestId, { url: event.response.url, type: event.type }));
  cdp.on("Network.loadingFinished", (event) => {
    const response = responses.get(event.requestId);
    if (response) rows.push({ ...response, bytes: event.encodedDataLength });
  });
  return () => rows;
}

async function visit(base: string, path: string, scroll: boolean): Promise<Row[]> {
  const { browser, page, cdp } = await openPhone({ scale: 2 });
  try {
    const rows = recordTransfers(cdp);
    await page.goto(base + path, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    if (scroll) {
      // Step down a screen at a time, as a reader would, so lazy images start as they come near.
      for (let i = 0; i < 60; i++) {
        const atEnd = await page.evaluate(() => {
          window.scrollBy(0, window.innerHeight * 0.8);
          return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
        });
        await page.waitForTimeout(120);
        if (atEnd) break;
      }
      await page.waitForLoadState("networkidle");
    }
    await page.waitForTimeout(500);
    return rows();
  } finally {
    await browser.close();
  }
}

const kind = (row: Row) =>
  row.type === "Script"
    ? "JS"
    : row.type === "Stylesheet"
      ? "CSS"
      : row.type === "Document"
        ? "HTML"
        : row.type === "Font"
          ? "font"
          : row.type === "Image"
            ? "images"
            : "other";
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1).padStart(6)} KB`;

function report(title: string, rows: Row[], budget: { total: number; js?: number }) {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(kind(row), (sums.get(kind(row)) ?? 0) + row.bytes);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  console.log(title);
  for (const label of ["HTML", "CSS", "JS", "font", "images", "other"]) {
    if (sums.has(label)) console.log(`  ${label.padEnd(7)}${kb(sums.get(label) ?? 0)}`);
  }
  console.log(`  total  ${kb(total)}   (target ≤ ${budget.total} KB${budget.js ? `, JS ≤ ${budget.js} KB` : ""})`);
  for (const row of rows.toSorted((a, b) => b.bytes - a.bytes)) {
    console.log(`    ${kb(row.bytes)}  ${row.type.padEnd(10)} ${new URL(row.url).pathname}`);
  }
}

const server = given === undefined ? await startSite(args) : null;
const base = given ?? server?.base ?? "";
try {
  console.log(`${loadAverage()}; KB = 1000 bytes`);
  for (const path of paths) {
    report(`\n${path} first visit, 360 px phone (2x), unscrolled:`, await visit(base, path, false), { total: 100, js: 60 });
    report(`\n${path} first visit, 360 px phone (2x), scrolled to the end:`, await visit(base, path, true), { total: 160 });
  }
} finally {
  await server?.stop();
}
