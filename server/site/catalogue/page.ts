import * as v from "valibot";
import { CatalogueSearchSchema } from "../../../shared/catalogue";
import type { Locale } from "../../../shared/locales";
import type { AppDeps } from "../../deps";

/**
 * The catalogue page with a search (`?q=&category=&page=`, a plain GET form): rendered per request,
 * the same bytes for every visitor who asks the same. A query that does not read (a page number of
 * letters, a search too long) is the page without it, never an error.
 */
export function cataloguePage(deps: AppDeps, request: Request, locale: Locale, query: URLSearchParams): Promise<Response> {
  const parsed = v.safeParse(CatalogueSearchSchema, {
    q: query.get("q") ?? undefined,
    category: query.get("category") ?? undefined,
    page: query.get("page") ?? undefined,
  });
  const search = parsed.success ? parsed.output : { q: "", category: "", page: 1 };
  return deps.render({ view: { page: "catalogue", search }, locale, acceptEncoding: request.headers.get("accept-encoding") });
}
