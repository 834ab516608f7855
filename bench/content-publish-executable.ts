// Time from a publish of the owner's content to its new bytes on every server process: the
// executable with WORKERS=2 (two processes on one port), 20 publishes, each a new hero title in
// English written to the database as the console or `site content import` writes it; after each,
// one kept-alive connection per process asks for /en until it carries the new title.
// Run: ./node_modules/.bin/bun run bench/content-publish-executable.ts [publishes]

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $ } from "bun";
import { openDb } from "../db/client";
import { createWriter } from "../db/writer";
import { publish, readPublished } from "../server/site/content/store";

const root = join(import.meta.dir, "..");
const publishes = Number(process.argv[2] ?? 20);
const exe = join(root, "dist", "site");
if (!existsSync(exe)) await $`${process.execPath} run ${join(root, "scripts/build.ts")}`.quiet();

const dataDir = mkdtempSync(join(tmpdir(), "bench-content-"));
const port = 3900 + Math.floor(Math.random() * 99);
const lines: string[] = [];
const server = Bun.spawn([exe], {
  cwd: dataDir,
  env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", WORKERS: "2", DATA_DIR: dataDir },
  stdout: "pipe",
  stderr: "inherit",
});
void (async () => {
  const decoder = new TextDecoder();
  let rest = "";
  const reader = server.stdout.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = parts.pop() ?? "";
    lines.push(...parts);
  }
})();

const until = async <T>(find: () => T | undefined, what: string, ms = 120_000): Promise<T> => {
  for (const start = Date.now(); Date.now() - start < ms; await Bun.sleep(20)) {
    const found = find();
    if (found !== undefined) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
};
const logged = () => lines.flatMap((line) => (line.startsWith("{") ? [JSON.parse(line) as Record<string, unknown>] : []));

/** One kept-alive connection: all its requests reach the same process. */
function keepAlive() {
  const socket: Socket = connect(port, "127.0.0.1");
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  });
  const get = async (path: string) => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    for (;;) {
      const end = buffered.indexOf("\r\n\r\n");
      const head = end === -1 ? "" : buffered.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? -1);
      if (end !== -1 && length >= 0 && buffered.length >= end + 4 + length) {
        const body = buffered.subarray(end + 4, end + 4 + length).toString("utf8");
        buffered = buffered.subarray(end + 4 + length);
        return { requestId: /\r\nx-request-id: ([^\r]+)/i.exec(head)?.[1] ?? "", body };
      }
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  return { get, close: () => socket.destroy() };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

try {
  await until(() => (logged().some((e) => e.msg === "worker listening") ? true : undefined), "the worker to listen");
  await until(() => (logged().some((e) => typeof e.msg === "string" && e.msg.startsWith("listening on")) ? true : undefined), "the server");

  // A connection on each process: new connections go to either (the kernel spreads them).
  const byProcess = new Map<string, ReturnType<typeof keepAlive>>();
  for (let i = 0; i < 60 && byProcess.size < 2; i++) {
    const connection = keepAlive();
    const { requestId } = await connection.get("/healthz");
    const line = await until(() => logged().find((e) => e.msg === "request" && e.requestId === requestId), "the access line");
    const process = line.worker === undefined ? "first" : `worker ${String(line.worker)}`;
    if (byProcess.has(process)) connection.close();
    else byProcess.set(process, connection);
  }
  if (byProcess.size < 2) throw new Error("could not reach both processes");

  const db = openDb(join(dataDir, "site.db"));
  const write = createWriter(db, { waitMs: 5_000 });
  const times: number[] = [];
  const perProcess = new Map<string, number[]>([...byProcess.keys()].map((k) => [k, []]));
  for (let i = 0; i < publishes; i++) {
    const title = `Bench publish ${i} ${Date.now()}`;
    const opened = readPublished(db);
    const document = structuredClone(opened.document);
    document.texts.heroTitle = { en: title };
    await publish(write, { document, openedVersion: opened.version, by: "bench", now: new Date() });
    const published = performance.now();
    const seen = await Promise.all(
      [...byProcess].map(async ([process, connection]) => {
        for (;;) {
          const { body } = await connection.get("/en");
          if (body.includes(title)) {
            const ms = performance.now() - published;
            perProcess.get(process)?.push(ms);
            return ms;
          }
        }
      }),
    );
    times.push(Math.max(...seen));
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`Publish → new bytes of /en on every process (WORKERS=2), ${publishes} publishes:`);
  console.log(
    `  p50 ${percentile(sorted, 50).toFixed(0)} ms  p99 ${percentile(sorted, 99).toFixed(0)} ms  max ${sorted.at(-1)?.toFixed(0)} ms`,
  );
  for (const [process, list] of perProcess) {
    const s = [...list].sort((a, b) => a - b);
    console.log(`  ${process.padEnd(9)} p50 ${percentile(s, 50).toFixed(0)} ms  p99 ${percentile(s, 99).toFixed(0)} ms`);
  }
  for (const connection of byProcess.values()) connection.close();
  db.$client.close();
} finally {
  server.kill();
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
