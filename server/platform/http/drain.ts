/**
 * Stopping without a refused request. On SIGTERM a process first answers every request with
 * `Connection: close` for `DRAIN_MS`: a client with a kept-alive connection gets its answer and
 * opens a new connection, which the kernel gives to a process still listening on the port (the
 * one replacing this one, or another of its processes). Only then does it stop listening and wait
 * for the requests still running. Stopping at once instead would close the kept-alive connections
 * on which a client had just sent its next request: a failed request for every busy connection.
 */
export const DRAIN_MS = 1000;

/**
 * How long a stop may take in all: the drain, the requests still running, the e-mail being sent,
 * the last replication. Past it the process exits anyway (`site service` gives systemd a longer
 * TimeoutStopSec, so the server ends by itself before systemd kills it).
 */
export const STOP_DEADLINE_MS = 20_000;

export type Drain = {
  /** True once the process is stopping: every answer then closes its connection. */
  readonly closing: boolean;
  /** Starts closing connections; resolves when the drain time is over. */
  begin(): Promise<void>;
};

export function createDrain(ms: number = DRAIN_MS): Drain {
  let closing = false;
  return {
    get closing() {
      return closing;
    },
    begin() {
      closing = true;
      return Bun.sleep(ms);
    },
  };
}
