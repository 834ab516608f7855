import { Elysia } from "elysia";
import type { Logger } from "../log";
import { maskPath } from "../log-mask";

/**
 * A visitor who closes the page mid-request (or a client that drops mid-upload) is not a server
 * fault: one debug line, whatever the endpoint, so that nobody can fill the error log by hanging up.
 */
export function clientAbortLog(log: Logger) {
  return new Elysia({ name: "client-abort-log" }).onAfterResponse({ as: "global" }, ({ request, path }) => {
    if (request.signal.aborted) log.debug("client closed the connection", { method: request.method, path: maskPath(path) });
  });
}
