import { Elysia } from "elysia";
import type { AppDeps } from "../../deps";
import { pickEncoding } from "../../platform/http/accept-encoding";
import { requestContext } from "../../platform/http/context";
import { publishedFacts } from "../../site/content/live";
import { audienceReport } from "./audience";
import { authRoutes } from "./auth-routes";
import { etagOf } from "./bundle";
import { catalogueRoutes } from "./catalogue-routes";
import { codeRoutes } from "./code-routes";
import { contentRoutes } from "./content-routes";
import { compressAnswer, consoleHeaders, html } from "./http";
import { consoleKit } from "./kit";
import { orderRoutes } from "./order-routes";
import { countsTestOrders, overview } from "./overview";
import { partnerRoutes } from "./partner-routes";
import { audiencePage } from "./views/audience";

/** How old today's audience totals may be when the owner opens the page. */
const AUDIENCE_FRESH_MS = 5_000;

import { guideRoutes } from "./guide-routes";
import { peopleRoutes } from "./people-routes";
import { reviewRoutes } from "./review-routes";
import { securityRoutes } from "./security-routes";
import { overviewPage } from "./views/overview";

/**
 * The owner's console under /admin. Only the sign-in page, the invite page, the passkey ceremonies
 * and the console's own script are reachable without a session; every other page redirects to the
 * sign-in page and every other endpoint answers 401.
 */
export function consoleController(deps: AppDeps) {
  const kit = consoleKit(deps);
  // Reads no body: Elysia then parses none, whatever was sent.
  const notFound = kit.signedIn(kit.notFound);
  return (
    new Elysia({ name: "owner-console" })
      .use(requestContext(deps.config))
      // Every answer of the routes below and of the plugins used after this line, the pages above all.
      .onAfterHandle(async ({ request, response }) => (response instanceof Response ? compressAnswer(request, response) : undefined))
      .get("/admin/assets/:name", async ({ request, params }) => {
        const file = (await kit.assets()).get(`/admin/assets/${params.name}`);
        const https = kit.https(request);
        if (file === undefined) return new Response("Not found", { status: 404, headers: consoleHeaders(https) });
        const encoding = pickEncoding(request.headers.get("accept-encoding"));
        const body = encoding === null ? file.body : (file[encoding] ?? file.body);
        return new Response(body, {
          headers: {
            ...consoleHeaders(https),
            ...(encoding !== null && body !== file.body ? { "content-encoding": encoding } : {}),
            vary: "accept-encoding",
            "content-type": file.type,
            etag: etagOf(file.body),
            // The name carries the content's hash: a new build is a new name.
            "cache-control": "public, max-age=31536000, immutable",
          },
        });
      })
      .use(authRoutes(deps, kit))
      .use(securityRoutes(deps, kit))
      .use(orderRoutes(deps, kit))
      .use(codeRoutes(deps, kit))
      .use(partnerRoutes(deps, kit))
      .use(peopleRoutes(deps, kit))
      .use(reviewRoutes(deps, kit))
      .use(contentRoutes(deps, kit))
      .use(guideRoutes(deps, kit))
      .use(catalogueRoutes(deps, kit))
      // Anything else under /admin: refused without a session, "not found" with one.
      // One route per method: Elysia prefers the site's GET "*" to an ALL "/admin/*".
      .get(
        "/admin",
        kit.signedIn(async (request) => {
          const now = deps.now();
          return html(
            overviewPage(
              await kit.page(request),
              overview(deps.db, deps.config, now, deps.content.current().site, publishedFacts(deps.content.current())),
              now,
            ),
            kit.https(request),
          );
        }),
      )
      .get(
        "/admin/audience",
        kit.signedIn(async (request) => {
          // Today's totals at most a few seconds old (the first process redoes them every minute).
          await deps.analytics.rollUpIfStale(AUDIENCE_FRESH_MS);
          const report = audienceReport(
            deps.db,
            deps.now(),
            deps.content.current().site.currency,
            deps.config.analyticsMaxEventsPerDay,
            countsTestOrders(deps.config),
          );
          return html(audiencePage(await kit.page(request), report), kit.https(request));
        }),
      )
      .get("/admin/*", notFound)
      .post("/admin/*", notFound)
  );
}
