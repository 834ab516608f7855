import { Elysia } from "elysia";
import * as v from "valibot";
import type { View } from "../../shared/page-data";
import { LOCALES } from "../../shared/locales";
import { localeOfPath, matchPath, pathFor, PAGE_IDS, type RouteMatch } from "../../shared/routes";
import { successOrder } from "../checkout/success-order";
import type { AppDeps } from "../deps";
import { POST_ONLY_API } from "../http/api-paths";
import { legalFacts } from "../legal";
import { requestContext } from "../http/context";
import { serveAsset } from "./static";

const PaymentError = v.optional(v.picklist(["provider", "rate-limited", "invalid", "consent"]));
const AccessStatus = v.optional(v.picklist(["sent", "invalid", "rate-limited", "error"]));
const LeadFlag = v.optional(v.picklist(["sent", "invalid", "rate-limited", "error"]));
const SessionId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]{1,255}$/));

/** The site's pages in four languages, the static files, and the 404 page for everything else. */
export function pagesController(deps: AppDeps) {
  const { render, assets, log } = deps;

  const viewFor = async (match: RouteMatch, url: URL): Promise<View> => {
    switch (match.page) {
      case "landing": {
        const lead = v.safeParse(LeadFlag, url.searchParams.get("lead") ?? undefined);
        return { page: "landing", lead: lead.success ? lead.output : undefined };
      }
      case "payment": {
        const error = v.safeParse(PaymentError, url.searchParams.get("error") ?? undefined);
        return { page: "payment", error: error.success ? error.output : url.searchParams.has("error") ? "provider" : undefined };
      }
      case "success": {
        const raw = url.searchParams.get("session_id");
        const id = raw === null ? null : v.safeParse(SessionId, raw);
        if (id !== null && !id.success) return { page: "success", order: { state: "unknown" } };
        return { page: "success", order: await successOrder(deps, id === null ? null : id.output) };
      }
      case "canceled":
        return { page: "canceled" };
      case "access": {
        const status = v.safeParse(AccessStatus, url.searchParams.get("status") ?? undefined);
        return { page: "access", status: status.success ? status.output : undefined };
      }
      case "guide":
        return { page: "guide" };
      case "legal-notice":
        return { page: "legal-notice", legal: legalFacts(deps.config, match.locale) };
      case "terms":
        return { page: "terms", legal: legalFacts(deps.config, match.locale) };
      case "privacy":
        return { page: "privacy", legal: legalFacts(deps.config, match.locale) };
    }
  };

  const app = new Elysia({ name: "pages" }).use(requestContext(deps.config));
  for (const page of PAGE_IDS) {
    for (const locale of LOCALES) {
      app.get(pathFor(page, locale), async ({ request, nonce }) => {
        const url = new URL(request.url);
        const view = await viewFor({ page, locale }, url);
        const response = await render({
          view,
          locale,
          nonce,
          acceptEncoding: request.headers.get("accept-encoding"),
          // Only the success page with an order depends on the database.
          cacheable: view.page !== "success" || view.order.state === "none",
          // Switching language on that page keeps the order it is about.
          query: view.page === "success" && view.order.state !== "none" ? `?session_id=${encodeURIComponent(url.searchParams.get("session_id") ?? "")}` : undefined,
        });
        // A paid order's page names the buyer's address: no cache, nor the back button, keeps a copy.
        if (view.page === "success" && view.order.state === "paid") response.headers.set("cache-control", "no-store");
        return response;
      });
    }
  }

  return app
    .get("/healthz", () => ({ ok: true }))
    .get("*", ({ request, path, nonce }) => {
      if (path.startsWith("/api/")) {
        // The API answers in JSON, also to a GET it does not serve.
        if (POST_ONLY_API.has(path)) return Response.json({ error: "Method not allowed: use POST" }, { status: 405, headers: { allow: "POST" } });
        return Response.json({ error: "Not found" }, { status: 404 });
      }
      const asset = assets.get(path);
      if (asset !== undefined) return serveAsset(request, asset);
      // A redundant /fr prefix: send to the canonical path. (Elysia already serves `/en/` as `/en`.)
      const match = matchPath(path) ?? (path === "/fr" || path.startsWith("/fr/") ? matchPath(path.slice(3) || "/") : null);
      // A relative Location: never built from the request's Host header.
      if (match !== null) return new Response(null, { status: 308, headers: { location: pathFor(match.page, match.locale) } });
      return notFound(request, path, nonce);
    });

  function notFound(request: Request, path: string, requestNonce: string) {
    // A probe may send a path of many kilobytes: the log keeps enough of it to recognise.
    log.warn("404 page not found", { path: path.length > 200 ? `${path.slice(0, 200)}…` : path });
    return render({
      view: { page: "not-found" },
      locale: localeOfPath(path),
      nonce: requestNonce,
      status: 404,
      acceptEncoding: request.headers.get("accept-encoding"),
      // The same for every unknown path of a language: rendered once, not once per probe.
      cacheable: true,
    });
  }
}
