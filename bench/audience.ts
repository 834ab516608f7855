// Audience counting under load, two figures:
//   1. beacons ingested per second by a running server at 50 concurrent clients, and the p99
//      latency (targets: ≥ 5,000/s, p99 < 20 ms); each request comes from another address through
//      the trusted proxy header, so the per-client limit does not cut the bench off;
//   2. the console's audience report over 30 days of 3 million events (target < 200 ms), the daily
//      totals rolled up first as the server does every minute.
//   ./node_modules/.bin/bun run bench/audience.ts [--seconds=10] [--events=3000000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../db/client";
import { createWriter } from "../db/writer";
import { audienceReport } from "../server/owner/console/audience";
import { DEFAULT_ANALYTICS_MAX_EVENTS_PER_DAY } from "../server/platform/env";
import { daysEnding, utcDay } from "../server/shop/analytics/day";
import { rollUpDue } from "../server/shop/analytics/rollup";
import { loadAverage } from "./site";

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const SECONDS = arg("seconds", 10);
const EVENTS = arg("events", 3_000_000);
const CLIENTS = 50;
const UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

async function beacons(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-audience-"));
  const port = 4300 + Math.floor(Math.random() * 90);
  const server = Bun.spawn([process.execPath, "run", join(import.meta.dir, "..", "server", "main.ts")], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, TRUST_PROXY: "true", LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 200; i++) {
      if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
      await Bun.sleep(100);
    }
    const body = JSON.stringify({ kind: "pageview", path: "/en", device: "mobile", referrer: "news.example.org" });
    const latencies: number[] = [];
    let failed = 0;
    let n = 0;
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < end) {
          const i = n++;
          const started = performance.now();
          const response = await fetch(`${base}/api/beacon`, {
            method: "POST",
            headers: {
              "content-type": "text/plain",
              "user-agent": UA,
              "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
            },
            body,
          });
          latencies.push(performance.now() - started);
          if (response.status !== 204) failed++;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(1);
    console.log(
      `beacons: ${Math.round(latencies.length / SECONDS)}/s at ${CLIENTS} clients, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, not 204: ${failed}`,
    );
    await Bun.sleep(1500);
    const db = openDb(join(dataDir, "site.db"));
    console.log(`  rows written: ${db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM analytics_events").get()?.n}`);
    db.$client.close();
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function report(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-audience-report-"));
  try {
    const db = openDb(join(dataDir, "site.db"), { synchronous: "NORMAL" });
    const write = createWriter(db, { waitMs: 5000 });
    const now = new Date();
    const days = daysEnding(utcDay(now), 30);
    const perDay = Math.ceil(EVENTS / days.length);
    const pages = ["landing", "payment", "guide", "privacy"];
    const sources = ["direct", "google.com", "news.example.org", "newsletter", "reddit.com"];
    const insert = db.$client.prepare(
      "INSERT INTO analytics_events (day, at, visitor, kind, page, locale, source, campaign, medium, device, metric, value) VALUES (?, ?, ?, ?, ?, 'fr', ?, ?, NULL, ?, ?, ?)",
    );
    let started = performance.now();
    for (const day of days) {
      const t0 = Date.parse(`${day}T00:00:00Z`);
      db.$client.transaction(() => {
        for (let i = 0; i < perDay; i++) {
          const visitor = `v${day}-${i % (perDay / 4)}`;
          const vital = i % 10 === 9;
          insert.run(
            day,
            t0 + i * 800,
            visitor,
            vital ? "vital" : "pageview",
            pages[i % pages.length] ?? "landing",
            sources[i % sources.length] ?? "direct",
            i % 7 === 0 ? "spring" : null,
            i % 3 === 0 ? "desktop" : "mobile",
            vital ? "LCP" : null,
            vital ? 800 + (i % 3000) : null,
          );
        }
      })();
    }
    console.log(`report: ${perDay * days.length} events made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    await rollUpDue(db, write, now);
    console.log(`  first roll-up of 30 days: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    await rollUpDue(db, write, now);
    console.log(`  roll-up of today and yesterday (every minute): ${(performance.now() - started).toFixed(0)} ms`);
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      audienceReport(db, now, "EUR", DEFAULT_ANALYTICS_MAX_EVENTS_PER_DAY, false);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`  audience report over 30 days: median ${times[5]?.toFixed(1)} ms, worst ${times[9]?.toFixed(1)} ms`);
    db.$client.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(loadAverage());
await beacons();
await report();
console.log(loadAverage());
