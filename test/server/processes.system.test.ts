import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENGINE_SETTINGS } from "../../server/platform/engine-settings";
import { createLogger } from "../../server/platform/log";
import { renderPagesApart } from "../../server/roles/processes";
import type { AssetUrls } from "../../shared/page-data";
import { type RunningServer, startServer } from "../e2e/harness";
import { endServer } from "../support/end-server";
import { type LogEntry, logEntries } from "../support/logs";

// WORKERS=2: two processes share the port (decision 010). Both answer; the first one alone sends
// e-mail; stopping the first stops both, and a worker whose first process died goes too.

let server: RunningServer | undefined;
afterEach(async () => {
  // What a test left running: the stops under test are done in the tests themselves.
  await endServer(server);
  server = undefined;
});

async function until<T>(find: () => T | undefined, what: string, ms = 60_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < ms; await Bun.sleep(50)) {
    const found = find();
    if (found !== undefined) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
}

const entries = (s: RunningServer) => logEntries(s.output);
const lineOf = (s: RunningServer, msg: string, match: (e: LogEntry) => boolean = () => true) =>
  entries(s).find((e) => e.msg === msg && match(e));
/** The access-log line of an answer: which process wrote it (`worker` is on the worker's lines only). */
const answeredBy = (s: RunningServer, requestId: string) =>
  until(() => lineOf(s, "request", (e) => e.requestId === requestId), `the access line of ${requestId}`).then((e) =>
    e.worker === undefined ? "first" : `worker ${e.worker}`,
  );

// One server with WORKERS=2 for the tests that only look at it (each start is a first process, a
// worker and a page renderer: seconds of CPU), stopped by the file's last test; the tests that kill
// theirs at another moment start their own.
let shared: Promise<RunningServer> | undefined;
const sharedTwoProcesses = () =>
  // Pages made at start, the way a real site starts: a test below looks at who renders them.
  (shared ??= startServer({ env: { WORKERS: "2", PAGES_AT_START: "true" } }).then(async (started) => {
    await until(() => lineOf(started, "worker listening"), "the worker to listen");
    return started;
  }));
afterAll(async () => {
  await endServer(await shared);
});

/** One kept-alive connection: its requests all reach the same process. */
function keepAlive(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = connect(Number(port), hostname);
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  });
  const send = async (method: string, path: string, body = "") => {
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    for (;;) {
      const text = buffered.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? -1);
      if (end !== -1 && length >= 0 && buffered.length >= end + 4 + length) {
        buffered = buffered.subarray(end + 4 + length);
        return { status: Number(text.slice(9, 12)), requestId: /\r\nx-request-id: ([^\r]+)/i.exec(text.slice(0, end))?.[1] ?? "" };
      }
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  return { send, close: () => socket.destroy() };
}

test("with WORKERS=2 both processes answer on the one port, and only the first sends e-mail", async () => {
  const s = await sharedTwoProcesses();
  const seen = new Set<string>();
  let lead: { status: number; requestId: string } | undefined;
  // Each new connection goes to either process (the kernel spreads them): try until a worker took one.
  for (let i = 0; i < 40 && (lead === undefined || seen.size < 2); i++) {
    const connection = keepAlive(s.baseUrl);
    try {
      const health = await connection.send("GET", "/healthz");
      expect(health.status).toBe(200);
      const by = await answeredBy(s, health.requestId);
      seen.add(by);
      if (by === "worker 1" && lead === undefined) {
        lead = await connection.send(
          "POST",
          "/api/leads",
          JSON.stringify({ email: "two-processes@example.com", source: "exit_popup", ip_hash: null }),
        );
      }
    } finally {
      connection.close();
    }
  }
  expect([...seen].sort()).toEqual(["first", "worker 1"]);
  expect(lead?.status).toBe(201);
  expect(await answeredBy(s, lead?.requestId ?? "")).toBe("worker 1");

  // The worker queued the demo e-mail; the first process's sender sent it (here: an .eml file).
  const sent = await until(() => lineOf(s, "mail sent", (e) => e.kind === "demo"), "the demo e-mail to be sent");
  expect(sent.worker).toBeUndefined();
  expect(readdirSync(join(s.dataDir, "mail")).filter((f) => f.endsWith(".eml"))).toHaveLength(1);
  expect(entries(s).filter((e) => e.worker !== undefined && /^mail /.test(e.msg))).toEqual([]);
}, 120_000);

/** The processes (Linux) started on this data folder: the first one, its workers, its page renderer. */
function processesOn(dataDir: string): string[] {
  const mark = `DATA_DIR=${dataDir}`;
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // A process that has exited but is not reaped yet shows no environment.
        return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(mark);
      } catch {
        return false;
      }
    })
    .map((pid) => `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()}`);
}

/** Stops the first process with `signal`, deletes its data folder, and gives the others 5 s to go. */
async function killFirstAndWait(s: RunningServer, signal: NodeJS.Signals = "SIGKILL"): Promise<{ left: string[]; folderAgain: boolean }> {
  await s.stop(signal);
  server = undefined;
  let left = processesOn(s.dataDir);
  for (const started = Date.now(); left.length > 0 && Date.now() - started < 5000; await Bun.sleep(50)) left = processesOn(s.dataDir);
  return { left, folderAgain: existsSync(s.dataDir) };
}

for (const [signal, how] of [
  ["SIGKILL", "killed (SIGKILL)"],
  ["SIGTERM", "stopped (SIGTERM)"],
] as const) {
  test(`when the first process is ${how} while the pages are rendered, no process of the site is left after 5 s and its deleted data folder stays gone`, async () => {
    const s = await startServer({ env: { WORKERS: "3", PAGES_AT_START: "true" } });
    server = s;
    await until(() => (processesOn(s.dataDir).some((p) => p.includes("render-pages")) ? true : undefined), "the page renderer", 30_000);
    expect(processesOn(s.dataDir).filter((p) => p.includes("serve-worker"))).toHaveLength(2);
    expect(await killFirstAndWait(s, signal)).toEqual({ left: [], folderAgain: false });
  }, 120_000);
}

// Also: a worker whose first process was killed goes away instead of serving alone.
test("when the first process is killed (SIGKILL) while its workers serve, they go away instead of serving alone: no process of the site is left after 5 s and its deleted data folder stays gone", async () => {
  const s = await startServer({ env: { WORKERS: "3" } });
  server = s;
  await until(() => (entries(s).filter((e) => e.msg === "worker listening").length === 2 ? true : undefined), "both workers to listen");
  expect((await fetch(`${s.baseUrl}/healthz`)).status).toBe(200);
  expect(await killFirstAndWait(s)).toEqual({ left: [], folderAgain: false });
  // Each worker said why it stopped, and nothing answers on the port any more.
  await until(
    () => (entries(s).filter((e) => e.msg === "worker stopping" && e.reason === "first process gone").length === 2 ? true : undefined),
    "both workers to notice",
    10_000,
  );
  expect(
    await fetch(`${s.baseUrl}/healthz`).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");
}, 120_000);

/** Processes whose command line names this data folder (Litestream names its config file there). */
const commandsNaming = (dataDir: string) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      } catch {
        return "";
      }
    })
    .filter((cmd) => cmd.includes(dataDir));

/** A process's environment as it was started (Linux): what the runtime read its settings from. */
const environmentOf = (pid: number) =>
  new Map(
    readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );

test("the serving processes render no page: a short-lived process renders them and hands them over, and is gone", async () => {
  const s = await sharedTwoProcesses();
  const ready = await until(() => lineOf(s, "pages ready"), "the pages to be ready");
  expect(ready.rendered).toBe(0);
  expect(ready.renderedApart).toBeGreaterThanOrEqual(40);
  expect(ready.reused).toBe(ready.renderedApart);
  const worker = await until(() => lineOf(s, "worker listening"), "the worker");
  expect(worker.pages).toBe(ready.renderedApart);
  // Both processes answer with those pages: the same bytes and ETag on every connection.
  const answers = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const response = await fetch(`${s.baseUrl}/en`, { headers: { "accept-encoding": "br", connection: "close" }, decompress: false });
      return `${response.status} ${response.headers.get("etag")} ${Bun.hash(await response.arrayBuffer())}`;
    }),
  );
  expect(new Set(answers).size).toBe(1);
  expect(answers[0]).toStartWith("200 ");
  // The renderer was stopped once it had handed the pages over: only the two serving processes are left.
  const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  const [left] = await until(
    () => (childrenOf(s.process.pid).length === 1 ? childrenOf(s.process.pid) : undefined),
    "the renderer to be gone",
    10_000,
  );
  expect(readFileSync(`/proc/${left}/cmdline`, "utf8")).toContain("serve-worker");
}, 120_000);

test("the server and its workers run with the engine's settings for a small server", async () => {
  const s = await sharedTwoProcesses();
  const children = readFileSync(`/proc/${s.process.pid}/task/${s.process.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
  const worker = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("serve-worker")) ?? 0;
  expect(Object.keys(ENGINE_SETTINGS).sort()).toEqual(["BUN_JSC_forceRAMSize", "BUN_JSC_smallHeapGrowthFactor", "BUN_JSC_useFTLJIT"]);
  for (const pid of [s.process.pid, worker]) {
    const environment = environmentOf(pid);
    for (const [name, value] of Object.entries(ENGINE_SETTINGS)) expect(`${name}=${environment.get(name)}`).toBe(`${name}=${value}`);
  }
  // The same process (one pid for a service manager), started once more with the settings.
  expect(readFileSync(`/proc/${s.process.pid}/cmdline`, "utf8")).toContain("server/main.ts");
}, 120_000);

// One first process alone (WORKERS=1), with backups on and an engine setting the owner set: the
// engine test reads its environment, then the backup test kills it (one start for both).
const replica = mkdtempSync(join(tmpdir(), "site-replica-"));
let alone: Promise<RunningServer> | undefined;
const aloneWithBackups = () =>
  (alone ??= startServer({ env: { WORKERS: "1", BACKUP_URL: `file://${replica}`, BUN_JSC_forceRAMSize: "1073741824" } }));
afterAll(async () => {
  await endServer(await alone);
  rmSync(replica, { recursive: true, force: true });
});

test("an engine setting the owner set is kept, the others still given", async () => {
  const owned = await aloneWithBackups();
  const environment = environmentOf(owned.process.pid);
  expect(environment.get("BUN_JSC_forceRAMSize")).toBe("1073741824");
  expect(environment.get("BUN_JSC_useFTLJIT")).toBe("0");
}, 120_000);

test("with backups on, a first process killed (SIGKILL) takes Litestream with it: nothing replicates on, and its deleted data folder stays gone", async () => {
  const s = await aloneWithBackups();
  await until(() => entries(s).find((e) => e.msg === "backup: replicated"), "the first replication");
  expect(commandsNaming(s.dataDir).some((cmd) => cmd.includes("litestream") && cmd.includes("replicate"))).toBe(true);
  expect(await killFirstAndWait(s)).toEqual({ left: [], folderAgain: false });
  // Watched for what should not happen: Litestream's own watcher takes up to a second to notice
  // its parent is gone, and would write to the replica or bring back the folder meanwhile;
  // 2.5 s is more than twice that.
  await Bun.sleep(2500);
  expect({ left: commandsNaming(s.dataDir), folderAgain: existsSync(s.dataDir) }).toEqual({ left: [], folderAgain: false });
}, 120_000);

test("a page renderer that fails or answers nonsense gives no pages (the first process then renders them itself)", async () => {
  const warnings: string[] = [];
  const log = { ...createLogger("silent"), warn: (message: string) => void warnings.push(message) };
  const urls = { "/assets/entry.js": "/assets/entry-1.js" } as unknown as AssetUrls;
  // Exits at once, without a word.
  const quits = [process.execPath, "-e", "process.exit(3)", "--"];
  expect(await renderPagesApart({ command: quits, urls, log })).toBeNull();
  // Answers with something that is not pages.
  const babbles = [
    process.execPath,
    "-e",
    "process.once('message', () => process.send({ kind: 'pages', pages: [{ key: 1 }] })); setInterval(() => {}, 1000)",
    "--",
  ];
  expect(await renderPagesApart({ command: babbles, urls, log })).toBeNull();
  // Never answers.
  const silent = [process.execPath, "-e", "setInterval(() => {}, 1000)", "--"];
  expect(await renderPagesApart({ command: silent, urls, log, timeoutMs: 500 })).toBeNull();
  expect(warnings).toEqual(["page renderer exited without pages", "page renderer: unreadable message", "page renderer too slow, stopped"]);
}, 30_000);

// The last test of the file: it stops the server the others looked at (a start of its own would be
// a first process, a worker and a page renderer more).
test("stopping the first process (SIGTERM) stops the worker too, and the port is free again", async () => {
  const s = await sharedTwoProcesses();
  const port = Number(new URL(s.baseUrl).port);
  await s.stop("SIGTERM");
  expect(s.process.exitCode).toBe(0);
  await until(() => lineOf(s, "worker stopping"), "the worker to stop", 10_000);
  // Nothing listens any more: another server can take the port.
  const again = Bun.serve({ port, hostname: "127.0.0.1", reusePort: false, fetch: () => new Response("x") });
  await again.stop(true);
}, 120_000);
