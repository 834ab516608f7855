import { afterAll, beforeAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Subprocess, spawn } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { useBrowser } from "./shared-browser";

const ROOT = join(import.meta.dir, "..", "..");
export const ARTIFACTS = join(ROOT, "artifacts");

export type RunningServer = {
  baseUrl: string;
  dataDir: string;
  output: string[];
  process: Subprocess;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/**
 * Starts the real server (`bun run server/main.ts`) as a separate process on a free port with a
 * fresh data directory, and resolves once it listens.
 */
export async function startServer(options: { env?: Record<string, string>; dataDir?: string } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "site-e2e-"));
  const output: string[] = [];
  // Ended by the kernel if the test run itself dies (interrupted, killed): no server outlives it.
  const setpriv = Bun.which("setpriv");
  const proc = spawn({
    cmd: [...(setpriv === null ? [] : [setpriv, "--pdeathsig", "TERM", "--"]), process.execPath, "run", join(ROOT, "server/main.ts")],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      // What the test suite runs with: development's sample purchases stay off the pages, where a
      // test's own purchases are the only ones shown (a test may ask for development).
      NODE_ENV: "test",
      // Each page made at its first request: most of these servers are asked for none, and making
      // all of them at start is about 1.3 s of CPU a server (a test of the start itself sets "true").
      PAGES_AT_START: "false",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...options.env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const removeData = () => {
    if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  const listening = new Promise<string>((resolve, reject) => {
    // A deadline, not a wait: on a loaded machine a start has taken over 30 s.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join("\n")}`)), 60_000);
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      const reader = stream.getReader();
      // A read may end mid-line (a JSON log line cut in two): keep the unfinished end for the next.
      let rest = "";
      for (;;) {
        const { done, value: chunk } = await reader.read();
        if (done) break;
        const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines.filter(Boolean)) {
          output.push(line);
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        }
      }
    };
    void pump(proc.stdout);
    void pump(proc.stderr);
    void proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join("\n")}`));
    });
  });
  // A server that did not start leaves neither a process nor a data folder behind.
  const baseUrl = await listening.catch(async (error: unknown) => {
    proc.kill("SIGKILL");
    await proc.exited;
    removeData();
    throw error;
  });
  return {
    baseUrl,
    dataDir,
    output,
    process: proc,
    stop: async (signal = "SIGTERM") => {
      proc.kill(signal);
      await proc.exited;
      removeData();
    },
  };
}

/** Collects console errors and warnings of a page, to assert a clean hydration. */
export function watchConsole(page: Page): { errors: string[]; messages: string[] } {
  const errors: string[] = [];
  const messages: string[] = [];
  page.on("console", (msg) => {
    messages.push(`${msg.type()}: ${msg.text()}`);
    if (msg.type() === "error" || msg.type() === "warning") errors.push(msg.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return { errors, messages };
}

/** One server for the tests of a file, and the browser shared by the browser journeys. */
export function useSite(options: { env?: Record<string, string> } = {}) {
  let server: RunningServer | undefined;
  const shared = useBrowser();
  beforeAll(async () => {
    server = await startServer(options);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return siteOf(() => server, shared);
}

/** The server of this process's files that only read the shop (see `useSharedSite`). */
let sharedServer: Promise<RunningServer> | null = null;

/**
 * Like `useSite`, but the server (default settings, a data folder of its own) is the one every such
 * file of this bun process shares, started by the first and kept for the next: a start costs the
 * server about 2 s of CPU. Only for files that leave the shop as the next one expects it: they may
 * read and try anything, and make unpaid orders (counted against their own "before"), but never a
 * paid order, a purchase notice, a lead or a change of the owner's content. A file runs alone in
 * its process, so no two of them use it at once.
 *
 * It lives as long as the browser does (test/e2e/shared-browser.ts): in npm test's workers it goes
 * with the worker (the kernel ends it with its parent, and a reaper removes its data folder once it
 * is gone); elsewhere `stopSharedServer` (test/support/teardown.ts) stops it after the files.
 */
export function useSharedSite() {
  let server: RunningServer | undefined;
  const shared = useBrowser();
  beforeAll(async () => {
    // Started again if it is gone (it crashed, or a test stopped it).
    if (sharedServer !== null && (await sharedServer.then((s) => s.process.exitCode !== null || s.process.killed).catch(() => true)))
      sharedServer = null;
    if (sharedServer === null) {
      sharedServer = startServer().then((started) => {
        removeAfter(started.process.pid, started.dataDir);
        return started;
      });
      sharedServer.catch(() => {
        sharedServer = null;
      });
    }
    server = await sharedServer;
  });
  afterAll(() => {
    server = undefined;
  });
  return siteOf(() => server, shared);
}

/** Stops the shared server, if one runs (after the files of a process that does not keep it). */
export async function stopSharedServer(): Promise<void> {
  const last = sharedServer;
  sharedServer = null;
  await last?.then((s) => s.stop()).catch(() => undefined);
}

/** Removes `folder` once this process and then the process `pid` have ended (a detached shell of
 * its own, which an interrupt of the terminal's group does not reach): the shared server outlives
 * the last file that used it, and its data folder must not outlive the server. */
function removeAfter(pid: number, folder: string): void {
  const script = 'tail --pid="$1" -f /dev/null; tail --pid="$2" -f /dev/null; rm -rf -- "$3"';
  spawn(["sh", "-c", script, "reaper", String(process.pid), String(pid), folder], {
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  }).unref();
}

function siteOf(current: () => RunningServer | undefined, shared: ReturnType<typeof useBrowser>) {
  const started = () => {
    const server = current();
    if (server === undefined) throw new Error("useSite: used outside a test");
    return { server, browser: shared.browser };
  };
  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    async newContext(init: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
      return shared.newContext({ baseURL: started().server.baseUrl, ...init });
    },
  };
}

/** Where each island of the page stands (client/entry.ts), as "name:state". */
export function islandStates(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[data-island]")].map((c) => `${c.dataset.island}:${c.dataset.islandState}`),
  );
}

/**
 * Does what brings every island of the page to life, as a visitor would: opens the <details> that
 * hold one, scrolls to the end, points at each island, and (when the page runs under Playwright's
 * clock) lets the exit popup's time come. Resolves once every island is hydrated or had nothing to do.
 */
export async function hydrateAllIslands(page: Page, options: { clock?: boolean } = {}): Promise<void> {
  await page.evaluate(async () => {
    for (const details of document.querySelectorAll("details")) if (details.querySelector("[data-island]")) details.open = true;
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    for (const container of document.querySelectorAll<HTMLElement>("[data-island]")) {
      container.firstElementChild?.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
    }
  });
  if (options.clock) await page.clock.runFor(30_000);
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>("[data-island]")].every(
      (c) => c.dataset.islandState === "hydrated" || c.dataset.islandState === "skipped",
    ),
  );
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
