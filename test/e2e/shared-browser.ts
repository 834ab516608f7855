import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// A bun test process (each of npm test's two workers, or a plain `bun test`) runs its files one
// after the other: the browser journeys of a run share one Chromium rather than starting one per
// file (a second or more each, longer on a busy machine), so no more Chromiums run than workers. Each file takes it in beforeAll and gives it back in afterAll; it is closed shortly
// after the last file gave it back, unless the next file took it meanwhile. Tests never share
// pages or cookies: each opens a context of its own.

/** How long the browser waits, unused, for the next file before it is closed. */
const CLOSE_AFTER_MS = 1000;

let launched: Promise<Browser> | null = null;
let users = 0;
let closing: ReturnType<typeof setTimeout> | null = null;

/** The temporary folders of the Chromiums launched by this run, removed once each is closed. */
const browserTemps = new Set<string>();

/**
 * A Chromium of its own (headless, no network of its own, no sandbox: tests run as one user). Its
 * own temporary files (Chromium leaves `org.chromium.Chromium.*` folders behind when it is killed)
 * go in a folder of this run's, removed when it closes or at the end of the run.
 */
export async function launchBrowser(): Promise<Browser> {
  // Loaded here rather than at the top: every test file loads this module (test/support/teardown.ts)
  // and most never launch a browser; the library takes half a second or more to load.
  const { chromium } = await import("playwright-core");
  const temp = mkdtempSync(join(tmpdir(), "site-e2e-chromium-"));
  browserTemps.add(temp);
  const browser = await chromium.launch({
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
    ],
  });
  browser.on("disconnected", () => {
    rmSync(temp, { recursive: true, force: true });
    browserTemps.delete(temp);
  });
  return browser;
}

/**
 * Closes the shared browser, if one is open, and removes every temporary folder of this run's
 * browsers: bun test ends its process without waiting for the timer that would close it
 * (test/support/teardown.ts calls this once every file has run).
 */
export async function closeSharedBrowser(): Promise<void> {
  if (closing !== null) clearTimeout(closing);
  closing = null;
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

function take(): Promise<Browser> {
  users++;
  if (closing !== null) clearTimeout(closing);
  closing = null;
  return connected();
}

function giveBack(): void {
  users--;
  if (users > 0) return;
  closing = setTimeout(() => {
    const last = launched;
    launched = null;
    closing = null;
    void last?.then((b) => b.close()).catch(() => undefined);
  }, CLOSE_AFTER_MS);
}

/**
 * The shared browser for the tests of this file (available from beforeAll on). `newContext` opens
 * a context in it, launching it again first if an earlier test's failure took it down, so that one
 * test's timeout does not fail the rest of the file.
 */
export function useBrowser(): { readonly browser: Browser; newContext: Browser["newContext"] } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await take();
  });
  afterAll(() => {
    if (browser !== undefined) giveBack();
    browser = undefined;
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
      return browser.newContext(options);
    },
  };
}
