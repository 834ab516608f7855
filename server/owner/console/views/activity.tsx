import type { ReactNode } from "react";
import { type ActivityDetail, type listActivity, readActivityDetail } from "../activity";
import { renderPage, type PageContext } from "./layout";

/** Everything the owner did, newest first, with the session it was done from. */
export function activityPage(
  ctx: PageContext,
  entries: ReturnType<typeof listActivity>,
  labels: Map<number, string>,
  references: Map<number, string>,
): string {
  const { t } = ctx;
  return renderPage(
    ctx,
    t("admin.activity.title"),
    "activity",
    entries.length === 0 ? (
      <p>{t("admin.activity.none")}</p>
    ) : (
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("admin.activity.when")}</th>
              <th scope="col">{t("admin.activity.what")}</th>
              <th scope="col">{t("admin.activity.detail")}</th>
              <th scope="col">{t("admin.activity.session")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{ctx.fmt.when(e.at)}</td>
                <td>{t(`admin.action.${e.action}`)}</td>
                <td>{detailOf(ctx, readActivityDetail(e.action, e.detail), references)}</td>
                <td>{e.sessionId === null ? t("admin.activity.cli") : `#${e.sessionId} ${labels.get(e.sessionId) ?? ""}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    ),
  );
}

/** An entry's detail in the owner's language; an order as a link to its page, by the reference the owner knows it by. */
function detailOf(ctx: PageContext, detail: ActivityDetail, references: Map<number, string>): ReactNode {
  const { t } = ctx;
  switch (detail.kind) {
    case "order":
      return (
        <a href={`/admin/orders/${detail.id}`}>
          {t("admin.activityDetail.order", { reference: references.get(detail.id) ?? `#${detail.id}` })}
        </a>
      );
    case "licence":
      return t("admin.activityDetail.licence", { key: detail.key });
    case "passkey":
      return t("admin.activityDetail.passkey", { name: detail.name });
    case "message":
      return t("admin.activityDetail.message", { id: detail.id });
    case "export":
      return t("admin.activityDetail.export", { rows: detail.rows });
    case "erasure":
      return t("admin.activityDetail.erasure", { who: detail.who, rows: detail.rows, kept: detail.ordersKept });
    case "codesLeft":
      return t("admin.activityDetail.codesLeft", { left: detail.left });
    case "invite":
      return t("admin.activityDetail.invite", { minutes: detail.minutes });
    case "session":
      return t("admin.activityDetail.session", { id: detail.id, label: detail.label });
    case "text":
      return detail.text;
  }
}
