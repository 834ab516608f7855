import { Elysia } from "elysia";
import * as v from "valibot";
import { BUSINESS_FIELDS, BUSINESS_PAGE_ERRORS, businessTypedOf } from "../../../shared/business-buyer";
import type { CodeState } from "../../../shared/discount-code";
import { LOCALES, type Locale } from "../../../shared/locales";
import type { SuccessOrder, View } from "../../../shared/page-data";
import { localeOfPath, matchPath, PAGE_IDS, pathFor, type RouteMatch } from "../../../shared/routes";
import type { AppDeps } from "../../deps";
import type { Config } from "../../platform/config";
import { methodNotAllowed } from "../../platform/http/api-paths";
import { requestContext } from "../../platform/http/context";
import { maskPath } from "../../platform/log-mask";
import { readOrderLink } from "../../shop/checkout/order-links";
import { orderPagesLimiter, refundPage } from "../../shop/checkout/refund-controller";
import { successOrder, successOrderByReference } from "../../shop/checkout/success-order";
import { codePreviewLimiter, codeStateFor } from "../../shop/codes/preview";
import { devicesPage } from "../../shop/licenses/devices-controller";
import { partnerOf } from "../../shop/partners/service";
import { reviewPage } from "../../shop/reviews/controller";
import { purchasesInNotice } from "../../shop/social-proof/service";
import { cataloguePage } from "../catalogue/page";
import { legalFacts } from "../legal";
import { serveAsset } from "./static";
import type { StaticPageRef, StaticPages } from "./static-pages";

const PaymentError = v.optional(
  v.picklist([
    "provider",
    "rate-limited",
    "invalid",
    "consent",
    "code-unknown",
    "code-not-started",
    "code-expired",
    "code-used-up",
    ...BUSINESS_PAGE_ERRORS,
  ]),
);
const AccessStatus = v.optional(v.picklist(["sent", "invalid", "rate-limited", "error"]));
const LeadFlag = v.optional(v.picklist(["sent", "invalid", "rate-limited", "error"]));
const SessionId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]{1,255}$/));

/**
 * The view of a page when it depends only on its route, language and query (the flags a plain form
 * post comes back with are picklists, so each page has a few variants at most); null for the
 * success page of an order, which reads the database.
 */
export function staticViewFor(match: RouteMatch, query: URLSearchParams, config: Config): View | null {
  switch (match.page) {
    case "landing": {
      const lead = v.safeParse(LeadFlag, query.get("lead") ?? undefined);
      return { page: "landing", lead: lead.success ? lead.output : undefined };
    }
    case "payment": {
      // A code, or a partner's link that may give one, is checked against the database for the
      // request, its page rendered for it alone; so is the page given back with what a buyer typed
      // in the company section.
      if ((query.get("code") ?? "").trim() !== "" || (query.get("ref") ?? "").trim() !== "") return null;
      if (BUSINESS_FIELDS.some((f) => query.has(f))) return null;
      const error = v.safeParse(PaymentError, query.get("error") ?? undefined);
      return {
        page: "payment",
        error: error.success ? error.output : query.has("error") ? "provider" : undefined,
        // The test checkout's card page says it next to its own name and city fields.
        purchaseNotice: config.stripe !== undefined && purchasesInNotice(config),
        noticeBox: purchasesInNotice(config),
        ...(query.get("countries") === "all" ? { allCountries: true } : {}),
      };
    }
    case "success":
      return query.has("session_id") || query.has("order") ? null : { page: "success", order: { state: "none" } };
    case "canceled":
      return { page: "canceled" };
    case "access": {
      const status = v.safeParse(AccessStatus, query.get("status") ?? undefined);
      return { page: "access", status: status.success ? status.output : undefined };
    }
    case "guide":
      return { page: "guide" };
    case "demo":
      return { page: "demo" };
    case "catalogue":
      // A search is rendered per request (its variants have no end); the page without one is kept.
      return query.size === 0 ? { page: "catalogue", search: { q: "", category: "", page: 1 } } : null;
    case "legal-notice":
      return { page: "legal-notice", legal: legalFacts(config, match.locale) };
    case "terms":
      return { page: "terms", legal: legalFacts(config, match.locale) };
    case "privacy":
      return { page: "privacy", legal: legalFacts(config, match.locale) };
    case "devices":
      // Without a link it only says how to get one; with one, it reads the licence's devices.
      return query.has("t") ? null : { page: "devices", devices: { state: "invalid" } };
    case "refund":
      // Without a link there is no order: the page says where the link is.
      return query.has("t") || query.has("order") ? null : { page: "refund", refund: { state: "invalid" } };
    case "reviews":
      return { page: "reviews" };
    case "review":
      // Without its link there is no order to review: the page says where the link is.
      return query.has("k") || query.has("order") ? null : { page: "review", review: { state: "invalid" } };
  }
}

/**
 * Most requests are a GET of a page without a query, whose view is known before any request: they
 * are answered from memory before Elysia's routing and request context (app.ts), which cost more
 * than the answer itself (security headers are in the page's answer). Undefined for anything else.
 */
export function plainPageAnswers(
  staticPages: StaticPages,
  config: Config,
): { answer: (request: Request) => Response | Promise<Response> | undefined; paths: readonly string[] } {
  const plainPages = new Map<string, { view: View; locale: Locale }>();
  for (const page of PAGE_IDS) {
    for (const locale of LOCALES) {
      const view = staticViewFor({ page, locale }, new URLSearchParams(), config);
      if (view !== null) plainPages.set(pathFor(page, locale), { view, locale });
    }
  }
  const answer = (request: Request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    const path = plainPathOf(request.url);
    const plain = path === null ? undefined : plainPages.get(path);
    // A URL that does not parse (an unusable Host header) is the Host guard's to answer.
    if (plain === undefined || !URL.canParse(request.url)) return undefined;
    return staticPages.respond(request, plain.view, plain.locale);
  };
  return { answer, paths: [...plainPages.keys()] };
}

/** The path of an absolute URL without query (`http://host/en` → `/en`); null when it has one. */
function plainPathOf(url: string): string | null {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1 || url.includes("?", start)) return null;
  return url.slice(start);
}

/** Every page of the route table in every language without a query, and the 404 page: rendered ahead. */
export function staticPageRefs(config: Config): StaticPageRef[] {
  const none = new URLSearchParams();
  const refs: StaticPageRef[] = [];
  for (const locale of LOCALES) {
    for (const page of PAGE_IDS) {
      const view = staticViewFor({ page, locale }, none, config);
      if (view !== null) refs.push({ view, locale });
    }
    refs.push({ view: { page: "not-found" }, locale, status: 404 });
  }
  return refs;
}

/** The site's pages in four languages, the static files, and the 404 page for everything else. */
export function pagesController(deps: AppDeps) {
  const { render, assets, log, staticPages } = deps;

  const limiter = orderPagesLimiter(deps);

  // The success page of an order: rendered per request, never kept by a cache (it shows a licence
  // key). Entered with the provider's `session_id` (the only thing Stripe puts in the return
  // address) or with the order's signed link; every link on it names the order by its reference.
  const orderPage = async (request: Request, locale: Locale, query: URLSearchParams, ip: string) => {
    const allowed = limiter.take(ip);
    let order: SuccessOrder = { state: "unknown" };
    if (allowed.ok && query.has("session_id")) {
      const id = v.safeParse(SessionId, query.get("session_id"));
      if (id.success) order = await successOrder(deps, id.output);
    } else if (allowed.ok) {
      const reference = await readOrderLink(deps.licenseKeys, query);
      if (reference !== null) order = await successOrderByReference(deps, reference);
    }
    const response = await render({
      view: { page: "success", order },
      locale,
      // A reference guessed, counted or without its signature finds nothing, like an unknown page.
      status: allowed.ok ? (order.state === "unknown" && query.has("order") ? 404 : 200) : 429,
      acceptEncoding: request.headers.get("accept-encoding"),
      // Switching language on that page keeps the order it is about, by its reference.
      query: order.state === "paid" ? order.links.query : order.state === "pending" ? order.query : "",
    });
    // The signed link opens the key: no other site learns it from a Referer (and, like every page
    // rendered per request, no cache keeps it: no-store).
    response.headers.set("referrer-policy", "strict-origin");
    if (!allowed.ok) response.headers.set("retry-after", String(allowed.retryAfterSeconds));
    return response;
  };

  // The payment page with `?code=`, or with `?ref=` of a partner: the page of the other flags with
  // the code checked (applied or refused), rendered per request (nothing personal: the same for
  // whoever asks the same code). The code the buyer typed wins; without one, a partner's own code is
  // shown applied, as the payment then applies it (checkout/service.ts), and is left out when it no
  // longer applies (the buyer, who typed none, pays the price). Counted with the code-preview
  // endpoint, so that neither way guesses codes faster.
  const codeLimiter = codePreviewLimiter(deps);
  const paymentWithCode = (request: Request, locale: Locale, query: URLSearchParams, ip: string) => {
    const typed = (query.get("code") ?? "").trim();
    const partner = partnerOf(deps.db, query.get("ref") ?? "");
    const others = new URLSearchParams(query);
    others.delete("code");
    others.delete("ref");
    const business = businessTypedOf(query);
    for (const f of BUSINESS_FIELDS) others.delete(f);
    const base = staticViewFor({ page: "payment", locale }, others, deps.config);
    const given = Object.keys(business).length > 0 ? { business } : {};
    const fromPartner = typed === "" ? (partner?.code ?? null) : null;
    // Only the company's fields given back, or a partner without a code: nothing to check, nothing to count.
    const allowed = typed !== "" || fromPartner !== null ? codeLimiter.take(ip) : { ok: true as const };
    const checked =
      typed !== ""
        ? codeStateFor(deps, typed, locale, allowed.ok)
        : fromPartner !== null
          ? codeStateFor(deps, fromPartner, locale, allowed.ok)
          : undefined;
    const code: CodeState | undefined =
      fromPartner === null || partner === undefined
        ? checked
        : checked?.state === "applied"
          ? { ...checked, partner: partner.name }
          : undefined;
    const payment: View = base?.page === "payment" ? base : { page: "payment", purchaseNotice: false };
    const view: View = {
      ...payment,
      ...(code === undefined ? {} : { code }),
      ...(partner === undefined ? {} : { ref: partner.name }),
      ...given,
    };
    // Switching language keeps the code the buyer typed and the partner.
    const kept = new URLSearchParams();
    if (typed !== "" && code !== undefined) kept.set("code", code.state === "applied" ? code.preview.code : code.code);
    if (partner !== undefined) kept.set("ref", partner.name);
    return render({
      view,
      locale,
      status: allowed.ok ? 200 : 429,
      acceptEncoding: request.headers.get("accept-encoding"),
      query: kept.size === 0 ? "" : `?${kept.toString()}`,
    }).then((response) => {
      if (!allowed.ok) response.headers.set("retry-after", String(allowed.retryAfterSeconds));
      return response;
    });
  };

  const app = new Elysia({ name: "pages" }).use(requestContext(deps.config));
  for (const page of PAGE_IDS) {
    for (const locale of LOCALES) {
      // Most requests have no query: their view is known before any request.
      const plain = staticViewFor({ page, locale }, new URLSearchParams(), deps.config);
      app.get(pathFor(page, locale), ({ request, ip }) => {
        const queryAt = request.url.indexOf("?");
        if (plain !== null && queryAt === -1) return staticPages.respond(request, plain, locale);
        const query = new URLSearchParams(queryAt === -1 ? "" : request.url.slice(queryAt + 1));
        const view = staticViewFor({ page, locale }, query, deps.config);
        if (view !== null) return staticPages.respond(request, view, locale);
        if (page === "devices") return devicesPage(deps, request, locale, query, ip, limiter);
        if (page === "refund") return refundPage(deps, request, locale, query, ip, limiter);
        if (page === "catalogue") return cataloguePage(deps, request, locale, query);
        if (page === "review") return reviewPage(deps, request, locale, query, ip, limiter);
        if (page === "payment") return paymentWithCode(request, locale, query, ip);
        return orderPage(request, locale, query, ip);
      });
    }
  }

  return (
    app
      // Which build answers: a monitor sees a swap happen, and a bug report names the version.
      .get("/healthz", () => ({
        ok: true,
        version: deps.build.version,
        commit: deps.build.commit,
        date: deps.build.date,
        from: deps.build.from,
      }))
      .get("*", ({ request, path }) => {
        if (path.startsWith("/api/")) {
          // The API answers in JSON, also to a GET it does not serve.
          return methodNotAllowed(path, request.method) ?? Response.json({ error: "Not found" }, { status: 404 });
        }
        const asset = assets.get(path);
        if (asset !== undefined) return serveAsset(request, asset);
        // A redundant /fr prefix: send to the canonical path. (Elysia already serves `/en/` as `/en`.)
        const match = matchPath(path) ?? (path === "/fr" || path.startsWith("/fr/") ? matchPath(path.slice(3) || "/") : null);
        // A relative Location: never built from the request's Host header.
        if (match !== null) return new Response(null, { status: 308, headers: { location: pathFor(match.page, match.locale) } });
        return notFound(request, path);
      })
  );

  function notFound(request: Request, path: string) {
    // A probe may send a path of many kilobytes: the log keeps enough of it to recognise (maskPath).
    log.warn("404 page not found", { path: maskPath(path) });
    // The same for every unknown path of a language: rendered once, not once per probe.
    return staticPages.respond(request, { page: "not-found" }, localeOfPath(path), 404);
  }
}
