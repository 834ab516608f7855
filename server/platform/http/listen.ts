import type { App } from "../../app";
import type { Config } from "../config";

/**
 * Listens on the configured port: `alone` (one process), as the `first` of processes sharing the
 * port, or to `join` the first one's. Sharing uses SO_REUSEPORT, and the kernel spreads connections
 * between the processes (decision 010). Elysia turns SO_REUSEPORT on by default, which would let a
 * second copy of the site (or any program of the same user) share the port silently instead of
 * failing: alone, it is off; first, the port is taken without it before the shared socket opens, so
 * a port in use still fails at start-up.
 */
export function listenShared(app: App, config: Pick<Config, "port" | "host">, mode: "alone" | "first" | "join"): { port: number } {
  let port = config.port;
  const shared = mode !== "alone";
  if (mode === "first") {
    const probe = Bun.listen({ hostname: config.host, port, socket: { data() {} } });
    port = probe.port;
    probe.stop(true);
  }
  app.listen({ port, hostname: config.host, reusePort: shared });
  return { port: app.server?.port ?? port };
}
