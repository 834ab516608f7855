import { isStorageUnavailable, storageProblem } from "../../../db/storage";
import { errorText } from "../../../shared/error-text";
import type { Locale } from "../../../shared/locales";
import type { Logger } from "../log";
import { maskPath } from "../log-mask";
import { HttpError, jsonError } from "./body";
import { busyAnswer, type ErrorPageRenderer, isFormPost } from "./busy";

/** Why a form post is sent back to its page (each form names its flags itself). */
export type FormRefusal = "invalid" | "rate-limited" | "error";

export type Failure = {
  request: Request;
  /** The language of the page a browser gets. */
  locale: Locale;
  /** What was not done, for the log: "lead not stored". */
  what: string;
  /** A form post's way back to its own page, saying why; without it, a form post gets the error page. */
  back?: (why: FormRefusal) => Response;
  /**
   * The answer (503) to an endpoint's script when something else failed, which tells it to try
   * again (a form post goes back to its page); without it such a failure is a 500, JSON for the
   * API and the error page for the rest.
   */
  unavailable?: string;
  /** More for the log line (Elysia's error code, the event not applied). */
  detail?: Record<string, unknown>;
};

/**
 * The one answer to a request that failed, for the app's error hook and every controller alike:
 * - a refusal (HttpError: too large, wrong type, invalid, rate-limited...): its JSON, or a form
 *   post sent back to its page;
 * - the database or the disk unavailable (locked past the wait, full, read-only): nothing was
 *   written, 503 with Retry-After (db/storage.ts);
 * - anything else: logged, and the client told without a stack trace or the error's text.
 */
export function failureResponder(deps: { log: Logger; render: ErrorPageRenderer }) {
  const { log, render } = deps;
  return async (error: unknown, failure: Failure): Promise<Response> => {
    const { request, locale, back } = failure;
    const form = isFormPost(request);
    const path = new URL(request.url).pathname;
    // A browser gets a page: a form post, or anything outside the API.
    const page = form || !path.startsWith("/api/");
    if (error instanceof HttpError) {
      if (back !== undefined && form) return back(error.status === 429 ? "rate-limited" : "invalid");
      return jsonError(error);
    }
    if (isStorageUnavailable(error)) {
      const { level, problem } = storageProblem(error);
      log[level](`${failure.what}: ${problem}`, { path: maskPath(path), ...failure.detail, error: errorText(error) });
      return busyAnswer(render, request, { page, locale }, error);
    }
    const logged = {
      path: maskPath(path),
      ...failure.detail,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
    if (failure.unavailable !== undefined) {
      log.error(failure.what, logged);
      if (back !== undefined && form) return back("error");
      return Response.json({ error: failure.unavailable }, { status: 503 });
    }
    // A 500 is a fault of this program: named so in the log, whatever the request was for.
    log.error("unhandled error", { ...logged, while: failure.what });
    if (path.startsWith("/api/")) return Response.json({ error: "Internal error" }, { status: 500 });
    return render({ view: { page: "error" }, locale, status: 500, acceptEncoding: request.headers.get("accept-encoding") });
  };
}
