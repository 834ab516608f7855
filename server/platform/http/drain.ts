/**
 * Stopping without a refused request. On SIGTERM a process first answers every request with
 * `Connection: close`: a client with a kept-alive connection gets its answer and opens a new
 * connection, which the kernel gives to a process still listening on the port (the one replacing
 * this one, or another of its processes). Only then does it stop listening, which closes the
 * connections left idle (Bun closes them at once) and waits for the requests still running.
 *
 * Closing an idle kept-alive connection races the client's next request on it: the request is sent
 * as the connection closes, and the client sees a reset instead of an answer. A connection idle for
 * IDLE_SAFE_MS since its last answer is at no more risk than at any idle time-out; one used
 * meanwhile is answered with `Connection: close` and closed by its answer. So the drain lasts
 * DRAIN_MS, and then until the last answer that kept its connection open is IDLE_SAFE_MS old: every
 * connection is then either closed or that idle.
 *
 * Which connection gave an answer is not asked: Bun's `requestIP`, the only way to tell
 * connections apart, cost about a quarter of the CPU of a page answered from memory
 * (bench/static.ts: 45 against 35 µs a request). Telling them apart would end a drain sooner under
 * steady traffic, once every connection had answered again (1 s rather than up to 4); a stop
 * waiting those seconds refuses nothing.
 */
export const DRAIN_MS = 1000;
/** How long a kept-alive connection that answered must have been idle before the drain lets it be closed. */
export const IDLE_SAFE_MS = 4000;

/**
 * How long a stop may take in all: the drain, the requests still running, the e-mail being sent,
 * the last replication. Past it the process exits anyway (`site service` gives systemd a longer
 * TimeoutStopSec, so the server ends by itself before systemd kills it).
 */
export const STOP_DEADLINE_MS = 20_000;

export type Drain = {
  /** True once the process is stopping: every answer then closes its connection. */
  readonly closing: boolean;
  /** An answer given: before the drain begins, its connection stays open; after, it closes with it. */
  answered(): void;
  /** Starts closing connections; resolves when no kept-alive connection may still be in use. */
  begin(): Promise<void>;
};

export function createDrain(options: { ms?: number; idleSafeMs?: number } = {}): Drain {
  const ms = options.ms ?? DRAIN_MS;
  const idleSafeMs = options.idleSafeMs ?? IDLE_SAFE_MS;
  let closing = false;
  // When the last answer that left its connection open was given (performance.now()).
  let lastKeptOpen = Number.NEGATIVE_INFINITY;
  return {
    get closing() {
      return closing;
    },
    answered() {
      if (!closing) lastKeptOpen = performance.now();
    },
    async begin() {
      closing = true;
      await Bun.sleep(ms);
      // From here every answer closes its connection: the last one kept open was given before.
      const wait = lastKeptOpen + idleSafeMs - performance.now();
      if (wait > 0) await Bun.sleep(wait);
    },
  };
}
