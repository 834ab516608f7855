import { isBusyError } from "../../../db/writer";
import { createTranslator } from "../../../shared/i18n";
import { formatsFor } from "../../../shared/owner-formats";
import type { AppDeps } from "../../deps";
import { type BodyKind, HttpError } from "../../platform/http/body";
import { isFormPost } from "../../platform/http/busy";
import { answeredBy, bodyParser, type ParseContext, type RefusalAnswer } from "../../platform/http/route-input";
import { COMPILED } from "../../site/locales";
import { html, isHttps, json, ownerLocale, readSessionToken, redirect } from "./http";
import { ConsoleRefusal } from "./refusal";
import { findSession, type OwnerSession, touchSession } from "./sessions";
import { messagePage } from "./views/auth-pages";
import type { PageContext } from "./views/layout";

/** A console body is a few short fields (or a WebAuthn answer, a few kilobytes). */
export const CONSOLE_MAX_BODY_BYTES = 16 * 1024;

export type Owner = { session: OwnerSession };

/** What every console route shares: the bundle, the owner's language and session, the answers. */
export type ConsoleKit = ReturnType<typeof consoleKit>;

export function consoleKit(deps: AppDeps) {
  const { config } = deps;
  const assets = deps.consoleBundle;
  const https = (request: Request) => isHttps(request, config.trustProxy);

  const page = async (request: Request): Promise<PageContext> => {
    const locale = ownerLocale(request);
    const { script, style } = await assets();
    return {
      t: createTranslator(locale, COMPILED[locale], { siteName: deps.content.current().site.name }),
      locale,
      fmt: formatsFor(locale),
      script,
      style,
      build: deps.build,
    };
  };

  /** The live session the request's cookie names, kept alive; null without one. */
  const owner = async (request: Request): Promise<Owner | null> => {
    const token = readSessionToken(request, https(request));
    if (token === null) return null;
    const now = deps.now();
    const session = findSession(deps.db, token, now);
    if (session === null) return null;
    try {
      await touchSession(deps.write, session, now);
    } catch (error) {
      // Reading stays possible while another program holds the lock; the next request touches it.
      if (!isBusyError(error)) throw error;
    }
    return { session };
  };

  /** The owner's language's texts, for an answer that is not a whole page. */
  const translate = (request: Request) => {
    const locale = ownerLocale(request);
    return createTranslator(locale, COMPILED[locale], { siteName: deps.content.current().site.name });
  };

  /**
   * Without a session. A page (asked for its body or only its headers) goes to the sign-in page,
   * which says the session is over when the browser still held one. A form posted from a console
   * page left open past its session gets a page saying so, with the way back in; anything else (the
   * console's script, a program) JSON. Both are 401.
   */
  const refuse = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const held = readSessionToken(request, https(request)) !== null;
    const api = url.pathname.startsWith("/admin/api/");
    if ((request.method === "GET" || request.method === "HEAD") && !api)
      return redirect(held ? "/admin/sign-in?notice=expired" : "/admin/sign-in", https(request));
    if (isFormPost(request, { files: true }) && !api) {
      const ctx = await page(request);
      const text = ctx.t(held ? "admin.signIn.expired" : "admin.error.signInFirst");
      return html(
        messagePage(ctx, ctx.t("admin.signIn.title"), text, { href: "/admin/sign-in", label: ctx.t("admin.signIn.title") }),
        https(request),
        401,
      );
    }
    return json({ error: translate(request)("admin.error.signInFirst") }, https(request), 401);
  };

  /** Runs a route's work for the signed-in owner only, a refusal it throws answered as `failure` does. */
  const asOwner = async (request: Request, run: (owner: Owner) => Promise<Response>): Promise<Response> => {
    const found = await owner(request);
    if (found === null) return refuse(request);
    try {
      return await run(found);
    } catch (error) {
      return failure(request, error);
    }
  };

  /** A route for the signed-in owner only, whose input is the request alone. */
  const signedIn =
    (run: (request: Request, owner: Owner) => Promise<Response>) =>
    ({ request }: { request: Request }): Promise<Response> =>
      asOwner(request, (found) => run(request, found));

  /** The page of a console address that does not exist (or whose id cannot be one). */
  const notFound = async (request: Request): Promise<Response> => {
    const ctx = await page(request);
    const back = { href: "/admin", label: ctx.t("admin.refused.back") };
    return html(messagePage(ctx, ctx.t("admin.notFound.title"), ctx.t("admin.notFound.text"), back), https(request), 404);
  };

  /**
   * The answer to a signed-in route's refused input (route-input.ts): without a session, the same
   * refusal as for any other request (nothing about the input is told); an id in the path that
   * cannot be one, the page that does not exist; anything else, `failure`'s page or JSON.
   */
  const refused: RefusalAnswer = async (refusal, request) => {
    if ((await owner(request)) === null) return refuse(request);
    if (refusal.status === 404) return notFound(request);
    return failure(request, refusal);
  };

  /**
   * A console route's `parse` hook: the body read by the site's parser within the console's limit,
   * form posts unless told, each refusal answered the console's way (400 for any invalid field: the
   * console's own pages never send one, so it gets one general reason). An open route (signing in)
   * names its own answer and may count a rate limit before the body is read.
   */
  const input = (
    options: { accept?: BodyKind[]; maxBytes?: number; answer?: RefusalAnswer; before?: (context: ParseContext) => void } = {},
  ) =>
    bodyParser({
      maxBytes: options.maxBytes ?? CONSOLE_MAX_BODY_BYTES,
      accept: options.accept ?? ["form"],
      failedCheck: 400,
      answer: options.answer ?? refused,
      before: options.before,
    });

  /** A signed-in route without a body whose path or query is checked: its refusals answered as `refused`. */
  const checked = answeredBy(refused, 400);

  /**
   * A refused request as the client expects it: JSON for the console's API, a page otherwise, in the
   * owner's language. A request the console's own pages never send (a body that cannot be read, a
   * field of the wrong shape) gets one general reason.
   */
  const failure = async (request: Request, error: unknown): Promise<Response> => {
    if (!(error instanceof HttpError)) throw error;
    const t = translate(request);
    const reason = error instanceof ConsoleRefusal ? t(error.key, error.values) : t("admin.error.badRequest");
    const url = new URL(request.url);
    if (url.pathname.startsWith("/admin/api/")) return json({ error: reason }, https(request), error.status, error.headers);
    const ctx = await page(request);
    return html(
      messagePage(ctx, ctx.t("admin.refused.title"), reason, { href: "/admin", label: ctx.t("admin.refused.back") }),
      https(request),
      error.status,
      error.headers,
    );
  };

  return { assets, https, page, owner, refuse, asOwner, signedIn, notFound, refused, failure, input, checked };
}
