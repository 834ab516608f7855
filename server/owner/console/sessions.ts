import { and, desc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ownerSessions } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../../../shared/locales";
import { ownerLocale } from "./http";
import { hashToken, randomToken } from "./tokens";

/** A session not used for this long is over. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** However used, a session ends this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** Refunds, erasure and exports want a passkey check younger than this. */
export const FRESH_CHECK_MS = 5 * 60 * 1000;
/** Last-seen is written at most this often, so browsing the console is not a write per click. */
const TOUCH_EVERY_MS = 60 * 1000;

export type OwnerSession = typeof ownerSessions.$inferSelect;
export type SessionMethod = OwnerSession["method"];

/** What a session keeps of the browser that signed in: a short label and the console's language in it. */
export type SessionBrowser = { label: string; locale: Locale };

/** The browser of a sign-in request, as startSession keeps it. */
export const sessionBrowser = (request: Request): SessionBrowser => ({
  label: browserLabel(request.headers.get("user-agent")),
  locale: ownerLocale(request),
});

/** Starts a session; the token goes into the cookie, its hash into the table. */
export function startSession(tx: DbWriter, method: SessionMethod, browser: SessionBrowser, now: Date): { token: string; id: number } {
  const token = randomToken();
  const row = tx
    .insert(ownerSessions)
    .values({
      tokenHash: hashToken(token),
      method,
      label: browser.label,
      locale: browser.locale,
      createdAt: now,
      lastSeenAt: now,
      // A recovery code is not a passkey: it signs in, it does not confirm a dangerous action.
      verifiedAt: method === "recovery" ? null : now,
    })
    .returning({ id: ownerSessions.id })
    .get();
  return { token, id: row.id };
}

export const isLive = (s: OwnerSession, now: Date): boolean =>
  s.endedAt === null &&
  now.getTime() - s.lastSeenAt.getTime() < SESSION_IDLE_MS &&
  now.getTime() - s.createdAt.getTime() < SESSION_ABSOLUTE_MS;

/** The live session a cookie's token names, or null (unknown, ended, idle or too old). */
export function findSession(db: Pick<Db, "select">, token: string, now: Date): OwnerSession | null {
  const row = db
    .select()
    .from(ownerSessions)
    .where(eq(ownerSessions.tokenHash, hashToken(token)))
    .get();
  return row !== undefined && isLive(row, now) ? row : null;
}

/** Keeps a session in use alive (idle timeout), writing at most once a minute. */
export async function touchSession(write: Write, session: OwnerSession, now: Date): Promise<void> {
  if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_EVERY_MS) return;
  await write((tx) => tx.update(ownerSessions).set({ lastSeenAt: now }).where(eq(ownerSessions.id, session.id)).run());
}

export const isFresh = (s: Pick<OwnerSession, "verifiedAt">, now: Date): boolean =>
  s.verifiedAt !== null && now.getTime() - s.verifiedAt.getTime() < FRESH_CHECK_MS;

/**
 * Adding a passkey gives lasting access, and removing one locks its holder out, so either needs a
 * fresh check like a refund: a passkey check less than 5 minutes old, or a sign-in with a recovery
 * code less than 5 minutes old (that code is how an owner who lost every passkey gets a new one and
 * drops the lost one, and it was just checked). A session left open on a borrowed computer does
 * neither.
 */
export const mayAddPasskey = (s: Pick<OwnerSession, "verifiedAt" | "method" | "createdAt">, now: Date): boolean =>
  isFresh(s, now) || (s.method === "recovery" && now.getTime() - s.createdAt.getTime() < FRESH_CHECK_MS);

export function markVerified(tx: DbWriter, sessionId: number, now: Date): void {
  tx.update(ownerSessions).set({ verifiedAt: now, lastSeenAt: now }).where(eq(ownerSessions.id, sessionId)).run();
}

/** Ends a session on the server: its cookie opens nothing afterwards. False when it was not live. */
export function endSession(tx: DbWriter, sessionId: number, now: Date): boolean {
  const ended = tx
    .update(ownerSessions)
    .set({ endedAt: now })
    .where(and(eq(ownerSessions.id, sessionId), isNull(ownerSessions.endedAt)))
    .returning({ id: ownerSessions.id })
    .all();
  return ended.length > 0;
}

/** The sessions still live, newest first. */
export function liveSessions(db: Pick<Db, "select">, now: Date): OwnerSession[] {
  const since = new Date(now.getTime() - SESSION_ABSOLUTE_MS);
  return db
    .select()
    .from(ownerSessions)
    .where(and(isNull(ownerSessions.endedAt), gt(ownerSessions.createdAt, since)))
    .orderBy(desc(ownerSessions.id))
    .all()
    .filter((s) => isLive(s, now));
}

/**
 * The owner's language where no browser says it (the digest e-mail): the console's language at the
 * latest sign-in, else French, as the console itself defaults.
 */
export function latestOwnerLocale(db: Pick<Db, "select">): Locale {
  const row = db
    .select({ locale: ownerSessions.locale })
    .from(ownerSessions)
    .where(isNotNull(ownerSessions.locale))
    .orderBy(desc(ownerSessions.id))
    .limit(1)
    .get();
  return row?.locale != null && isLocale(row.locale) ? row.locale : DEFAULT_LOCALE;
}

/** "Chrome on Android": enough to tell the owner's phone from their computer, nothing more is kept. */
export function browserLabel(userAgent: string | null): string {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\/|Chromium\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "Browser";
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return system === "" ? browser : `${browser} / ${system}`;
}
