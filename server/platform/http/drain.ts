/**
 * Stopping without a refused request. On SIGTERM a process first answers every request with
 * `Connection: close`: a client with a kept-alive connection gets its answer and opens a new
 * connection, which the kernel gives to a process still listening on the port (the one replacing
 * this one, or another of its processes). Only then does it stop listening, which closes the
 * connections left idle (Bun closes them at once) and waits for the requests still running.
 *
 * Closing an idle kept-alive connection races the client's next request on it: the request is sent
 * as the connection closes, and the client sees a reset instead of an answer. So the drain lasts
 * at least DRAIN_MS, and then until every connection that has answered with keep-alive has either
 * answered again (with `Connection: close`, after which it is closed by its answer) or been idle
 * for IDLE_SAFE_MS: a client that uses its connection meanwhile is answered, and one that has let
 * it rest that long is at no more risk than at any idle time-out. The drain never lasts more than
 * DRAIN_MAX_MS (the stop's deadline, and systemd's after it, are longer).
 */
export const DRAIN_MS = 1000;
/** How long a kept-alive connection that answered must have been idle before the drain lets it be closed. */
export const IDLE_SAFE_MS = 4000;
/** The longest drain, however busy the connections. */
export const DRAIN_MAX_MS = 8000;
/** Bun closes a connection idle this long by itself (Bun.serve's default idleTimeout, 10 s): no need to remember it past that. */
const KEEP_ALIVE_MS = 10_000;

/**
 * How long a stop may take in all: the drain, the requests still running, the e-mail being sent,
 * the last replication. Past it the process exits anyway (`site service` gives systemd a longer
 * TimeoutStopSec, so the server ends by itself before systemd kills it).
 */
export const STOP_DEADLINE_MS = 20_000;

export type Drain = {
  /** True once the process is stopping: every answer then closes its connection. */
  readonly closing: boolean;
  /**
   * An answer given on the connection `connection` (the client's address and port; null when not
   * known): `closed` when it carried `Connection: close` (the connection ends with it).
   */
  answered(connection: string | null, closed: boolean): void;
  /** Starts closing connections; resolves when no kept-alive connection may still be in use. */
  begin(): Promise<void>;
};

export function createDrain(options: { ms?: number; idleSafeMs?: number; maxMs?: number } = {}): Drain {
  const ms = options.ms ?? DRAIN_MS;
  const idleSafeMs = options.idleSafeMs ?? IDLE_SAFE_MS;
  const maxMs = Math.max(ms, options.maxMs ?? DRAIN_MAX_MS);
  let closing = false;
  // The connections left open after an answer, with when they last answered (performance.now()).
  const open = new Map<string, number>();
  let forgetAt = 0;
  return {
    get closing() {
      return closing;
    },
    answered(connection, closed) {
      if (connection === null) return;
      const at = performance.now();
      if (closed) open.delete(connection);
      else open.set(connection, at);
      // Now and then (not per request), connections Bun has closed for idleness are forgotten.
      if (at >= forgetAt) {
        for (const [key, last] of open) if (at - last > KEEP_ALIVE_MS) open.delete(key);
        forgetAt = at + KEEP_ALIVE_MS;
      }
    },
    async begin() {
      closing = true;
      const started = performance.now();
      await Bun.sleep(ms);
      for (;;) {
        const at = performance.now();
        let wait = 0;
        for (const last of open.values()) wait = Math.max(wait, last + idleSafeMs - at);
        const left = started + maxMs - at;
        if (wait <= 0 || left <= 0) return;
        await Bun.sleep(Math.min(wait, left, 100));
      }
    },
  };
}
