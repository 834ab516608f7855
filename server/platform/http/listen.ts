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
  try {
    if (mode === "first") {
      const probe = Bun.listen({ hostname: config.host, port, socket: { data() {} } });
      port = probe.port;
      probe.stop(true);
    }
    app.listen({ port, hostname: config.host, reusePort: shared });
  } catch (error) {
    throw ListenError.from(error, config) ?? error;
  }
  return { port: app.server?.port ?? port };
}

/**
 * The port cannot be had: another program holds it, or it needs privileges this user lacks. The
 * owner reads one line naming the port and the setting to change (the entry prints the message and
 * exits), not a stack trace.
 */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }

  static from(error: unknown, config: Pick<Config, "port" | "host">): ListenError | null {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    const where = `port ${config.port}${config.host === "0.0.0.0" ? "" : ` on ${config.host}`}`;
    if (code === "EADDRINUSE")
      return new ListenError(
        `Cannot start: ${where} is already in use by another program (or another copy of the site): stop it, or set PORT to a free port.`,
      );
    if (code === "EACCES")
      return new ListenError(
        `Cannot start: ${where} needs privileges this user does not have: set PORT to 1024 or above (and put a proxy in front), or grant the privilege.`,
      );
    if (code === "EADDRNOTAVAIL")
      return new ListenError(
        `Cannot start: ${config.host} is not an address of this machine: set HOST to one of its addresses (or 0.0.0.0).`,
      );
    return null;
  }
}
