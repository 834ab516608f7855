import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import type { Browser, BrowserContext } from "playwright-core";

/** Debian's Chromium in its headless shell (package chromium-headless-shell): the same build and
 * engine as /usr/bin/chromium without the desktop browser around it, as Playwright runs headless
 * by default; about a fifth less CPU a page (docs/decisions/026-headless-shell-for-tests.md).
 * CHROMIUM_PATH=/usr/bin/chromium runs the journeys in the whole browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

// A bun test process runs its files one after the other: each of npm test's two workers, or a plain
// `bun test`. The browser journeys of a process share one Chromium rather than starting one per
// file (a second or more of CPU each, longer on a busy machine), so no more Chromiums run than
// workers. Tests never share pages or cookies: each opens a context of its own.
//
// How long it lives depends on how the process runs its files:
// - a --parallel worker with --no-isolate (npm test) keeps this module from file to file: the
//   browser stays open for the next file and goes with the process. Such a worker ends without an
//   exit event or a last afterAll of its own, but Chromium ends by itself once the pipe it is driven
//   through closes, and a small reaper process removes its temporary folder once the worker is gone;
// - anywhere else (a plain `bun test`, or workers that load every file afresh) it is closed after
//   each file by test/support/teardown.ts, which, in a plain run, comes once after the last file.

/** The browser is kept from one file to the next: this process is a --parallel worker that keeps
 * its modules between files (bun's own command line for it says so). */
export const browserOutlivesFiles: boolean = (() => {
  try {
    const args = readFileSync("/proc/self/cmdline", "utf8").split("\0");
    return args.includes("--test-worker") && args.includes("--no-isolate");
  } catch {
    return false;
  }
})();

let launched: Promise<Browser> | null = null;

/** The temporary folders of the Chromiums launched by this run, removed once each is closed. */
const browserTemps = new Set<string>();

/**
 * A Chromium of its own (headless, no network of its own, no sandbox: tests run as one user). All
 * its temporary files (its profile, Playwright's artifacts, and the `org.chromium.Chromium.*`
 * folders it leaves behind when it is killed) go in one folder of this run's, removed when it
 * closes, at the end of the run, or by the reaper once this process is gone.
 */
export async function launchBrowser(): Promise<Browser> {
  // Loaded here rather than at the top: every test file loads this module (test/support/teardown.ts)
  // and most never launch a browser; the library takes half a second or more to load.
  const { chromium } = await import("playwright-core");
  const temp = mkdtempSync(join(tmpdir(), "site-e2e-chromium-"));
  browserTemps.add(temp);
  reapAfterThisProcess(temp);
  // Playwright makes the profile and artifacts folders in the process's temporary folder as the
  // launch begins: pointed at ours for that moment, they go with it.
  const tmpBefore = process.env.TMPDIR;
  process.env.TMPDIR = temp;
  const browser = await chromium
    .launch({
      executablePath: CHROMIUM,
      env: { ...process.env, TMPDIR: temp },
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        // Without a GPU the frames are composited in software either way: straight into a bitmap
        // rather than through a GL emulation, and in the browser process rather than a GPU process
        // of its own. Measured: 12 % less CPU over a round of page visits, 6 % over the wide sweep,
        // the screenshots the same.
        "--disable-gpu-compositing",
        "--in-process-gpu",
      ],
    })
    .finally(() => {
      if (tmpBefore === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpBefore;
    });
  browser.on("disconnected", () => {
    rmSync(temp, { recursive: true, force: true });
    browserTemps.delete(temp);
  });
  return browser;
}

/** Removes `folder` once this process has ended, however it ends: a shell of its own, in a session
 * of its own (an interrupt of the terminal's group does not reach it), that waits for this process
 * to be gone (coreutils' `tail --pid`), then for the Chromium whose profile is in the folder (it
 * ends once its pipe closes, a moment later, and writes there until then), then removes the folder.
 * It is left to run even when the folder is removed here: a worker's end closes the pipe and
 * removes the folder while Chromium may still write there. */
function reapAfterThisProcess(folder: string): void {
  const script = 'tail --pid="$1" -f /dev/null; while pgrep -f -- "--user-data-dir=$2" >/dev/null; do sleep 0.2; done; rm -rf -- "$2"';
  const reaper = spawn(["sh", "-c", script, "reaper", String(process.pid), folder], {
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  });
  reaper.unref();
}

/**
 * Closes the shared browser, if one is open, and removes every temporary folder of this run's
 * browsers. test/support/teardown.ts calls this after each file, and only then when the browser
 * does not outlive the file (see above).
 */
export async function closeSharedBrowser(): Promise<void> {
  const last = launched;
  launched = null;
  await last?.then((b) => b.close()).catch(() => undefined);
  for (const temp of browserTemps) rmSync(temp, { recursive: true, force: true });
  browserTemps.clear();
}

/** The shared browser, launched again if it is gone (crashed, or ended with a test that timed out). */
async function connected(): Promise<Browser> {
  if (launched !== null && !(await launched.then((b) => b.isConnected()).catch(() => false))) launched = null;
  launched ??= launchBrowser();
  return launched;
}

/**
 * The shared browser for the tests of this file (available from beforeAll on). `newContext` opens
 * a context in it, launching it again first if an earlier test's failure took it down, so that one
 * test's timeout does not fail the rest of the file.
 */
export function useBrowser(): { readonly browser: Browser; newContext: Browser["newContext"] } {
  let browser: Browser | undefined;
  // The file's contexts: one a failed test left open is closed with the file, not kept in the
  // browser the next files use.
  const contexts = new Set<BrowserContext>();
  beforeAll(async () => {
    browser = await connected();
  });
  afterAll(async () => {
    browser = undefined;
    await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
    contexts.clear();
  });
  const inFile = () => {
    if (browser === undefined) throw new Error("useBrowser: used outside a test");
    return browser;
  };
  return {
    get browser() {
      return inFile();
    },
    async newContext(options) {
      inFile();
      browser = await connected();
      const context = await browser.newContext(options);
      contexts.add(context);
      context.on("close", () => contexts.delete(context));
      return context;
    },
  };
}
