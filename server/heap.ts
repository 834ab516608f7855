// JavaScriptCore sizes its heap from the machine's memory. On a machine with many GB it lets the
// garbage of a burst of requests (each answered page leaves a request, a response and its headers
// behind) pile up by tens of MB per process before collecting. The site keeps far less alive than
// that, so its server processes run with the heap sized as on a 512 MB machine: under 50 concurrent
// connections each process then peaks about 15 MB lower, at the same requests per second
// (bench/static.ts). The setting is JSC's `forceRAMSize`, which the runtime reads from the
// environment only as it starts: the server re-executes itself once (same process id, so a service
// manager sees no change) with it set, before loading anything else. Workers inherit it.

/** The environment variable the runtime reads; set by the owner, it is kept as it is. */
export const HEAP_SIZING_ENV = "BUN_JSC_forceRAMSize";
export const HEAP_SIZING_BYTES = 512 * 1024 * 1024;

/**
 * Replaces this process with `self` (this program, with the same arguments) run with the heap
 * sizing set, unless it is set already. Returns (and the process goes on as started) when it is
 * set, when the runtime was started with flags of its own (`--watch`, `--inspect`: a new process
 * would lose them), or when the platform cannot replace a process.
 */
export function startWithHeapSizing(self: readonly string[]): void {
  const [file] = self;
  if (file === undefined || process.env[HEAP_SIZING_ENV] !== undefined || process.execArgv.length > 0) return;
  if (typeof process.execve !== "function") return;
  try {
    process.execve(file, [...self], { ...process.env, [HEAP_SIZING_ENV]: String(HEAP_SIZING_BYTES) });
  } catch {
    // Not replaced (execve failed): the same site, with the runtime's own heap sizing.
  }
}
