// Where the main thread goes during a phone's first load of `/` and `/en`: a Chromium trace
// (DevTools timeline categories) of a 360 x 740 phone at 1.75x with the CPU slowed 4x, as
// Lighthouse's mobile run slows it, and an empty cache. For each page and run it prints the main
// thread's busy time by kind of work (self time, so nested work is counted once), the long tasks
// (over 50 ms) with what filled each, and the blocking time they add up to (each long task's time
// past 50 ms, before the load event ends). Figures only; run it on a quiet machine and print `uptime`.
//   ./node_modules/.bin/bun run bench/main-thread.ts [--build] [--port=N] [--url=http://host:port] [--runs=3] [--by-name] [path...]
//   --by-name: busy time by trace event name instead of by kind of work.
import { openPhone } from "./phone";
import { loadAverage, startSite } from "./site";

const args = process.argv.slice(2);
const given = args.find((a) => a.startsWith("--url="))?.slice(6);
const runs = Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const byName = args.includes("--by-name");
const paths = args.filter((a) => a.startsWith("/"));
if (paths.length === 0) paths.push("/", "/en");

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, unknown> };

/** Kinds of work, from the trace's event names (DevTools' and Blink's own). */
const KINDS: [string, RegExp][] = [
  [
    "script",
    /^(FunctionCall|EvaluateScript|EventDispatch|TimerFire|FireAnimationFrame|RunMicrotasks|v8\.|V8\.|BlinkScheduler_PerformMicrotaskCheckpoint)/,
  ],
  ["garbage collection", /GC/],
  ["text shaping and fonts", /Shape|Font/],
  ["layout", /Layout|layout/],
  ["style", /Style|style|RuleSet|CSSParser|ParseAuthorStyleSheet/],
  ["paint and composite", /Paint|Commit|Composit|Lifecycle|Layer|CullRect|PrePaint|Raster/],
  ["parse HTML", /ParseHTML|HTMLDocumentParser|Tokenizer|PreloadScanner|TextResourceDecoder/],
  ["images", /Image|SVG/],
  ["loading and navigation", /mojo|Resource|Loader|URLLoader|Navigation|Document::|Frame|Watcher|Timing/],
];

function kindOf(name: string): string {
  return KINDS.find(([, pattern]) => pattern.test(name))?.[0] ?? "other";
}

function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const named = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  // The page's renderer is the one whose main thread ran the most tasks.
  const counts = named.map((t) => ({ t, n: events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === "RunTask").length }));
  counts.sort((a, b) => b.n - a.n);
  const best = counts[0]?.t;
  if (best === undefined) throw new Error("no renderer main thread in the trace");
  return { pid: best.pid, tid: best.tid };
}

/** Self time per event name: an event's duration less its children's, on one thread. */
function selfTimes(events: TraceEvent[]): Map<TraceEvent, number> {
  const sorted = events.filter((e) => e.ph === "X" && e.dur !== undefined).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<TraceEvent, number>();
  const stack: TraceEvent[] = [];
  for (const event of sorted) {
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (event.ts >= top.ts + (top.dur ?? 0)) stack.pop();
      else break;
    }
    const parent = stack[stack.length - 1];
    if (parent !== undefined) self.set(parent, (self.get(parent) ?? 0) - (event.dur ?? 0));
    self.set(event, (self.get(event) ?? 0) + (event.dur ?? 0));
    stack.push(event);
  }
  return self;
}

async function traceOnce(url: string) {
  // Lighthouse's mobile run: a 1.75x screen.
  const { browser, page, cdp } = await openPhone({ scale: 1.75 });
  try {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const events: TraceEvent[] = [];
    cdp.on("Tracing.dataCollected", (data) => events.push(...(data.value as unknown as TraceEvent[])));
    const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
    await cdp.send("Tracing.start", {
      transferMode: "ReportEvents",
      traceConfig: {
        includedCategories: [
          "devtools.timeline",
          "disabled-by-default-devtools.timeline",
          "blink.user_timing",
          "loading",
          "v8.execute",
          "blink",
          "toplevel",
          "__metadata",
        ],
      },
    });
    await page.goto(url, { waitUntil: "load" });
    const loadEnd = await page.evaluate(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd);
    await page.waitForTimeout(1500);
    await cdp.send("Tracing.end");
    await done;
    const { pid, tid } = mainThread(events);
    const thread = events.filter((e) => e.pid === pid && e.tid === tid);
    const navigation = thread.find((e) => e.name === "navigationStart" || e.name === "ResourceSendRequest")?.ts ?? thread[0]?.ts ?? 0;
    const self = selfTimes(thread);
    const byKind = new Map<string, number>();
    for (const [event, time] of self) {
      if (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask") continue;
      const kind = byName ? event.name : kindOf(event.name);
      byKind.set(kind, (byKind.get(kind) ?? 0) + time / 1000);
    }
    const tasks = thread.filter((e) => e.ph === "X" && e.name === "RunTask" && (e.dur ?? 0) > 50_000);
    const loadEndTs = navigation + loadEnd * 1000;
    let blocking = 0;
    const long = tasks.map((task) => {
      const inside = [...self].filter(([e]) => e.ts >= task.ts && e.ts < task.ts + (task.dur ?? 0) && e !== task);
      const kinds = new Map<string, number>();
      for (const [e, time] of inside) {
        if (e.name === "RunTask") continue;
        const label =
          e.name === "FunctionCall" || e.name === "EvaluateScript"
            ? `script ${String((e.args?.data as { url?: string })?.url ?? "")
                .split("/")
                .pop()}`
            : kindOf(e.name);
        kinds.set(label, (kinds.get(label) ?? 0) + time / 1000);
      }
      if (task.ts < loadEndTs + 5_000_000) blocking += Math.max(0, (task.dur ?? 0) / 1000 - 50);
      return {
        at: (task.ts - navigation) / 1000,
        ms: (task.dur ?? 0) / 1000,
        top: [...kinds]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .filter(([, v]) => v >= 1),
      };
    });
    return { byKind, long, blocking, loadEnd };
  } finally {
    await browser.close();
  }
}

const server = given === undefined ? await startSite(args) : null;
const base = given ?? server?.base ?? "";
try {
  console.log(`Main thread of a phone's first load, CPU slowed 4x; ${loadAverage()}`);
  for (const path of paths) {
    for (let i = 1; i <= runs; i++) {
      const { byKind, long, blocking, loadEnd } = await traceOnce(base + path);
      const total = [...byKind.values()].reduce((a, b) => a + b, 0);
      const parts = [...byKind]
        .sort((a, b) => b[1] - a[1])
        .filter(([, v]) => v >= 1)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`);
      console.log(`${path.padEnd(4)} run ${i}: busy ${total.toFixed(0)} ms (${parts.join(", ")}); load ${loadEnd.toFixed(0)} ms`);
      console.log(`          long tasks: ${long.length}, blocking ${blocking.toFixed(0)} ms`);
      for (const task of long)
        console.log(
          `          at ${task.at.toFixed(0)} ms, ${task.ms.toFixed(0)} ms: ${task.top.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")}`,
        );
    }
  }
} finally {
  await server?.stop();
}
