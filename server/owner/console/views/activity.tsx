import type { ReactNode } from "react";
import { REFUSAL_REASONS } from "../../../../shared/reviews";
import { type ActivityDetail, type listActivity, readActivityDetail } from "../activity";
import { type PageContext, renderPage } from "./layout";

/** Everything the owner did, newest first, with the session it was done from. */
export function activityPage(
  ctx: PageContext,
  entries: ReturnType<typeof listActivity>,
  labels: Map<number, string>,
  references: Map<number, string>,
  changes: Map<number, string[]> = new Map(),
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
                <td>{detailOf(ctx, readActivityDetail(e.action, e.detail), references, changes)}</td>
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
function detailOf(ctx: PageContext, detail: ActivityDetail, references: Map<number, string>, changes: Map<number, string[]>): ReactNode {
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
    case "version":
      return versionOf(ctx, detail, changes.get(detail.version));
    case "review":
      return reviewOf(ctx, detail, references);
    case "posters":
      return t("admin.activityDetail.posters", { count: detail.count });
    case "text":
      return detail.text;
  }
}

/** How many of a version's changes the log lists; the content's history lists them all. */
const CHANGES_SHOWN = 3;

/** A published version: a link to it in the content's history, and what it changed, values before and after. */
function versionOf(ctx: PageContext, detail: Extract<ActivityDetail, { kind: "version" }>, lines: string[] | undefined): ReactNode {
  const { t } = ctx;
  const name =
    detail.restoredFrom === null
      ? t("admin.activityDetail.version", { version: detail.version })
      : t("admin.activityDetail.restored", { version: detail.version, from: detail.restoredFrom });
  const shown = (lines ?? []).slice(0, CHANGES_SHOWN);
  const more = (lines ?? []).length - shown.length;
  return (
    <>
      <a href={`/admin/content/history#version-${detail.version}`}>{name}</a>
      {lines !== undefined && lines.length === 0 && <>: {t("admin.activityDetail.noChange")}</>}
      {shown.length > 0 && (
        <ul className="changes">
          {shown.map((line) => (
            <li key={line}>{line}</li>
          ))}
          {more > 0 && <li>{t("admin.activityDetail.moreChanges", { count: more })}</li>}
        </ul>
      )}
    </>
  );
}

/** A review decision: the review (on the Reviews page), its order, and a refusal's reason in words or the reply given. */
function reviewOf(ctx: PageContext, detail: Extract<ActivityDetail, { kind: "review" }>, references: Map<number, string>): ReactNode {
  const { t } = ctx;
  const reason = REFUSAL_REASONS.find((r) => r === detail.reason);
  return (
    <>
      <a href={`/admin/reviews#review-${detail.id}`}>{t("admin.activityDetail.review", { id: detail.id })}</a>
      {detail.orderId !== null && (
        <>
          {", "}
          <a href={`/admin/orders/${detail.orderId}`}>
            {t("admin.activityDetail.reviewOrder", { reference: references.get(detail.orderId) ?? `#${detail.orderId}` })}
          </a>
        </>
      )}
      {detail.reason !== null && (
        <>, {t("admin.activityDetail.reviewReason", { reason: reason === undefined ? detail.reason : t(`reviews.reason.${reason}`) })}</>
      )}
      {detail.reply !== null && <>, {t("admin.activityDetail.reviewReply", { reply: `“${detail.reply}”` })}</>}
    </>
  );
}
