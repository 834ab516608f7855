import { StorageUnavailableError } from "../../../db/storage";
import type { Locale } from "../../../shared/locales";

// The answer to a write that waited its whole bound for another connection's database lock
// (db/writer.ts), or found the disk full, read-only or failing (db/storage.ts): 503 with
// Retry-After, nothing written. JSON for the API's clients; the site's own
// page for a browser (a form post without JavaScript, a link), never a stack trace.

/** The site's error page, as the site's renderer makes it (the platform knows no more of pages). */
export type ErrorPageRenderer = (options: {
  view: { page: "error"; reason?: "busy" };
  locale: Locale;
  status: number;
  acceptEncoding: string | null;
}) => Promise<Response>;

/** Seconds for the Retry-After header. */
export const busyRetryAfter = (error: unknown) => String(error instanceof StorageUnavailableError ? error.retryAfterSeconds : 5);

export function busyJson(error: unknown): Response {
  return Response.json(
    { error: "The site could not record this right now, and nothing was changed: please try again in a few seconds" },
    { status: 503, headers: { "retry-after": busyRetryAfter(error) } },
  );
}

/** `page`: answer with the error page in `locale` rather than JSON. */
export async function busyAnswer(
  render: ErrorPageRenderer,
  request: Request,
  answer: { page: boolean; locale: Locale },
  error: unknown,
): Promise<Response> {
  if (!answer.page) return busyJson(error);
  const response = await render({
    view: { page: "error", reason: "busy" },
    locale: answer.locale,
    status: 503,
    acceptEncoding: request.headers.get("accept-encoding"),
  });
  response.headers.set("retry-after", busyRetryAfter(error));
  return response;
}

/**
 * A browser's form post (no JavaScript) gets a page; a script's JSON gets JSON. `files`: where a form
 * may also send files (the console's uploads), a multipart post counts too; elsewhere no form of
 * the site sends one, and the endpoint's 415 stands.
 */
export const isFormPost = (request: Request, options: { files?: boolean } = {}) => {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded" || (options.files === true && type === "multipart/form-data");
};
