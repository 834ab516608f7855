import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { maskText } from "../../platform/log-mask";
import { retryMail } from "../../shop/mail/outbox";
import { eraseByEmail } from "../../shop/privacy/erase";
import { exportCsv } from "../export-csv";
import { activityDetail, recordActivity } from "./activity";
import { consoleHeaders, html, redirect } from "./http";
import type { ConsoleKit, Owner } from "./kit";
import { listConversations, listHandOvers, listLeads, troubledMail } from "./people";
import { ConsoleRefusal } from "./refusal";
import { isFresh } from "./sessions";
import { leadsPage, mailPage, supportPage } from "./views/people";

const EraseForm = v.object({ email: v.string() });
const EraseEmail = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(), v.maxLength(254));

/** Leads (list, CSV export, erasure), support conversations and hand-overs, the e-mail queue. */
export function peopleRoutes(deps: AppDeps, kit: ConsoleKit) {
  const { db, write, config } = deps;
  const needFresh = (owner: Owner, refusal: "admin.error.freshExport" | "admin.error.freshErasure") => {
    if (!isFresh(owner.session, deps.now())) throw new ConsoleRefusal(403, refusal);
  };

  return new Elysia({ name: "owner-console-people" })
    .get(
      "/admin/leads",
      kit.signedIn(async (request, owner) => {
        const ctx = await kit.page(request);
        const erased = new URL(request.url).searchParams.get("erased");
        const note = erased !== null && /^\d{1,6}$/.test(erased) ? ctx.t("admin.leads.erased", { count: Number(erased) }) : null;
        return html(leadsPage(ctx, listLeads(db), isFresh(owner.session, deps.now()), note), kit.https(request));
      }),
    )
    .get(
      "/admin/leads.csv",
      kit.signedIn(async (request, owner) => {
        needFresh(owner, "admin.error.freshExport");
        let csv = "";
        const rows = exportCsv(db, "leads", (chunk) => {
          csv += chunk;
        });
        await write((tx) =>
          recordActivity(tx, { action: "export", detail: activityDetail.export(rows), sessionId: owner.session.id }, deps.now()),
        );
        return new Response(csv, {
          headers: {
            ...consoleHeaders(kit.https(request)),
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": 'attachment; filename="leads.csv"',
          },
        });
      }),
    )
    .post(
      "/admin/leads/erase",
      kit.signedIn(async (request, owner) => {
        needFresh(owner, "admin.error.freshErasure");
        const form = await kit.body(request, EraseForm, ["form"]);
        // Typed by the owner: a mistyped address is said so, in the owner's language.
        const address = v.safeParse(EraseEmail, form.email);
        if (!address.success) throw new ConsoleRefusal(400, "admin.error.notAnAddress");
        const email = address.output;
        const result = await eraseByEmail(write, email, config.mail.dir);
        const removed =
          result.leads + result.chatMessages + result.mails.pending + result.mails.sent + result.mails.other + result.accessResends;
        await write((tx) =>
          recordActivity(
            tx,
            {
              action: "erasure",
              detail: activityDetail.erasure(maskText(email), removed, result.ordersKept),
              sessionId: owner.session.id,
            },
            deps.now(),
          ),
        );
        for (const f of result.mailFiles.failed)
          deps.log.warn("erasure: a mail file could not be deleted", { path: f.path, reason: f.reason });
        return redirect(`/admin/leads?erased=${removed}`, kit.https(request));
      }),
      { parse: "none" },
    )
    .get(
      "/admin/support",
      kit.signedIn(async (request) =>
        html(supportPage(await kit.page(request), listHandOvers(db), listConversations(db)), kit.https(request)),
      ),
    )
    .get(
      "/admin/mail",
      kit.signedIn(async (request) =>
        html(mailPage(await kit.page(request), troubledMail(db), new URL(request.url).searchParams.has("retried")), kit.https(request)),
      ),
    )
    .post(
      "/admin/mail/:id/retry",
      kit.signedIn(async (request, owner) => {
        const raw = new URL(request.url).pathname.split("/")[3] ?? "";
        if (!/^\d{1,12}$/.test(raw)) throw new ConsoleRefusal(404, "admin.error.noMessage");
        const id = Number(raw);
        if (!(await retryMail(write, id, deps.now()))) throw new ConsoleRefusal(409, "admin.error.mailNotRetried");
        await write((tx) =>
          recordActivity(tx, { action: "mail-retry", detail: activityDetail.message(id), sessionId: owner.session.id }, deps.now()),
        );
        deps.mailer.wake();
        return redirect("/admin/mail?retried", kit.https(request));
      }),
      { parse: "none" },
    );
}
