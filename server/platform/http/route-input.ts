import { ParseError, ValidationError } from "elysia";
import type { Server } from "elysia/universal";
import * as v from "valibot";
import { type BodyKind, HttpError, readBody } from "./body";
import { isFormPost } from "./busy";
import type { FormRefusal } from "./failure";
import type { RateLimiter } from "./rate-limit";

/** What a parse hook gets from Elysia that ours use: the request, and the server for its address. */
export type ParseContext = { request: Request; server: Pick<Server, "requestIP"> | null };

/**
 * How a route reads its input. The body is read by our own parser, given to Elysia as the route's
 * `parse` hook with the route's size limit (413 too large, 415 wrong type, 400 unreadable, the same
 * for every route); `body`, `params` and `query` are valibot schemas declared on the route (Elysia
 * takes them as Standard Schema) and the handler receives their typed output. A refusal is answered
 * once, by the app's error hook, through `refusalOf`.
 *
 * Kept outside on purpose, each reading its own bytes: the Stripe webhook (its signature covers the
 * raw body, readRawBody), file uploads (multipart, with their own limit, readUpload), and the plain
 * pages answered from memory before Elysia routes anything (access-log.ts, plainPageAnswers); the
 * one-click stop links (the leads' unsubscribe, the review e-mails' stop), which act on whatever a
 * mail client posts, any body or none.
 */
export function bodyParser(options: {
  maxBytes: number;
  accept?: BodyKind[];
  /**
   * Runs before a byte of the body is read and refuses by throwing an HttpError: a rate limit counted
   * there makes a flood cost almost nothing (a form post's small body is still read, for its way back).
   */
  before?: (context: ParseContext) => void;
  /** A form post's way back to its page when its input is refused, from what it sent (its language). */
  back?: FormBack;
  /**
   * The status of a field that fails a check: 422, or 400 where the clients have always been told
   * 400 for any invalid body (the lead form, the chat, the payment).
   */
  failedCheck?: 400 | 422;
  /** The route's own answer to a refusal (the console's pages), instead of the JSON or the way back. */
  answer?: RefusalAnswer;
}) {
  return async (context: ParseContext): Promise<unknown> => {
    const { request } = context;
    const input: RouteInput = {
      back: options.back !== undefined && isFormPost(request) ? options.back : undefined,
      sent: undefined,
      failedCheck: options.failedCheck ?? 422,
      answer: options.answer,
    };
    inputs.set(request, input);
    try {
      options.before?.(context);
    } catch (error) {
      if (input.back !== undefined) input.sent = (await readBody(request, { ...options, accept: ["form"] }).catch(() => null))?.value;
      throw error;
    }
    const { value } = await readBody(request, options);
    input.sent = value;
    return value;
  };
}

/**
 * A `before` that counts the request against rate limiters by its client's address: past one, 429
 * with Retry-After and the route's message, or the route's own refusal (the console's, translated).
 */
export function countedBy(
  clientIp: (context: ParseContext) => string,
  limiters: RateLimiter[],
  message: (retryAfterSeconds: number) => string | HttpError,
  now?: () => number,
) {
  return (context: ParseContext): void => {
    const at = now?.();
    for (const limiter of limiters) {
      const allowed = limiter.take(clientIp(context), at);
      if (!allowed.ok) {
        const refusal = message(allowed.retryAfterSeconds);
        if (refusal instanceof HttpError) throw refusal;
        throw new HttpError(429, refusal, { "retry-after": String(allowed.retryAfterSeconds) });
      }
    }
  };
}

export type FormBack = (sent: unknown, why: FormRefusal) => Response;

/**
 * A route's own answer to its refused input, given the refusal (413, 415, 400, 422, 429, or 404 for a
 * path parameter that does not match) and what was sent when the body could be read (undefined when
 * it could not, or before it was): the console answers with its pages in the owner's language.
 */
export type RefusalAnswer = (refusal: HttpError, request: Request, sent: unknown) => Response | Promise<Response>;

type RouteInput = { back: FormBack | undefined; sent: unknown; failedCheck: 400 | 422; answer: RefusalAnswer | undefined };

/**
 * For a route without a body (its `params` or `query` declared), a `transform` hook naming its own
 * answer to a refusal: it runs before Elysia checks them. A route with a body names it in bodyParser.
 */
export function answeredBy(answer: RefusalAnswer, failedCheck: 400 | 422 = 422) {
  return ({ request }: { request: Request }): void => {
    if (!inputs.has(request)) inputs.set(request, { back: undefined, sent: undefined, failedCheck, answer });
  };
}

/** The route's own answer to a refusal of its input (bodyParser's or answeredBy's `answer`), for the error hook. */
export function refusalAnswerOf(request: Request): ((refusal: HttpError) => Response | Promise<Response>) | undefined {
  const input = inputs.get(request);
  const answer = input?.answer;
  return answer === undefined ? undefined : (refusal) => answer(refusal, request, input?.sent);
}

/** The requests whose body is being read, with what they sent, for the answer to a refusal. */
const inputs = new WeakMap<Request, RouteInput>();

/** The way back of a form post whose route declared one (bodyParser's `back`), for the error hook. */
export function formBackOf(request: Request): ((why: FormRefusal) => Response) | undefined {
  const input = inputs.get(request);
  const back = input?.back;
  return back === undefined ? undefined : (why) => back(input?.sent, why);
}

/** What Elysia hands the error hook about a valibot issue (the first one), read without trusting it. */
const IssueShape = v.object({
  kind: v.string(),
  message: v.string(),
  path: v.optional(v.array(v.object({ key: v.unknown() }))),
});

/**
 * The refusal behind an error of the route's input, or null for any other error: what our parser
 * threw (Elysia wraps it); a `params` that does not match is a page that does not exist (404); a
 * body or query of the wrong shape (not an object, a field missing or of another type) is a 400 and
 * a field of the right type whose value cannot be right (a failed check) a 422.
 */
export function refusalOf(error: unknown, request: Request): HttpError | null {
  if (error instanceof ParseError && error.cause instanceof HttpError) return error.cause;
  if (!(error instanceof ValidationError)) return null;
  if (error.type === "params") return new HttpError(404, "Not found");
  const issue = v.safeParse(IssueShape, error.valueError);
  if (!issue.success) return new HttpError(400, "Invalid request");
  const keys = issue.output.path?.map((item) => item.key) ?? [];
  const path = keys.every((key) => typeof key === "string" || typeof key === "number") ? keys.join(".") : "";
  const { kind, message } = issue.output;
  const failedCheck = inputs.get(request)?.failedCheck ?? 422;
  return new HttpError(kind === "validation" ? failedCheck : 400, path ? `${path}: ${message}` : message);
}

/**
 * A query parameter naming one of a few words (a page's notice after a change): any other value, or
 * none, is null. A page ignores what it does not know rather than refusing the address, which is no
 * place for free text to be shown.
 */
export const queryWord = <const T extends readonly string[]>(words: T) => v.fallback(v.nullable(v.picklist(words)), null);

/** A row's id in a path (/admin/orders/12): digits only, else the page does not exist (404). */
export const IdParam = v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number));

/** A path with a row's id, `:id`: typed as a number, else 404. */
export const IdParams = v.object({ id: IdParam });

/** A count in the address (what a page says after a change: "3 removed"), at most `digits` long, else null. */
export const queryCount = (digits: number) =>
  v.fallback(v.nullable(v.pipe(v.string(), v.regex(new RegExp(`^\\d{1,${digits}}$`)), v.transform(Number))), null);
