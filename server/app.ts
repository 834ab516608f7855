import { Elysia } from "elysia";
import { localeOfPath, matchPath } from "../shared/routes";
import type { AppDeps } from "./deps";
import { consoleController } from "./owner/console/controller";
import { accessLog } from "./platform/http/access-log";
import { methodNotAllowed } from "./platform/http/api-paths";
import { clientAbortLog } from "./platform/http/client-abort";
import { requestContext } from "./platform/http/context";
import { failureResponder } from "./platform/http/failure";
import { forwardedHeadersGuard, type PeerOf, untrustedForwardedHeadersDropper } from "./platform/http/forwarded";
import { hostGuard } from "./platform/http/host";
import { formBackOf, refusalAnswerOf, refusalOf } from "./platform/http/route-input";
import { sameOriginGuard } from "./platform/http/same-origin";
import { isHttps, securityHeaders } from "./platform/http/security";
import { serveOptions } from "./platform/http/serve-options";
import { beaconController } from "./shop/analytics/controller";
import { chatController } from "./shop/chat/controller";
import { checkoutController } from "./shop/checkout/controller";
import { refundController } from "./shop/checkout/refund-controller";
import { codePreviewController } from "./shop/codes/controller";
import { leadsController } from "./shop/leads/controller";
import { unsubscribeController } from "./shop/leads/unsubscribe";
import { licensesController } from "./shop/licenses/controller";
import { devicesController } from "./shop/licenses/devices-controller";
import { documentsController } from "./shop/paperwork/controller";
import { reviewsController } from "./shop/reviews/controller";
import { socialProofController } from "./shop/social-proof/controller";
import { mediaController } from "./site/catalogue/media-controller";
import { pagesController, plainPageAnswers } from "./site/pages/controller";

/** Builds the whole site as one Elysia app from its dependencies (made by server/wiring.ts). */
export function createApp(deps: AppDeps) {
  const { config, log } = deps;
  const fail = failureResponder(deps);
  const plainPages = plainPageAnswers(deps.staticPages, deps.config);
  // One access-log line and an x-request-id for every answer, whoever gives it.
  const access = accessLog(
    config,
    log,
    (request): Response | Promise<Response> => plainPages.answer(request) ?? app.handle(request),
    deps.drain,
  );
  const dropForwarded = untrustedForwardedHeadersDropper(config);
  // The pages without a query, most of the traffic, are answered from memory before Elysia: Bun
  // routes their paths (GET and HEAD) to this function itself, which costs a third of what the
  // same answer costs through Elysia's request handling (bench/static.ts); a query, or any other
  // method, goes on to Elysia (docs/decisions/010-static-pages-and-processes.md).
  const pageRoute = (request: Request, server: PeerOf): Response | Promise<Response> => {
    dropForwarded(request, server);
    return access.answer(request);
  };
  const routes = Object.fromEntries(plainPages.paths.map((path) => [path, { GET: pageRoute, HEAD: pageRoute }]));
  const app = new Elysia({
    // Route by the path alone. By default Elysia looks for the path from the 12th character of the
    // URL on, so a Host of 1 to 3 characters ("a") shifted routing by one segment (/zz/healthz);
    // with `standardHostname: false` it looks from the 8th, right after "http://". Serving HTTPS
    // itself (DOMAIN), every URL this app sees starts "https://", whose 8th character is the
    // scheme's own slash: every route but the pages answered from memory was a 404. There the
    // 12th character is right (the Host guard lets no Host shorter than 3 characters through).
    handler: { standardHostname: config.tls !== null },
    // Elysia's own router for its routes, not a table of them handed to Bun: Elysia builds that
    // table twice as it starts listening (the second time after it has answered nothing yet), tens
    // of milliseconds before the first request can be answered, for routes that are not the
    // traffic (the pages are Bun's routes above, which this does not change).
    systemRouter: false,
    serve: { ...serveOptions(log), routes },
  })
    // Before anything reads them: forwarded headers from a peer that is not a trusted proxy are dropped.
    .use(forwardedHeadersGuard(config))
    // Then the access log, which answers the pages without a query from memory (for a request
    // that did not come through the page routes above: app.handle in tests).
    .use(access.plugin)
    // Before everything else: a request with an unusable Host has no URL to route by.
    .use(hostGuard(config, (request): Promise<Response> => app.handle(request)))
    .use(sameOriginGuard(config, log))
    .use(clientAbortLog(log))
    // Registered before the controllers: an error hook covers only the routes added after it.
    .onError(async ({ code, error, request, path }) => {
      // Anything that escaped a handler, answered by the responder every controller uses (clients
      // never see a stack trace or an error's text); what is Elysia's own is answered here.
      const headers = { ...securityHeaders(isHttps(request, config.trustProxy)), "cache-control": "no-store" };
      const api = path.startsWith("/api/");
      if (code === "NOT_FOUND") {
        const wrongMethod = methodNotAllowed(path, request.method, headers);
        if (wrongMethod !== null) return wrongMethod;
        if (api) return Response.json({ error: "Not found" }, { status: 404, headers });
        // A page that exists, asked with another method than GET; otherwise a plain 404.
        if (matchPath(path) !== null || deps.assets.get(path) !== undefined) {
          return Response.json({ error: "Method not allowed" }, { status: 405, headers: { ...headers, allow: "GET" } });
        }
        return Response.json({ error: "Not found" }, { status: 404, headers });
      }
      // A refusal of the route's input (route-input.ts): its JSON, as a handler's own refusal.
      const refusal = refusalOf(error, request);
      if (refusal !== null) {
        // A route answering its refusals itself (the console) sets its own headers.
        const own = refusalAnswerOf(request);
        if (own !== undefined) return own(refusal);
        const response = await fail(refusal, { request, locale: localeOfPath(path), what: "request refused", back: formBackOf(request) });
        for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
        return response;
      }
      if (code === "PARSE") return Response.json({ error: "Malformed request body" }, { status: 400, headers });
      if (code === "VALIDATION") return Response.json({ error: "Invalid request" }, { status: 400, headers });
      // The client hung up mid-request: not a server fault (clientAbortLog notes it at debug level).
      if (request.signal.aborted) return Response.json({ error: "Client closed the connection" }, { status: 400, headers });
      const response = await fail(error, {
        request,
        locale: localeOfPath(path),
        what: "request not handled",
        detail: { code },
      });
      for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
      return response;
    })
    .use(requestContext(config))
    .use(leadsController(deps))
    .use(unsubscribeController(deps))
    .use(licensesController(deps))
    .use(devicesController(deps))
    .use(refundController(deps))
    .use(reviewsController(deps))
    .use(documentsController(deps))
    .use(checkoutController(deps))
    .use(codePreviewController(deps))
    .use(chatController(deps))
    .use(socialProofController(deps))
    .use(beaconController(deps))
    .use(consoleController(deps))
    .use(mediaController(deps))
    .use(pagesController(deps));
  return app;
}

export type App = ReturnType<typeof createApp>;
