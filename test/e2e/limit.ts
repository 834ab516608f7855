import { test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";

/**
 * At most `slots` of the tasks handed to it run at once; the others wait their turn, first come
 * first served. A sweep visits its pages side by side: most of a page visit is waiting (the server,
 * the network, a frame), but the machine may have two cores, so it caps how many pages are being
 * worked on at one time rather than opening them all at once.
 */
export function limiter(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A slot is free, or one is handed over by the task that ends (it stays counted as running).
    if (running < slots) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}

/**
 * Tabs of one context, at most `slots` open, each reused from visit to visit. Opening a tab costs
 * Chromium about twice the CPU of the visit itself (measured: 1.3 s against 0.5 s a page on this
 * machine), so a sweep of many pages navigates its few tabs rather than opening one per page. A tab
 * whose task failed is closed, not reused: what it was left showing is unknown.
 */
export function tabsOf(context: BrowserContext, slots: number): <T>(task: (page: Page) => Promise<T>) => Promise<T> {
  const limit = limiter(slots);
  const idle: Page[] = [];
  return (task) =>
    limit(async () => {
      const page = idle.pop() ?? (await context.newPage());
      try {
        const result = await task(page);
        idle.push(page);
        return result;
      } catch (error) {
        await page.close().catch(() => undefined);
        throw error;
      }
    });
}

/**
 * Like `tabsOf`, but each of the `slots` tabs in a context of its own (made by `open`), for visits
 * that need what a context does not share between its tabs: Playwright's clock is the context's, so
 * is a route. Each tab is reused from visit to visit; one whose task failed is closed with its
 * context. `close` closes the ones left once every task is done.
 */
export function tabsOfOwnContexts(
  open: () => Promise<Page>,
  slots: number,
): (<T>(task: (page: Page) => Promise<T>) => Promise<T>) & { close: () => Promise<void> } {
  const limit = limiter(slots);
  const idle: Page[] = [];
  const run = <T>(task: (page: Page) => Promise<T>): Promise<T> =>
    limit(async () => {
      const page = idle.pop() ?? (await open());
      try {
        const result = await task(page);
        idle.push(page);
        return result;
      } catch (error) {
        await page
          .context()
          .close()
          .catch(() => undefined);
        throw error;
      }
    });
  return Object.assign(run, {
    close: async () => {
      await Promise.all(idle.splice(0).map((page) => page.context().close()));
    },
  });
}

/**
 * `test.concurrent` for the independent journeys of a file (each its own context, asserting only
 * what it made itself): they run side by side, at most `slots` at a time, so that one journey's
 * waits (the server, a frame, a mail) are another's turn on the CPU. The time allowed counts from
 * the moment the journey gets its slot: bun's own timeout would count its wait in the queue too, and
 * the last journeys of a file would run out of time behind the others on a loaded machine. A journey
 * past its time fails and gives its slot up; bun's timeout stays as the backstop of a queue that
 * never moves.
 */
export function sideBySide(slots = 3): (name: string, run: () => Promise<void>, timeout?: number) => void {
  const limit = limiter(slots);
  return (name, run, timeout = 120_000) => {
    test.concurrent(name, () => limit(() => within(timeout, run)), QUEUE_BACKSTOP);
  };
}

const QUEUE_BACKSTOP = 20 * 60_000;

async function within(timeout: number, run: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`this journey took longer than ${timeout} ms from its start`)), timeout);
  });
  try {
    await Promise.race([run(), late]);
  } finally {
    clearTimeout(timer);
  }
}
