// Lighthouse (npm `lighthouse` 12, Node) with Debian's Chromium, mobile form factor and its default
// simulated throttling, on `/` and `/en`, twice each in a row. Prints the four category scores, TBT,
// LCP and CLS (targets: 100/100/100/100, TBT ≤ 50 ms, LCP ≤ 1.5 s, CLS 0). Figures only.
//   ./node_modules/.bin/bun run bench/lighthouse.ts [--build] [--port=N] [--url=http://host:port] [--runs=2] [path...]
// Lighthouse brings about 190 packages: it is not one of the site's dependencies but this bench's
// own package (bench/lighthouse/package.json and its lock), installed by the first run. Lighthouse
// 12 runs on Node 20; 13 needs Node 22.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadAverage, startSite } from "./site";

const BENCH_PACKAGE = join(import.meta.dir, "lighthouse");
const LIGHTHOUSE = join(BENCH_PACKAGE, "node_modules", "lighthouse", "cli", "index.js");
if (!existsSync(LIGHTHOUSE)) {
  console.log(`Installing Lighthouse into ${BENCH_PACKAGE} (first run only)...`);
  const locked = existsSync(join(BENCH_PACKAGE, "package-lock.json"));
  const install = Bun.spawnSync(["npm", locked ? "ci" : "install", "--prefix", BENCH_PACKAGE, "--no-audit", "--no-fund"], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (!install.success) {
    console.error(`npm could not install Lighthouse (exit ${install.exitCode}); the bench needs Node and npm on PATH.`);
    process.exit(1);
  }
}

const args = process.argv.slice(2);
const given = args.find((a) => a.startsWith("--url="))?.slice(6);
const runs = Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 2);
const paths = args.filter((a) => a.startsWith("/"));
if (paths.length === 0) paths.push("/", "/en");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

type Report = {
  categories: Record<(typeof CATEGORIES)[number], { score: number | null }>;
  audits: Record<string, { numericValue?: number; score: number | null; title: string }>;
};

async function lighthouse(url: string): Promise<Report> {
  const run = Bun.spawn(
    [
      "node",
      LIGHTHOUSE,
      url,
      "--quiet",
      "--output=json",
      "--output-path=stdout",
      `--only-categories=${CATEGORIES.join(",")}`,
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
    ],
    {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", CHROME_PATH: "/usr/bin/chromium" },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  if (code !== 0) throw new Error(`lighthouse exited with ${code}:\n${err.slice(-2000)}`);
  return JSON.parse(out);
}

const score = (report: Report, category: (typeof CATEGORIES)[number]) => Math.round((report.categories[category].score ?? 0) * 100);
const value = (report: Report, audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;

const server = given === undefined ? await startSite(args) : null;
const base = given ?? server?.base ?? "";
try {
  console.log(`Lighthouse 12, mobile, simulated throttling; ${loadAverage()}`);
  console.log("path   run  perf  a11y  best   seo    TBT ms   LCP s    FCP s    CLS");
  for (const path of paths) {
    for (let i = 1; i <= runs; i++) {
      // Lighthouse now and then fails to record its trace (NO_NAVSTART): that run is made again once.
      const report = await lighthouse(base + path).catch((error: unknown) => {
        console.log(`         run again: ${String(error instanceof Error ? error.message : error).split("\n")[1] ?? "lighthouse failed"}`);
        return lighthouse(base + path);
      });
      const [perf, a11y, best, seo] = CATEGORIES.map((c) => String(score(report, c)).padStart(4));
      const tbt = value(report, "total-blocking-time").toFixed(0).padStart(6);
      const lcp = (value(report, "largest-contentful-paint") / 1000).toFixed(2).padStart(6);
      const fcp = (value(report, "first-contentful-paint") / 1000).toFixed(2).padStart(6);
      const cls = value(report, "cumulative-layout-shift").toFixed(3).padStart(7);
      console.log(`${path.padEnd(6)} ${String(i).padStart(3)}  ${perf}  ${a11y}  ${best}  ${seo}    ${tbt}   ${lcp}   ${fcp}  ${cls}`);
      // What kept a category below 100, so a run that misses says why.
      const failing = Object.values(report.audits).filter(
        (a) => a.score !== null && a.score < 0.9 && !/^(metrics|screenshot)/.test(a.title),
      );
      for (const audit of failing.slice(0, 6)) console.log(`         below 90: ${audit.title} (${Math.round((audit.score ?? 0) * 100)})`);
    }
  }
} finally {
  await server?.stop();
}
