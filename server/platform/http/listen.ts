import type { App } from "../../app";
import type { Config } from "../config";

/**
 * Listens on the configured port: as the first (or only) process, to `join` the first one's, or
 * to `replace` the server already there (server.json names it: running-server.ts). Sharing uses
 * SO_REUSEPORT, and the kernel spreads connections between the sockets (decision 010); every
 * socket has it, so that a new executable can listen beside the one it replaces. A first process
 * takes the port without it for a moment before its shared socket opens, so a port used by
 * another program, or by a second copy of the site not meant to replace the first, still fails
 * at start-up.
 */
export function listenShared(app: App, config: Pick<Config, "port" | "host">, mode: "first" | "join" | "replace"): { port: number } {
  let port = config.port;
  if (mode === "first") port = probePort(config.host, port);
  app.listen({ port, hostname: config.host, reusePort: true });
  return { port: app.server?.port ?? port };
}

/** The port, free: bound and let go at once without SO_REUSEPORT (port 0: the one the system chose). */
export function probePort(host: string, port: number): number {
  const probe = Bun.listen({ hostname: host, port, socket: { data() {} } });
  const taken = probe.port;
  probe.stop(true);
  return taken;
}

/** The error of a port another socket holds. */
export const isAddressInUse = (error: unknown): boolean =>
  error instanceof Error && ("code" in error ? error.code === "EADDRINUSE" : /EADDRINUSE|in use/i.test(error.message));

/**
 * The address a server listens on, as the start-up line says it: the one given to the socket, not
 * "localhost" (0.0.0.0 is every address of the machine, reachable from outside).
 */
export function listeningUrl(host: string, port: number): string {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${bracketed}:${port}`;
}

/** Whether `host` is every address of the machine (0.0.0.0 or ::), which the start-up line points out. */
export const isEveryAddress = (host: string): boolean => host === "0.0.0.0" || host === "::" || host === "[::]";
