import { Elysia } from "elysia";
import * as v from "valibot";
import type { AppDeps } from "../../deps";
import { IdParams, queryCount } from "../../platform/http/route-input";
import { maskText } from "../../platform/log-mask";
import { retryMail } from "../../shop/mail/outbox";
import { eraseByEmail } from "../../shop/privacy/erase";
import { CSV_BOM, exportCsv } from "../export-csv";
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
      ({ request, query: { erased } }) =>
        kit.asOwner(request, async (owner) => {
          const ctx = await kit.page(request);
          const note = erased === null ? null : ctx.t("admin.leads.erased", { count: erased });
          return html(leadsPage(ctx, listLeads(db), isFresh(owner.session, deps.now()), note), kit.https(request));
        }),
      { query: v.object({ erased: queryCount(6) }) },
    )
    .get(
      "/admin/leads.csv",
      kit.signedIn(async (request, owner) => {
        needFresh(owner, "admin.error.freshExport");
        // A file for a spreadsheet: the BOM lets Excel read it as UTF-8.
        let csv = CSV_BOM;
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
      ({ request, body: form }) =>
        kit.asOwner(request, async (owner) => {
          needFresh(owner, "admin.error.freshErasure");
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
      { parse: kit.input(), body: EraseForm },
    )
    .get(
      "/admin/support",
      kit.signedIn(async (request) =>
        html(supportPage(await kit.page(request), listHandOvers(db), listConversations(db)), kit.https(request)),
      ),
    )
    .get(
      "/admin/mail",
      ({ request, query }) =>
        kit.asOwner(request, async () =>
          html(mailPage(await kit.page(request), troubledMail(db), query.retried !== undefined), kit.https(request)),
        ),
      // `?retried`, set by the retry's redirect: the page says the message is queued again.
      { query: v.object({ retried: v.optional(v.unknown()) }) },
    )
    .post(
      "/admin/mail/:id/retry",
      ({ request, params: { id } }) =>
        kit.asOwner(request, async (owner) => {
          if (!(await retryMail(write, id, deps.now()))) throw new ConsoleRefusal(409, "admin.error.mailNotRetried");
          await write((tx) =>
            recordActivity(tx, { action: "mail-retry", detail: activityDetail.message(id), sessionId: owner.session.id }, deps.now()),
          );
          deps.mailer.wake();
          return redirect("/admin/mail?retried", kit.https(request));
        }),
      { transform: kit.checked, params: IdParams },
    );
}
