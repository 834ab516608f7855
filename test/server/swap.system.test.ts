import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DRAIN_MS } from "../../server/platform/http/drain";
import { MIGRATE_REQ_SETTING } from "../../server/platform/http/migrate-requests";
import { startServer } from "../e2e/harness";
import { keepAliveClient } from "../support/keep-alive-client";

// A new server replaces a running one on the same port and data folder without a refused request:
// the new one listens beside the old (SO_REUSEPORT), and once ready tells it to stop; the old one
// answers with Connection: close for a moment, then lets the port go (server/platform/http/drain.ts);
// a connection queued at it then moves to the new one (server/platform/http/migrate-requests.ts).

const dataDir = mkdtempSync(join(tmpdir(), "site-swap-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A port free now: the swap needs a fixed one, both servers are started on it. */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Resolves once a log line matching `pattern` is in `output` (polled: the harness appends as lines come). */
async function logLine(output: string[], pattern: RegExp): Promise<string> {
  for (;;) {
    const line = output.find((l) => pattern.test(l));
    if (line !== undefined) return line;
    await Bun.sleep(20);
  }
}

test("a second server started on a running one's port and data folder replaces it, and no request fails meanwhile", async () => {
  const port = freePort();
  const env = { PORT: String(port), WORKERS: "2" };
  const old = await startServer({ env, dataDir });
  await logLine(old.output, /"pages ready"/);
  await logLine(old.output, /worker listening/);
  const base = `http://127.0.0.1:${port}`;
  expect(JSON.parse(readFileSync(join(dataDir, "server.json"), "utf8")).pid).toBe(old.process.pid);

  // Twenty clients, each asking one request after the other on its kept-alive connection (never
  // sending one again, as fetch would), from before the new server starts until 30 more requests
  // each after the old one exited.
  let oldGone = false;
  let asked = 0;
  // Until the new server listens, the clients only talk to the old one as any day's visitors do: at
  // a walk (a request every 20 ms each) rather than as fast as they can, which cost seconds of CPU
  // on both sides before anything was swapped. From then on, as fast as they can.
  let swapping = false;
  const client = () => {
    let after = 0;
    // Bounded: a swap that never ends fails the test by its time-out, not by looping forever.
    return keepAliveClient(
      base,
      ["/healthz", "/en"],
      () => {
        asked++;
        if (oldGone) after++;
        return after <= 30 && asked < 1_000_000;
      },
      undefined,
      () => (swapping ? 0 : 20),
    );
  };
  const clients = Array.from({ length: 20 }, client);
  // The clients are under way on the old server before the new one starts.
  while (asked < 200) await Bun.sleep(10);

  const replacement = await startServer({ env, dataDir });
  swapping = true;
  try {
    const replaced = JSON.parse(await logLine(replacement.output, /replaced the server running before/));
    expect(replaced).toMatchObject({ pid: old.process.pid });
    expect(await old.process.exited).toBe(0);
    oldGone = true;
    const results = await Promise.all(clients);
    expect(results.flatMap((r) => r.failures)).toEqual([]);
    expect(results.every((r) => r.answered > 30)).toBe(true);
    // The old server drained: connections closed after their answer, then it stopped.
    expect(old.output.some((line) => line.includes('"msg":"shutting down"'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dataDir, "server.json"), "utf8")).pid).toBe(replacement.process.pid);
    // Connections queued at the old server as it let the port go moved to the new one: the kernel
    // setting is on (the new server turned it on, being root), or its log told the owner how.
    const migrating = readFileSync(MIGRATE_REQ_SETTING, "utf8").trim() !== "0";
    expect(migrating || replacement.output.some((line) => line.includes("net.ipv4.tcp_migrate_req=1"))).toBe(true);
    // And the new one answers alone now.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  } finally {
    await replacement.process.kill("SIGTERM");
    await replacement.process.exited;
  }
}, 120_000);

test("a port held by another program is refused with a message naming it, not shared", async () => {
  const other = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const started = startServer({ env: { PORT: String(other.port), WORKERS: "1" } });
    const error = await started.then(
      () => null,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(error).toContain(`Port ${other.port} on 127.0.0.1 is in use by another program`);
    expect(error).toContain("server exited with 1");
  } finally {
    other.stop(true);
  }
}, 60_000);

/** Sends one request on `socket` and resolves with the answer's head, or rejects if the connection ends first. */
function askOn(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Closed by the server while it rested: the request is lost, as a client would see it.
    if (socket.destroyed || socket.readyState !== "open") return reject(new Error("connection closed before the request"));
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      const end = buffer.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buffer)?.[1] ?? Number.NaN);
      if (end === -1 || Number.isNaN(length) || buffer.length < end + 4 + length) return;
      cleanup();
      resolve(buffer.slice(0, end));
    };
    const onEnd = () => {
      cleanup();
      reject(new Error("connection closed before the answer"));
    };
    const cleanup = () => {
      socket.off("data", onData);
      socket.off("close", onEnd);
      socket.off("error", onEnd);
    };
    socket.on("data", onData);
    socket.on("close", onEnd);
    socket.on("error", onEnd);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n`);
  });
}

test("a stopping server answers the next request of a connection left idle since its last answer, with Connection: close", async () => {
  const server = await startServer({ env: { WORKERS: "1" } });
  const { port } = new URL(server.baseUrl);
  const socket = connect(Number(port), "127.0.0.1");
  try {
    await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const first = await askOn(socket, "/healthz");
    expect(first).toStartWith("HTTP/1.1 200");
    expect(first.toLowerCase()).not.toContain("connection: close");
    // Stopped while the connection rests after its answer, as a browser's does between two clicks.
    server.process.kill("SIGTERM");
    await logLine(server.output, /"msg":"shutting down"/);
    // The client's next request comes half a second past the drain's first second (DRAIN_MS), after
    // which a drain used to close every idle connection, racing a request sent just then (a reset).
    await Bun.sleep(DRAIN_MS + 500);
    const next = await askOn(socket, "/healthz");
    expect(next).toStartWith("HTTP/1.1 200");
    // Answered, and told to open a new connection (to the process that replaces this one).
    expect(next.toLowerCase()).toContain("connection: close");
    expect(await server.process.exited).toBe(0);
  } finally {
    socket.destroy();
  }
}, 60_000);
