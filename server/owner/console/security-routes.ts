import { count, eq, inArray } from "drizzle-orm";
import { Elysia } from "elysia";
import * as v from "valibot";
import { orders, ownerPasskeys, ownerSessions } from "../../../db/schema";
import type { AppDeps } from "../../deps";
import { IdParams, queryCount } from "../../platform/http/route-input";
import { activityDetail, listActivity, readActivityDetail, recordActivity } from "./activity";
import { describeVersion } from "./content-changes";
import { clearedSessionCookie, html, redirect } from "./http";
import type { ConsoleKit } from "./kit";
import { listPasskeys } from "./passkeys";
import { recoveryCodesLeft } from "./recovery-codes";
import { ConsoleRefusal } from "./refusal";
import { endSession, liveSessions, mayAddPasskey } from "./sessions";
import { activityPage } from "./views/activity";
import { securityPage } from "./views/security";

/** Set by the sign-in with a recovery code: how many are left, which the page then says. */
const AfterSignIn = v.object({ "codes-left": queryCount(2) });

/** The security page (sessions, passkeys, recovery codes) and the activity log. */
export function securityRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write } = deps;
  return new Elysia({ name: "owner-console-security" })
    .get(
      "/admin/security",
      ({ request, query }) =>
        kit.asOwner(request, async (owner) => {
          const data = {
            current: owner.session.id,
            sessions: liveSessions(db, deps.now()),
            passkeys: listPasskeys(db),
            codesLeft: recoveryCodesLeft(db),
            justUsedCode: query["codes-left"],
            mayAddPasskey: mayAddPasskey(owner.session, deps.now()),
          };
          return html(securityPage(await kit.page(request), data), kit.https(request));
        }),
      { query: AfterSignIn },
    )
    .post(
      "/admin/sessions/:id/end",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          const now = deps.now();
          const ended = await write((tx) => {
            const target = tx.select().from(ownerSessions).where(eq(ownerSessions.id, id)).get();
            if (target === undefined || !endSession(tx, id, now)) return false;
            recordActivity(
              tx,
              { action: "session-ended", detail: activityDetail.session(id, target.label), sessionId: owner.session.id },
              now,
            );
            return true;
          });
          if (!ended) throw new ConsoleRefusal(404, "admin.error.noSession");
          const https = kit.https(request);
          // Ending the session in use is signing out.
          if (id === owner.session.id)
            return redirect("/admin/sign-in?notice=signed-out", https, { "set-cookie": clearedSessionCookie(https) });
          return redirect("/admin/security", https);
        }),
      { transform: kit.checked, params: IdParams },
    )
    .post(
      "/admin/passkeys/:id/remove",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          const now = deps.now();
          if (!mayAddPasskey(owner.session, now)) throw new ConsoleRefusal(403, "admin.error.freshPasskeyRemoval");
          const outcome = await write((tx): "removed" | "missing" | "last" => {
            const target = tx.select().from(ownerPasskeys).where(eq(ownerPasskeys.id, id)).get();
            if (target === undefined) return "missing";
            // The last passkey stays: without it only the recovery codes and a new invite would open the console.
            if ((tx.select({ n: count() }).from(ownerPasskeys).get()?.n ?? 0) <= 1) return "last";
            tx.delete(ownerPasskeys).where(eq(ownerPasskeys.id, id)).run();
            recordActivity(
              tx,
              { action: "passkey-removed", detail: activityDetail.passkey(target.name), sessionId: owner.session.id },
              now,
            );
            return "removed";
          });
          if (outcome === "missing") throw new ConsoleRefusal(404, "admin.error.noPasskey");
          if (outcome === "last") throw new ConsoleRefusal(409, "admin.error.lastPasskey");
          return redirect("/admin/security", kit.https(request));
        }),
      { transform: kit.checked, params: IdParams },
    )
    .get(
      "/admin/activity",
      kit.signedIn(async (request) => {
        const entries = listActivity(db, 300);
        const ids = [...new Set(entries.flatMap((e) => (e.sessionId === null ? [] : [e.sessionId])))];
        const labels = new Map(
          ids.length === 0
            ? []
            : db
                .select({ id: ownerSessions.id, label: ownerSessions.label })
                .from(ownerSessions)
                .where(inArray(ownerSessions.id, ids))
                .all()
                .map((s) => [s.id, s.label] as const),
        );
        // The orders the entries name, by the reference the owner knows them by.
        const orderIds = [
          ...new Set(
            entries.flatMap((e) => {
              const detail = readActivityDetail(e.action, e.detail);
              if (detail.kind === "order") return [detail.id];
              return detail.kind === "review" && detail.orderId !== null ? [detail.orderId] : [];
            }),
          ),
        ];
        const references = new Map(
          orderIds.length === 0
            ? []
            : db
                .select({ id: orders.id, reference: orders.reference })
                .from(orders)
                .where(inArray(orders.id, orderIds))
                .all()
                .map((o) => [o.id, o.reference] as const),
        );
        const ctx = await kit.page(request);
        // Each publish, restore or import in words: what it changed against the version before it.
        const changes = new Map<number, string[]>();
        for (const e of entries) {
          const detail = readActivityDetail(e.action, e.detail);
          if (detail.kind !== "version" || changes.has(detail.version)) continue;
          const lines = describeVersion(db, detail.version, ctx.t, ctx.fmt, ctx.locale);
          if (lines !== null) changes.set(detail.version, lines);
        }
        return html(activityPage(ctx, entries, labels, references, changes), kit.https(request));
      }),
    );
}
