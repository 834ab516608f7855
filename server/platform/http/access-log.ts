import { Elysia } from "elysia";
import type { Config } from "../config";
import type { Logger } from "../log";
import { maskPath } from "../log-mask";
import type { Drain } from "./drain";

export const REQUEST_ID_HEADER = "x-request-id";

/** An id a proxy may hand us: a short token that cannot break a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/**
 * One access-log line per request (method, path without the query, status, duration in ms until
 * the response headers, request id) and the id echoed in `x-request-id`. A proxy's id is kept only
 * behind a trusted proxy (TRUST_PROXY), otherwise any client could choose what the log says.
 *
 * Registered first, it answers every request by passing it to the app itself (`dispatch`) and
 * waiting for the response: Elysia's after-response hooks do not see the real status of a 404 or of
 * a response returned from an onRequest hook (the Host guard's 400), and the log must be exact.
 */
export function accessLog(
  config: Pick<Config, "trustProxy">,
  log: Logger,
  dispatch: (request: Request) => Response | Promise<Response>,
  drain?: Pick<Drain, "closing" | "answered">,
) {
  const dispatching = new WeakSet<Request>();
  // Not an async function: a page answered from memory is logged and returned in the same turn,
  // without a promise (under load every object a request leaves behind is memory until collected).
  // The answer, its log line and its id; also for a request Bun hands over without Elysia (app.ts's
  // page routes): whatever it passes on to Elysia is then not logged twice.
  const answer = (request: Request): Response | Promise<Response> => {
    dispatching.add(request);
    const started = performance.now();
    const incoming = config.trustProxy ? request.headers.get(REQUEST_ID_HEADER) : null;
    const requestId = incoming !== null && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    const done = (response: Response) => {
      // The Host guard re-dispatches a request without Host as a new one: that pass logged it.
      if (response.headers.has(REQUEST_ID_HEADER)) return response;
      logLine(log, request, started, requestId, response.status);
      const answered = withHeader(response, REQUEST_ID_HEADER, requestId);
      if (drain === undefined) return answered;
      // When a connection last answered and stayed open, so that a stop waits until it rests (drain.ts).
      drain.answered();
      // Stopping: the client's next request goes on a new connection, to a process still listening.
      return drain.closing ? withHeader(answered, "connection", "close") : answered;
    };
    const failed = (error: unknown): never => {
      logLine(log, request, started, requestId, 500);
      throw error;
    };
    let response: Response | Promise<Response>;
    try {
      response = dispatch(request);
    } catch (error) {
      return failed(error);
    }
    return response instanceof Response ? done(response) : response.then(done, failed);
  };
  const plugin = new Elysia({ name: "access-log" }).onRequest(({ request }): Response | Promise<Response> | undefined =>
    dispatching.has(request) ? undefined : answer(request),
  );
  return { plugin, answer };
}

function logLine(log: Logger, request: Request, started: number, requestId: string, status: number): void {
  log.request({
    method: request.method,
    path: pathOf(request.url),
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    requestId,
  });
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (Response.redirect, a fetched response): the same answer, with the header.
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** A path that URL parsing would leave as it is (no dot segments, escapes or characters to escape). */
const PLAIN_PATH = /^\/[A-Za-z0-9/_-]{0,200}$/;

/**
 * The path alone (a query may carry a token), at most 200 characters, with the capabilities a path
 * may hold masked (an invite, a checkout id: maskPath); the raw URL if unparsable.
 */
const pathOf = (url: string): string => {
  const raw = rawPathOf(url);
  if (CLEAN_PATHS.has(raw)) return raw;
  const masked = maskPath(raw);
  // Remembered only when masking changed nothing (no capability is kept), a few hundred at most.
  if (masked === raw) {
    if (CLEAN_PATHS.size >= 512) CLEAN_PATHS.clear();
    CLEAN_PATHS.add(raw);
  }
  return masked;
};

/** Paths masking leaves as they are (the pages, mostly): masked once, not on every request. */
const CLEAN_PATHS = new Set<string>();

function rawPathOf(url: string): string {
  // Most requests: cut the path out of the URL instead of parsing it.
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const queryAt = url.indexOf("?", start);
  const plain = start === -1 ? "" : url.slice(start, queryAt === -1 ? undefined : queryAt);
  if (PLAIN_PATH.test(plain)) return plain;
  return URL.canParse(url) ? new URL(url).pathname : (url.split("?")[0] ?? "");
}
