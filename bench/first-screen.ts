// The landing page's first screen in real Chromium, on a phone and on a computer: what it downloads
// before the load event (bytes on the wire, which images), when its largest element paints (LCP)
// and how much it moves (CLS), on a throttled network, median of a few loads with an empty cache.
// Run: ./node_modules/.bin/bun run bench/first-screen.ts [runs] [port]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startBenchServer } from "./load";

const root = join(import.meta.dir, "..");
const runs = Number(process.argv[2] ?? 5);
const port = process.argv[3] === undefined ? undefined : Number(process.argv[3]);

/** Lighthouse's mobile network (slow 4G) and a plain broadband line; the CPU is not slowed. */
const DEVICES = [
  {
    name: "phone 360x740 @2x",
    viewport: { width: 360, height: 740 },
    scale: 2,
    network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
    label: "1.6 Mbit/s, 150 ms RTT",
  },
  {
    name: "computer 1280x800 @1x",
    viewport: { width: 1280, height: 800 },
    scale: 1,
    network: { latency: 40, downloadThroughput: (10 * 1024 * 1024) / 8, uploadThroughput: (5 * 1024 * 1024) / 8 },
    label: "10 Mbit/s, 40 ms RTT",
  },
] as const;

type Load = { bytes: number; images: string[]; lcp: number; lcpElement: string; cls: number };

const dataDir = mkdtempSync(join(tmpdir(), "bench-first-screen-"));
const server = await startBenchServer(
  [process.execPath, "run", join(root, "server/main.ts")],
  { DATA_DIR: dataDir, PORT: String(port) },
  root,
);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

async function loadOnce(device: (typeof DEVICES)[number], path: string): Promise<Load> {
  const context = await browser.newContext({ viewport: device.viewport, deviceScaleFactor: device.scale });
  await context.addInitScript(() => {
    const seen = { lcp: 0, lcpElement: "", cls: 0 };
    Reflect.set(window, "__firstScreen", seen);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        seen.lcp = entry.startTime;
        const element: unknown = Reflect.get(entry, "element");
        seen.lcpElement =
          element instanceof Element
            ? `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(" ")[0]}` : ""} in ${element.parentElement?.className || element.parentElement?.tagName.toLowerCase()}`
            : "?";
      }
    }).observe({ type: "largest-contentful-paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!Reflect.get(entry, "hadRecentInput")) seen.cls += Number(Reflect.get(entry, "value"));
    }).observe({ type: "layout-shift", buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...device.network });
  const urls = new Map<string, string>();
  let bytes = 0;
  let counting = true;
  cdp.on("Network.responseReceived", (event) => urls.set(event.requestId, event.response.url));
  cdp.on("Network.loadingFinished", (event) => {
    if (counting) bytes += event.encodedDataLength;
  });
  const images: string[] = [];
  page.on("request", (request) => {
    if (counting && request.resourceType() === "image")
      images.push(
        request
          .url()
          .replace(server.base, "")
          .replace(/^data:.*/, "data: (inline)"),
      );
  });
  await page.goto(server.base + path, { waitUntil: "load" });
  counting = false;
  // LCP is final at the first input or when the page is hidden; a second after load is enough here.
  await page.waitForTimeout(1_000);
  const seen: { lcp: number; lcpElement: string; cls: number } = await page.evaluate(() => Reflect.get(window, "__firstScreen"));
  await context.close();
  return { bytes, images, ...seen };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

try {
  for (const device of DEVICES) {
    for (const path of ["/", "/es"]) {
      const loads: Load[] = [];
      for (let i = 0; i < runs; i++) loads.push(await loadOnce(device, path));
      const last = loads.at(-1)!;
      console.log(`${device.name} ${path} (${device.label}; median of ${runs}, empty cache):`);
      console.log(`  downloaded before load  ${(median(loads.map((l) => l.bytes)) / 1024).toFixed(1).padStart(7)} KiB`);
      console.log(`  images requested        ${last.images.length === 0 ? "none" : last.images.join(", ")}`);
      console.log(
        `  LCP                     ${median(loads.map((l) => l.lcp))
          .toFixed(0)
          .padStart(7)} ms  (${last.lcpElement})`,
      );
      console.log(
        `  CLS                     ${median(loads.map((l) => l.cls))
          .toFixed(3)
          .padStart(7)}`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
