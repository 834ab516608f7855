// The pages the same for every visitor, against nginx serving the very same compressed bytes
// (docs/decisions/010-static-pages-and-processes.md): wrk at 50 connections on / and /en,
// alternating the site, nginx with the site's headers and an access log, and nginx with minimal
// headers and no log, three rounds each; requests per second of each and the site's ratios, CPU
// per request of each (utime+stime of all their processes from /proc), the site's resident memory
// per process under that load, and the cold start of the executable to its first 200 (median of 5).
// Prints figures; asserts nothing.
//   ./node_modules/.bin/bun run bench/static.ts [seconds per run, default 10] [--no-build] [--ports=N] [--cold-only]
// (--cold-only: only the cold starts; START_TRACE=1 in a start's environment prints its phases, see
// server/platform/start-trace.ts)
// (--ports=N: listen on N, N+1, ... instead of ports the kernel picks)
// Needs wrk and nginx (Debian: apt-get install -y nginx-light wrk). Linux only (/proc).

import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { ENGINE_SETTINGS } from "../server/platform/engine-settings";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const seconds = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
const coldOnly = args.includes("--cold-only");
const exe = join(root, "dist", "site");
const wrk = Bun.which("wrk");
const nginx = Bun.which("nginx") ?? Bun.which("nginx", { PATH: "/usr/sbin:/usr/local/sbin" });
if (wrk === null || nginx === null) {
  console.log(`Needs ${[wrk === null ? "wrk" : "", nginx === null ? "nginx" : ""].filter(Boolean).join(" and ")}. On Debian or Ubuntu:`);
  console.log("  apt-get install -y nginx-light wrk");
  process.exit(1);
}

// The pages are rendered at build time with this address: the executable runs with the same one,
// so it serves the pages it carries (as a site built with its production settings does).
const BASE_URL = "http://localhost:3000";
if (!args.includes("--no-build"))
  await $`${process.execPath} run ${join(root, "scripts/build.ts")}`.env({ ...process.env, PUBLIC_BASE_URL: BASE_URL }).quiet();

const CLK_TCK = Number((await $`getconf CLK_TCK`.text()).trim()) || 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown CPU";
console.log(`${cpuModel}, ${availableParallelism()} cores; load average at start: ${load()}`);

let nextPort = Number(args.find((a) => a.startsWith("--ports="))?.slice(8) ?? 0);
/** A free loopback port: the next of --ports, or one the kernel picks. */
function freePort(): number {
  if (nextPort > 0) return nextPort++;
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** A process and its descendants (nginx's workers, the site's worker processes). */
function family(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return [pid, ...children.flatMap(family)];
}
const cpuTicks = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return sum + Number(fields[11]) + Number(fields[12]);
  }, 0);
/**
 * A process's resident memory, its share of it (the pages it shares with the other processes of the
 * executable counted in part, as the kernel's proportional set size does) and the part that is its
 * own (private pages: its heap, its data; not the runtime's code, which the kernel keeps once for
 * every process of the executable).
 */
function memoryMb(pid: number): Memory {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0);
  return { rss: kb("Rss") / 1024, share: kb("Pss") / 1024, own: (kb("Private_Clean") + kb("Private_Dirty")) / 1024 };
}
type Memory = { rss: number; share: number; own: number };
const higher = (a: Memory | undefined, b: Memory): Memory => ({
  rss: Math.max(a?.rss ?? 0, b.rss),
  share: Math.max(a?.share ?? 0, b.share),
  own: Math.max(a?.own ?? 0, b.own),
});

type Run = { rps: number; requests: number; cpuUsPerRequest: number; non2xx: number; maxMemory: Map<number, Memory> };

async function runWrk(url: string, pids: number[]): Promise<Run> {
  const maxMemory = new Map<number, Memory>();
  const before = cpuTicks(pids);
  const sampler = setInterval(() => {
    for (const pid of pids) maxMemory.set(pid, higher(maxMemory.get(pid), memoryMb(pid)));
  }, 250);
  const out = await $`${wrk} -t2 -c50 -d${seconds}s -H ${"Accept-Encoding: br, gzip"} ${url}`.text();
  clearInterval(sampler);
  const ticks = cpuTicks(pids) - before;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    requests,
    non2xx,
    cpuUsPerRequest: (ticks * 1e6) / CLK_TCK / Math.max(1, requests),
    maxMemory,
  };
}

async function waitFor(url: string, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(url, { headers }).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      return;
    await Bun.sleep(50);
  }
  throw new Error(`${url} never answered 200`);
}

const work = mkdtempSync(join(tmpdir(), "bench-static-"));
const started: { kill(signal?: number | NodeJS.Signals): void; exited: Promise<number> }[] = [];
try {
  // The site, as the owner runs it: the executable, every core (WORKERS default), access log on.
  const dataDir = join(work, "data");
  mkdirSync(dataDir);
  const sitePort = freePort();
  const siteLog = join(work, "site.log");
  const site = Bun.spawn([exe], {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(sitePort),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: BASE_URL,
      LOG_LEVEL: "info",
    },
    stdout: Bun.file(siteLog),
    stderr: "inherit",
  });
  started.push(site);
  const siteUrl = `http://127.0.0.1:${sitePort}`;
  await waitFor(`${siteUrl}/`);
  for (let i = 0; i < 600 && !readFileSync(siteLog, "utf8").includes("worker listening") && availableParallelism() > 1; i++)
    await Bun.sleep(50);
  const ready = readFileSync(siteLog, "utf8")
    .split("\n")
    .find((l) => l.includes('"pages ready"'));
  console.log(
    `site: ${exe}, pid ${site.pid} and its workers; ${ready === undefined ? "pages not ready" : ready.replace(/^.*"rendered"/, '"rendered"').replace(/,"msg".*$/, "")}`,
  );

  if (!coldOnly) {
    // nginx with its own config, serving the bytes the site sends for / and /en (brotli), one worker
    // per core, twice: with the site's headers and an access log (the same work as the site), and
    // with only the headers nginx sends by itself and no log (the limit of serving these bytes).
    const htmlDir = join(work, "html");
    mkdirSync(htmlDir, { recursive: true });
    const headerLines: string[] = [];
    for (const [path, file] of [
      ["/", "fr.html.br"],
      ["/en", "en.html.br"],
    ] as const) {
      const response = await fetch(`${siteUrl}${path}`, { headers: { "accept-encoding": "br" }, decompress: false });
      writeFileSync(join(htmlDir, file), new Uint8Array(await response.arrayBuffer()));
      if (headerLines.length === 0) {
        for (const [name, value] of response.headers) {
          if (["content-type", "content-length", "date", "etag", "x-request-id", "connection", "keep-alive"].includes(name)) continue;
          headerLines.push(`add_header ${name} "${value.replace(/"/g, '\\"')}" always;`);
        }
      }
    }
    chmodSync(work, 0o755);
    const startNginx = async (name: string, options: { siteHeaders: boolean; accessLog: boolean }) => {
      const nginxDir = join(work, name);
      mkdirSync(nginxDir, { recursive: true });
      const port = freePort();
      const headers = options.siteHeaders ? headerLines.join(" ") : 'add_header content-encoding "br";';
      const location = (path: string, file: string) =>
        `location = ${path} { default_type "text/html; charset=utf-8"; ${headers} try_files /${file} =404; }`;
      writeFileSync(
        join(nginxDir, "nginx.conf"),
        [
          "user root;",
          `worker_processes ${availableParallelism()};`,
          `pid ${join(nginxDir, "nginx.pid")};`,
          `error_log ${join(nginxDir, "error.log")};`,
          "events { worker_connections 1024; }",
          "http {",
          // Buffered, as the site writes its log in batches.
          options.accessLog ? `  access_log ${join(nginxDir, "access.log")} combined buffer=64k flush=1s;` : "  access_log off;",
          options.siteHeaders ? "" : "  server_tokens off; etag off;",
          "  sendfile on; tcp_nopush on; keepalive_requests 100000;",
          ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${join(nginxDir, `${t}-temp`)};`),
          `  server { listen 127.0.0.1:${port} reuseport; root ${htmlDir};`,
          `    ${location("/", "fr.html.br")}`,
          `    ${location("/en", "en.html.br")}`,
          "  }",
          "}",
          "",
        ].join("\n"),
      );
      const server = Bun.spawn([nginx, "-p", nginxDir, "-c", join(nginxDir, "nginx.conf"), "-g", "daemon off;"], {
        stdout: "inherit",
        stderr: "inherit",
      });
      started.push(server);
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/`);
      return { url, pid: server.pid };
    };
    const nginxSame = await startNginx("nginx", { siteHeaders: true, accessLog: true });
    const nginxBare = await startNginx("nginx-bare", { siteHeaders: false, accessLog: false });
    const same = async (path: string, base: string) => {
      const get = (from: string) =>
        fetch(`${from}${path}`, { headers: { "accept-encoding": "br" }, decompress: false }).then((r) => r.arrayBuffer());
      return Buffer.from(await get(siteUrl)).equals(Buffer.from(await get(base)));
    };
    console.log(
      `nginx: ${nginx}, ${availableParallelism()} workers; same bytes as the site: / ${await same("/", nginxSame.url)}, /en ${await same("/en", nginxSame.url)}`,
    );

    // Warm both, then alternate.
    for (const base of [siteUrl, nginxSame.url, nginxBare.url])
      await $`${wrk} -t2 -c50 -d2s -H ${"Accept-Encoding: br, gzip"} ${base}/`.quiet();
    const results = new Map<string, Run[]>();
    const memory = new Map<number, Memory>();
    for (let round = 1; round <= 3; round++) {
      for (const path of ["/", "/en"]) {
        for (const [name, base, pid] of [
          ["site", siteUrl, site.pid],
          ["nginx", nginxSame.url, nginxSame.pid],
          ["bare", nginxBare.url, nginxBare.pid],
        ] as const) {
          const run = await runWrk(`${base}${path}`, family(pid));
          if (run.non2xx > 0) console.log(`  ${name} ${path}: ${run.non2xx} answers were not 2xx`);
          const key = `${name} ${path}`;
          results.set(key, [...(results.get(key) ?? []), run]);
          if (name === "site") for (const [p, mb] of run.maxMemory) memory.set(p, higher(memory.get(p), mb));
          console.log(
            `  round ${round} ${key.padEnd(10)} ${run.rps.toFixed(0).padStart(7)} req/s  ${run.cpuUsPerRequest.toFixed(1).padStart(6)} us CPU/request  (load ${load()})`,
          );
        }
      }
    }
    console.log(`\nwrk -t2 -c50, ${seconds} s per run, 3 rounds alternating (median of the rounds):`);
    for (const path of ["/", "/en"]) {
      const s = results.get(`site ${path}`) ?? [];
      const n = results.get(`nginx ${path}`) ?? [];
      const b = results.get(`bare ${path}`) ?? [];
      const siteRps = median(s.map((r) => r.rps));
      const nginxRps = median(n.map((r) => r.rps));
      const bareRps = median(b.map((r) => r.rps));
      console.log(
        `  GET ${path.padEnd(3)} site ${siteRps.toFixed(0)} req/s; nginx with the same headers and an access log ${nginxRps.toFixed(0)} req/s: ${(siteRps / nginxRps).toFixed(2)} x (target >= 0.9); ` +
          `nginx with minimal headers and no access log ${bareRps.toFixed(0)} req/s: ${(siteRps / bareRps).toFixed(2)} x`,
      );
      console.log(
        `          CPU per request: site ${median(s.map((r) => r.cpuUsPerRequest)).toFixed(1)} us (target <= 30), nginx ${median(n.map((r) => r.cpuUsPerRequest)).toFixed(1)} us, minimal nginx ${median(b.map((r) => r.cpuUsPerRequest)).toFixed(1)} us`,
      );
    }
    console.log(
      `  site resident memory under this load, per process (target <= 100 MB): ${[...memory].map(([pid, mb]) => `pid ${pid} ${mb.rss.toFixed(0)} MB, its share ${mb.share.toFixed(0)} MB, of which its own ${mb.own.toFixed(0)} MB`).join("; ")} (the rest: the runtime's code, in memory once for all the processes; the share counts it in part)`,
    );
  }
  for (const p of started.splice(0).reverse()) {
    p.kill("SIGTERM");
    await p.exited;
  }

  // Cold start: from spawning the executable to the first 200 of / (brotli), median of 5.
  // `asService`: with the environment of the unit `site service` prints, which carries the engine's
  // settings; started by hand, the executable starts a second time to give itself them.
  const coldStart = async (data: string, asService = false) => {
    const port = freePort();
    const t0 = performance.now();
    const p = Bun.spawn([exe], {
      cwd: work,
      env: {
        ...(asService ? ENGINE_SETTINGS : {}),
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: data,
        PUBLIC_BASE_URL: BASE_URL,
        LOG_LEVEL: "warn",
      },
      stdout: "ignore",
      stderr: "inherit",
    });
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/`, { headers: { "accept-encoding": "br" } }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (p.exitCode !== null) throw new Error(`the executable exited with ${p.exitCode}`);
      await Bun.sleep(2);
    }
    const ms = performance.now() - t0;
    p.kill("SIGTERM");
    await p.exited;
    return ms;
  };
  const restarts: number[] = [];
  const firstStarts: number[] = [];
  const serviceRestarts: number[] = [];
  const serviceFirstStarts: number[] = [];
  for (let i = 0; i < 5; i++) {
    restarts.push(await coldStart(dataDir));
    serviceRestarts.push(await coldStart(dataDir, true));
    for (const [list, asService] of [
      [firstStarts, false],
      [serviceFirstStarts, true],
    ] as const) {
      const fresh = join(work, `fresh-${i}-${asService ? "service" : "hand"}`);
      mkdirSync(fresh);
      list.push(await coldStart(fresh, asService));
    }
  }
  const fmtAll = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms (${[...xs]
      .sort((a, b) => a - b)
      .map((x) => x.toFixed(0))
      .join(", ")})`;
  console.log(`\nCold start of the executable to the first 200 of / (target <= 300 ms):`);
  console.log(`  existing data folder (a restart): ${fmtAll(restarts)}`);
  console.log(`  empty data folder (first start, creates the database): ${fmtAll(firstStarts)}`);
  console.log(`  as the service starts it (the unit's environment: the engine's settings, one start not two):`);
  console.log(`    a restart: ${fmtAll(serviceRestarts)}`);
  console.log(`    a first start: ${fmtAll(serviceFirstStarts)}`);
  console.log(`load average at end: ${load()}`);
} finally {
  for (const p of started.reverse()) {
    p.kill("SIGTERM");
    await p.exited;
  }
  rmSync(work, { recursive: true, force: true });
}
