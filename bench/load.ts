// A small closed-loop load generator shared by the bench scripts: `concurrency` clients each send
// one request after the other for `seconds`, and every latency is recorded.

export type LoadResult = {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
};

export async function runLoad(options: {
  concurrency: number;
  seconds: number;
  request: (client: number, i: number) => Promise<Response>;
  ok?: (response: Response) => boolean;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const ok = options.ok ?? ((r: Response) => r.ok);
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, client) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t0 = performance.now();
        try {
          const response = await options.request(client, i);
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          if (!ok(response)) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), statuses };
}

export const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.requests} requests, ${r.errors} errors)`;

/**
 * Starts a server as its own process on a loopback port (`env.PORT`, or a random one; `cmd`: the
 * executable, or `bun run server/main.ts`) and resolves once it answers /healthz.
 */
export async function startBenchServer(
  cmd: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = env.PORT !== undefined ? Number(env.PORT) : 3900 + Math.floor(Math.random() * 99);
  const server = Bun.spawn(cmd, {
    cwd,
    env: { PATH: process.env.PATH ?? "", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "error", ...env },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (i === 299) throw new Error(`server did not answer ${base}/healthz`);
    await Bun.sleep(100);
  }
  return {
    base,
    stop: async () => {
      server.kill();
      await server.exited;
    },
  };
}
