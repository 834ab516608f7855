import { existsSync } from "node:fs";
import type { Subprocess } from "bun";
import * as v from "valibot";
import { errorText } from "../../shared/error-text";
import { LOCALES } from "../../shared/locales";
import type { AssetUrls } from "../../shared/page-data";
import { BytesSchema } from "../platform/bytes-schema";
import type { Logger } from "../platform/log";
import { endingWithThisProcess as endingWith } from "../platform/parent-death";
import { AssetSchema, type AssetSnapshot } from "../site/assets";
import { type PrebuiltPage, prebuiltPageSchema } from "../site/prebuilt-page";

// One server process per core (docs/decisions/010-static-pages-and-processes.md). The first process does everything the site has to
// do once: migrations, the e-mail sender, the client bundle, rendering and compressing the pages.
// It then starts the others ("workers") and hands them what it made over an IPC channel; they only
// answer requests, on the same port (SO_REUSEPORT: the kernel spreads connections between them).

/** The internal subcommand a worker is started with (not for the owner: it waits for its parent). */
export const WORKER_COMMAND = "serve-worker";

/** The internal subcommand of the short-lived process that renders the pages for the first one. */
export const RENDER_COMMAND = "render-pages";

/**
 * The signal the kernel sends a worker or the page renderer when the first process dies. Not
 * SIGTERM, which means "stop" from the owner or the first process: with this one a child tells,
 * in its log, that it goes because the first process is gone. A child still loading its code (it
 * has no handler yet) is ended by it outright.
 */
const FIRST_PROCESS_GONE_SIGNAL = "SIGUSR2";

/** What a worker needs from the first process to serve exactly the same site. */
export type WorkerStart = { port: number; assets: AssetSnapshot; pages: PrebuiltPage[] };

// The first process's messages come from the same program, but a message is still checked before
// use: a worker started by hand from a terminal, or a newer version, must fail clearly.
// Typed against AssetUrls: a field added there and not here fails the typecheck, not a start.
const UrlsSchema: v.GenericSchema<AssetUrls> = v.object({
  js: v.string(),
  css: v.string(),
  font: v.nullable(v.string()),
  poster: v.string(),
  video: v.string(),
  videoSeconds: v.nullable(v.number()),
  captions: v.array(v.object({ locale: v.picklist(LOCALES), url: v.string() })),
  preview640: v.string(),
  preview960: v.string(),
  preview1280: v.string(),
  ogImage: v.string(),
  favicon: v.string(),
  appleTouchIcon: v.string(),
});
const PagesSchema = v.array(prebuiltPageSchema(BytesSchema));
/** The first process's id, in each of its messages: a message can arrive after its sender died. */
const From = v.pipe(v.number(), v.integer(), v.minValue(1));
const StartMessage = v.object({
  kind: v.literal("start"),
  from: From,
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
  assets: v.object({
    urls: UrlsSchema,
    files: v.array(v.tuple([v.string(), AssetSchema])),
  }),
  pages: PagesSchema,
});
const WakeMailer = v.object({ kind: v.literal("wake-mailer") });
const RenderRequest = v.object({ kind: v.literal("render"), from: From, urls: UrlsSchema });
const RenderedPages = v.object({ kind: v.literal("pages"), pages: PagesSchema });

export type Workers = {
  /** Hands the workers what they serve (to those running, and to any started again later). */
  begin(start: WorkerStart): void;
  /** The HTTPS certificate in DATA_DIR/tls/ changed: each worker serves it (to those started, once they are). */
  certificateChanged(): void;
  /** Stops every worker (SIGTERM, then SIGKILL after `graceMs`) and starts no new one. */
  stop(graceMs?: number): Promise<void>;
};

/**
 * Starts `count - 1` workers running `command` (this program) at once, so that they load while
 * this process renders the pages, and keeps them running: one that dies is started again after a
 * second (ten after a crash within ten seconds of starting). Their output goes where this
 * process's goes.
 */
export function startWorkers(options: {
  count: number;
  command: string[];
  log: Logger;
  /** A worker queued e-mail: the sender, which runs in this process only, should look now. */
  onWakeMailer: () => void;
}): Workers {
  const { count, command, log, onWakeMailer } = options;
  const running = new Map<number, Subprocess>();
  let start: WorkerStart | null = null;
  let stopping = false;

  const send = (child: Subprocess, message: WorkerStart) => {
    try {
      child.send({ kind: "start", from: process.pid, ...message });
    } catch (error) {
      // The worker is gone already: it is started again (and handed this) when its exit is seen.
      log.warn("worker not reachable", { error: errorText(error) });
    }
  };

  const spawn = (worker: number) => {
    const startedAt = Date.now();
    const child = Bun.spawn({
      cmd: endingWith([...command, WORKER_COMMAND, String(worker)], FIRST_PROCESS_GONE_SIGNAL),
      stdin: "ignore",
      stdout: "inherit",
      stderr: "inherit",
      serialization: "advanced",
      ipc(message) {
        if (v.is(WakeMailer, message)) onWakeMailer();
      },
    });
    running.set(worker, child);
    if (start !== null) send(child, start);
    void child.exited.then((code) => {
      running.delete(worker);
      if (stopping) return;
      const delay = Date.now() - startedAt < 10_000 ? 10_000 : 1000;
      log.error("worker exited, starting it again", { worker, code, inMs: delay });
      setTimeout(() => {
        if (!stopping) spawn(worker);
      }, delay);
    });
  };
  for (let worker = 1; worker < count; worker++) spawn(worker);

  return {
    begin(message) {
      start = message;
      if (stopping) return;
      for (const child of running.values()) send(child, message);
    },
    certificateChanged() {
      // Before `begin`, a worker reads the folder itself when it starts listening.
      if (start === null || stopping) return;
      for (const child of running.values()) {
        try {
          child.send({ kind: "certificate-changed" });
        } catch {
          // Gone: started again later, it reads the folder then.
        }
      }
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      await Promise.all(
        [...running.values()].map(async (child) => {
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
          await child.exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}

/**
 * In a worker: waits for the first process's start message; null when the first process is gone
 * by the time it arrives (the runtime still delivers what a killed parent sent before it died).
 */
export function receiveWorkerStart(): Promise<WorkerStart | null> {
  return new Promise((resolve, reject) => {
    if (process.send === undefined) {
      reject(new Error(`'${WORKER_COMMAND}' is started by the server itself, not by hand`));
      return;
    }
    process.once("message", (message: unknown) => {
      const parsed = v.safeParse(StartMessage, message);
      if (!parsed.success) reject(new Error(`worker: unreadable start message (${parsed.issues[0].message})`));
      else if (!isParent(parsed.output.from)) resolve(null);
      else resolve({ port: parsed.output.port, assets: parsed.output.assets, pages: parsed.output.pages });
    });
  });
}

const CertificateChanged = v.object({ kind: v.literal("certificate-changed") });

/** In a worker, once started: `reload` runs each time the first process says the HTTPS certificate changed. */
export function onCertificateChanged(reload: () => void): void {
  process.on("message", (message: unknown) => {
    if (v.is(CertificateChanged, message)) reload();
  });
}

/** In a worker: asks the first process's e-mail sender to look for queued mail now. */
export function wakeMailerOfFirstProcess(): void {
  process.send?.({ kind: "wake-mailer" });
}

/** How often a worker or the page renderer looks whether the first process is still its parent. */
const PARENT_CHECK_MS = 250;

/**
 * The first process is this process's parent, still. When a parent dies its children are handed
 * to another process (init, or a service manager), so the parent's id changes at once, however the
 * parent died.
 */
const isParent = (pid: number) => process.ppid === pid && process.connected !== false;

/**
 * In a worker or the page renderer: `stop` runs once when the first process goes away without
 * stopping it (killed with SIGKILL, crashed), so that no process of the site keeps serving the port
 * or writing to its data folder on its own: on the kernel's signal (parent-death.ts), at the
 * IPC channel's end, or when the parent's id changes, whichever comes first (the runtime may report
 * the channel's end late, or not at all when it closed before this was called).
 */
export function whenFirstProcessGone(stop: () => void): void {
  const parent = process.ppid;
  let gone = false;
  const once = () => {
    if (gone) return;
    gone = true;
    clearInterval(check);
    stop();
  };
  // Not counted as work: it never keeps the process alive by itself.
  const check = setInterval(() => {
    if (!isParent(parent)) once();
  }, PARENT_CHECK_MS);
  check.unref();
  process.on("disconnect", once);
  process.on(FIRST_PROCESS_GONE_SIGNAL, once);
  if (process.send !== undefined && !isParent(parent)) queueMicrotask(once);
}

/**
 * In a worker or the page renderer, before opening the first process's database: true when its
 * file is still there. The folder is the first process's to create; a child whose first process
 * died and whose folder was deleted meanwhile must not make an empty one again.
 */
export function dataOfFirstProcessExists(dbPath: string): boolean {
  return existsSync(dbPath);
}

/**
 * Renders the pages the same for every visitor in a short-lived process of this program (`command`)
 * and resolves with them; null when that process fails or takes longer than `timeoutMs` (the
 * caller then renders them itself). Rendering leaves a process about 15 MB larger for good (the
 * compiled code of React's server renderer, the heap it grew to): done apart, the processes that
 * serve requests stay small. Until it is done, a page asked for is rendered where it is asked.
 */
export function renderPagesApart(options: {
  command: string[];
  urls: AssetUrls;
  log: Logger;
  timeoutMs?: number;
}): Promise<PrebuiltPage[] | null> {
  const { command, urls, log, timeoutMs = 120_000 } = options;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (pages: PrebuiltPage[] | null, child?: Subprocess) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child?.kill("SIGTERM");
      resolve(pages);
    };
    let child: Subprocess;
    try {
      child = Bun.spawn({
        cmd: endingWith([...command, RENDER_COMMAND], FIRST_PROCESS_GONE_SIGNAL),
        stdin: "ignore",
        stdout: "inherit",
        stderr: "inherit",
        serialization: "advanced",
        ipc(message, self) {
          const parsed = v.safeParse(RenderedPages, message);
          if (!parsed.success) log.warn("page renderer: unreadable message", { issue: parsed.issues[0].message });
          settle(parsed.success ? parsed.output.pages : null, self);
        },
      });
    } catch (error) {
      log.warn("page renderer not started", { error: errorText(error) });
      resolve(null);
      return;
    }
    const timer = setTimeout(() => {
      log.warn("page renderer too slow, stopped", { afterMs: timeoutMs });
      settle(null, child);
    }, timeoutMs);
    void child.exited.then((code) => {
      if (!settled) log.warn("page renderer exited without pages", { code });
      settle(null);
    });
    try {
      child.send({ kind: "render", from: process.pid, urls });
    } catch {
      // Gone already: its exit settles this.
    }
  });
}

/**
 * In the page renderer: waits for the first process's request (the client files' URLs); null when
 * the first process is gone by the time it arrives.
 */
export function receiveRenderRequest(): Promise<AssetUrls | null> {
  return new Promise((resolve, reject) => {
    if (process.send === undefined) {
      reject(new Error(`'${RENDER_COMMAND}' is started by the server itself, not by hand`));
      return;
    }
    process.once("message", (message: unknown) => {
      const parsed = v.safeParse(RenderRequest, message);
      if (!parsed.success) reject(new Error(`page renderer: unreadable request (${parsed.issues[0].message})`));
      else resolve(isParent(parsed.output.from) ? parsed.output.urls : null);
    });
  });
}

/** In the page renderer: hands the pages to the first process, which stops this one once it has them. */
export function sendRenderedPages(pages: PrebuiltPage[]): void {
  process.send?.({ kind: "pages", pages });
}
