import type { Logger } from "../log";
import { securityHeaders } from "./security";

/**
 * Bun's own limit on a request body, far above every endpoint's (each reads at most a few KB, the
 * webhook 512 KB, and answers 413 past its limit). Past Bun's limit, Bun closes the connection while
 * the client is still sending, and the client sees a reset instead of an answer; below it, the
 * endpoint reads and drops the rest of the body (never kept in memory) and its 413 reaches the client.
 */
// Above the console's largest upload (a catalogue's posters, a demo video): each endpoint keeps its own, smaller limit.
export const SERVER_MAX_BODY_BYTES = 192 * 1024 * 1024;

/**
 * Options for Bun.serve, whatever starts the server. Never Bun's development error page (it shows
 * the server's source code): anything that escapes the app's own error handling gets a plain 500.
 */
export function serveOptions(log: Logger) {
  return {
    development: false,
    maxRequestBodySize: SERVER_MAX_BODY_BYTES,
    error(error: Error): Response {
      log.error("unhandled server error", { error: error.stack ?? error.message });
      return Response.json({ error: "Internal error" }, { status: 500, headers: securityHeaders(false) });
    },
  };
}
