import { count } from "drizzle-orm";
import { Elysia } from "elysia";
import * as v from "valibot";
import { ownerPasskeys } from "../../../db/schema";
import type { AppDeps } from "../../deps";
import { clientAddress, requestContext } from "../../platform/http/context";
import { createRateLimiter } from "../../platform/http/rate-limit";
import { countedBy, queryWord, type RefusalAnswer } from "../../platform/http/route-input";
import { activityDetail, recordActivity } from "./activity";
import { clearedSessionCookie, html, json, redirect, sessionCookie } from "./http";
import { consumeInvite, inviteState } from "./invites";
import type { ConsoleKit } from "./kit";
import { hasInvite, isInviteToken, RecoveryForm, RegisterBody, RegisterOptionsBody, SignInBody } from "./model";
import {
  authenticationOptions,
  registrationOptions,
  relyingParty,
  storePasskey,
  verifyAuthentication,
  verifyRegistration,
} from "./passkeys";
import { issueRecoveryCodes, useRecoveryCode } from "./recovery-codes";
import { ConsoleRefusal } from "./refusal";
import { endSession, markVerified, mayAddPasskey, sessionBrowser, startSession } from "./sessions";
import { invitePage, messagePage, type SignInNotice, signInPage } from "./views/auth-pages";

/**
 * Per client address: sign-in attempts (a passkey's answer or a recovery code). The owner signs in
 * a few times a day; a guesser is stopped long before a recovery code could be found.
 */
export const SIGN_IN_RATE_LIMIT = { limit: 10, windowMs: 15 * 60 * 1000 } as const;
/**
 * Per client address: sign-in challenges asked for. Each is written to the database before anyone
 * is known, so a client asking for them in a loop would keep the writer busy for the shop's buyers;
 * the owner asks for one per attempt.
 */
export const SIGN_IN_OPTIONS_RATE_LIMIT = { limit: 30, windowMs: 15 * 60 * 1000 } as const;

const NOTICES = ["signed-out", "expired", "bad-code", "rate-limited"] as const satisfies readonly SignInNotice[];
/** The sign-in page's notice: only one it knows (the address is no place for free text). */
const SignInQuery = v.object({ notice: queryWord(NOTICES) });

/** Signing in and out, invites, passkey registration and the fresh checks dangerous actions need. */
export function authRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { config, db, write } = deps;
  const limiter = createRateLimiter(deps.rateLimits, { name: "owner-sign-in", ...SIGN_IN_RATE_LIMIT });
  const optionsLimiter = createRateLimiter(deps.rateLimits, { name: "owner-sign-in-options", ...SIGN_IN_OPTIONS_RATE_LIMIT });
  // PUBLIC_BASE_URL's origin only, never the request's (passkeys.ts).
  const rp = relyingParty(config.publicBaseUrl, deps.content.current().site.name);
  const tooMany = (retryAfterSeconds: number) =>
    new ConsoleRefusal(429, "admin.error.tooManySignIns", { seconds: retryAfterSeconds }, { "retry-after": String(retryAfterSeconds) });
  // Sign-in attempts are counted before a byte of the body is read.
  const signInAttempt = countedBy(clientAddress(config), [limiter], tooMany);
  /** Before anyone is signed in: the refusal as it is, on a page or in JSON, in the owner's language. */
  const asIs: RefusalAnswer = (refusal, request) => kit.failure(request, refusal);
  /** The recovery form's refusals are the sign-in page saying so: too many attempts, or a code that cannot be one. */
  const recoveryRefused: RefusalAnswer = async (refusal, request) => {
    const limited = refusal.status === 429;
    return html(signInPage(await kit.page(request), limited ? "rate-limited" : "bad-code"), kit.https(request), limited ? 429 : 400);
  };
  /**
   * Registering without an invite is a signed-in owner's action: without a session, the sign-in
   * refusal whatever else is wrong with what was sent; a body that could not be read, as it is.
   */
  const registerRefused: RefusalAnswer = async (refusal, request, sent) => {
    if (sent !== undefined && !hasInvite(sent) && (await kit.owner(request)) === null) return kit.refuse(request);
    return kit.failure(request, refusal);
  };

  return (
    new Elysia({ name: "owner-console-auth" })
      .use(requestContext(config))
      .get(
        "/admin/sign-in",
        async ({ request, query: { notice } }) => {
          if ((await kit.owner(request)) !== null) return redirect("/admin", kit.https(request));
          return html(signInPage(await kit.page(request), notice ?? "none"), kit.https(request));
        },
        { query: SignInQuery },
      )
      .post(
        "/admin/sign-in/recovery",
        async ({ request, body: form }) => {
          const https = kit.https(request);
          const ctx = await kit.page(request);
          const now = deps.now();
          const signedIn = await write((tx) => {
            const left = useRecoveryCode(tx, form.code, now);
            if (left === null) return null;
            const session = startSession(tx, "recovery", sessionBrowser(request), now);
            recordActivity(tx, { action: "sign-in-recovery", detail: activityDetail.codesLeft(left), sessionId: session.id }, now);
            return { token: session.token, left };
          });
          if (signedIn === null) return html(signInPage(ctx, "bad-code"), https, 400);
          return redirect(`/admin/security?codes-left=${signedIn.left}`, https, { "set-cookie": sessionCookie(signedIn.token, https) });
        },
        { parse: kit.input({ before: signInAttempt, answer: recoveryRefused }), body: RecoveryForm },
      )
      .post("/admin/api/sign-in/options", async ({ request, ip }) => {
        const allowed = optionsLimiter.take(ip);
        if (!allowed.ok) return kit.failure(request, tooMany(allowed.retryAfterSeconds));
        const options = await authenticationOptions(write, rp, "sign-in", deps.now());
        return json({ options }, kit.https(request));
      })
      .post(
        "/admin/api/sign-in",
        async ({ request, body: { response } }) => {
          const https = kit.https(request);
          try {
            const now = deps.now();
            const passkey = await verifyAuthentication(db, write, rp, { ...response, clientExtensionResults: {} }, "sign-in", now);
            if (passkey === null) throw new ConsoleRefusal(401, "admin.error.passkeyUnchecked");
            const token = await write((tx) => {
              const session = startSession(tx, "passkey", sessionBrowser(request), now);
              recordActivity(tx, { action: "sign-in", detail: activityDetail.passkey(passkey.name), sessionId: session.id }, now);
              return session.token;
            });
            return json({ next: "/admin" }, https, 200, { "set-cookie": sessionCookie(token, https) });
          } catch (error) {
            return kit.failure(request, error);
          }
        },
        { parse: kit.input({ accept: ["json"], before: signInAttempt, answer: asIs }), body: SignInBody },
      )
      .post(
        "/admin/api/confirm/options",
        kit.signedIn(async (request) =>
          json({ options: await authenticationOptions(write, rp, "confirm", deps.now()) }, kit.https(request)),
        ),
      )
      .post(
        "/admin/api/confirm",
        ({ request, body: { response } }) =>
          kit.asOwner(request, async (owner) => {
            const now = deps.now();
            const passkey = await verifyAuthentication(db, write, rp, { ...response, clientExtensionResults: {} }, "confirm", now);
            if (passkey === null) throw new ConsoleRefusal(401, "admin.error.passkeyUnchecked");
            await write((tx) => {
              markVerified(tx, owner.session.id, now);
              recordActivity(
                tx,
                { action: "passkey-check", detail: activityDetail.passkey(passkey.name), sessionId: owner.session.id },
                now,
              );
            });
            return json({ next: "" }, kit.https(request));
          }),
        { parse: kit.input({ accept: ["json"] }), body: SignInBody },
      )
      .get("/admin/invite/:token", async ({ request, params }) => {
        const ctx = await kit.page(request);
        const state = isInviteToken(params.token) ? inviteState(db, params.token, deps.now()) : "unknown";
        if (state === "valid") return html(invitePage(ctx, params.token), kit.https(request));
        const { t } = ctx;
        return html(
          messagePage(ctx, t("admin.invite.unusableTitle"), t(state === "used" ? "admin.invite.used" : "admin.invite.expired"), {
            href: "/admin/sign-in",
            label: t("admin.invite.toSignIn"),
          }),
          kit.https(request),
          403,
        );
      })
      .post(
        "/admin/api/passkeys/register-options",
        async ({ request, body: { invite } }) => {
          try {
            if (invite !== undefined) {
              if (inviteState(db, invite, deps.now()) !== "valid") throw new ConsoleRefusal(403, "admin.error.inviteUnusable");
            } else {
              const owner = await kit.owner(request);
              if (owner === null) return kit.refuse(request);
              if (!mayAddPasskey(owner.session, deps.now())) throw new ConsoleRefusal(403, "admin.error.freshPasskey");
            }
            return json({ options: await registrationOptions(db, write, rp, deps.now()) }, kit.https(request));
          } catch (error) {
            return kit.failure(request, error);
          }
        },
        { parse: kit.input({ accept: ["json"], answer: asIs }), body: RegisterOptionsBody },
      )
      .post(
        "/admin/api/passkeys/register",
        async ({ request, body: { invite, name, response } }) => {
          const https = kit.https(request);
          try {
            // Without an invite this is a signed-in owner's action.
            const owner = invite === undefined ? await kit.owner(request) : null;
            if (invite === undefined && owner === null) return kit.refuse(request);
            const now = deps.now();
            if (owner !== null && !mayAddPasskey(owner.session, now)) throw new ConsoleRefusal(403, "admin.error.freshPasskey");
            if (invite !== undefined && inviteState(db, invite, now) !== "valid")
              throw new ConsoleRefusal(403, "admin.error.inviteUnusable");
            const passkey = await verifyRegistration(write, rp, { ...response, clientExtensionResults: {} }, now);
            if (passkey === null) throw new ConsoleRefusal(422, "admin.error.passkeyUnchecked");
            const browser = sessionBrowser(request);
            const label = browser.label;
            const done = await write((tx) => {
              if (invite !== undefined && !consumeInvite(tx, invite, now)) return null;
              const first = (tx.select({ n: count() }).from(ownerPasskeys).get()?.n ?? 0) === 0;
              const passkeyName = name === "" ? label : name;
              storePasskey(tx, passkey, passkeyName, now);
              // From an invite, the passkey just made (with user verification) signs the owner in.
              const started = owner === null ? startSession(tx, "invite", browser, now) : null;
              const sessionId = started?.id ?? owner?.session.id ?? null;
              recordActivity(tx, { action: "passkey-added", detail: activityDetail.passkey(passkeyName), sessionId }, now);
              return { codes: first ? issueRecoveryCodes(tx, now) : [], token: started?.token ?? null };
            });
            if (done === null) throw new ConsoleRefusal(403, "admin.error.inviteUnusable");
            const cookie: Record<string, string> = done.token === null ? {} : { "set-cookie": sessionCookie(done.token, https) };
            return json({ next: invite === undefined ? "/admin/security" : "/admin", codes: done.codes }, https, 201, cookie);
          } catch (error) {
            return kit.failure(request, error);
          }
        },
        { parse: kit.input({ accept: ["json"], answer: registerRefused }), body: RegisterBody },
      )
      // Reads no body: Elysia then parses none, whatever was sent.
      .post(
        "/admin/sign-out",
        kit.signedIn(async (request, owner) => {
          const now = deps.now();
          await write((tx) => {
            endSession(tx, owner.session.id, now);
            recordActivity(tx, { action: "sign-out", detail: owner.session.label, sessionId: owner.session.id }, now);
          });
          const https = kit.https(request);
          return redirect("/admin/sign-in?notice=signed-out", https, { "set-cookie": clearedSessionCookie(https) });
        }),
      )
  );
}
