// Settings of the JavaScript engine (JavaScriptCore) for the site's server processes, which the
// runtime reads from the environment only as it starts. Measured with bench/static.ts (2 processes,
// 50 connections): the first two brought each process's peak resident memory under load from about
// 120 MB to 95 (105-110 as the site grew), the third from 105-110 to 90-98, at the same requests
// per second and CPU per request.
// - forceRAMSize: JSC sizes its heap from the machine's memory. On a machine with many GB it lets
//   the garbage of a burst of requests (each answered page leaves a request, a response and its
//   headers behind) pile up by tens of MB per process before collecting; the site keeps far less
//   alive, so its heap is sized as on a 512 MB server.
// - useFTLJIT=0: JSC's last optimising tier compiles the hottest functions again at a cost of
//   several MB per process (its compiler's memory and code), for no measurable gain on what the
//   site runs: answering a page from memory is done by then at the tier below.
// - smallHeapGrowthFactor=1.1: after a full collection JSC lets a small heap grow to twice what
//   was left alive before the next one. The site keeps little alive and a burst of requests fills
//   the rest with garbage: a tenth more instead of double takes 10-15 MB off each process's peak
//   (1.25 took a little less; the eden size, largeHeapSize, made no difference, nor did mimalloc's
//   purge delay, MIMALLOC_PURGE_DELAY=0).
// The server re-executes itself once with them set (same process id, so a service manager sees no
// change) before loading anything else; workers and the page renderer inherit them.

/** The engine's settings and their values; one the owner set in the environment is kept as it is. */
export const ENGINE_SETTINGS: Readonly<Record<string, string>> = {
  BUN_JSC_forceRAMSize: String(512 * 1024 * 1024),
  BUN_JSC_useFTLJIT: "0",
  BUN_JSC_smallHeapGrowthFactor: "1.1",
};

/**
 * Replaces this process with `self` (this program, with the same arguments) run with the engine
 * settings, unless they are all set already. Returns (and the process goes on as started) when they
 * are, when the runtime was started with flags of its own (`--watch`, `--inspect`: a new process
 * would lose them), or when the platform cannot replace a process.
 */
export function startWithEngineSettings(self: readonly string[]): void {
  const [file] = self;
  const missing = Object.entries(ENGINE_SETTINGS).filter(([name]) => process.env[name] === undefined);
  if (file === undefined || missing.length === 0 || process.execArgv.length > 0) return;
  if (typeof process.execve !== "function") return;
  try {
    process.execve(file, [...self], { ...process.env, ...Object.fromEntries(missing) });
  } catch {
    // Not replaced (execve failed): the same site, with the engine's own defaults.
  }
}

/**
 * JavaScriptCore's usual tier-up thresholds, from now on. The executable starts with them scaled by
 * `START_JIT_POLICY` (scripts/build.ts): most of a start is code that runs once (modules, routes,
 * the first page's data), which the engine would otherwise compile for nothing. Each process calls
 * this once it answers requests, whose code runs again and again. A no-op run from source.
 */
export function jitAsUsual(): void {
  Bun.unsafe.setJITPolicy(1);
}

/**
 * How many times more reluctant to compile JavaScriptCore is while a process starts (see
 * `jitAsUsual`). Measured with the executable, starts to the first 200 interleaved (median of 10,
 * 2 cores): CPU at `listening` 444 ms at 1, 362 at 8, 324 at 100, 316 at 1,000 (a restart's first
 * 200 after 373, 322, 312 and 304 ms).
 */
export const START_JIT_POLICY = 100;
