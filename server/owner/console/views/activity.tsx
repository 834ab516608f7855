import type { listActivity } from "../activity";
import { renderPage, type PageContext } from "./layout";

/** Everything the owner did, newest first, with the session it was done from. */
export function activityPage(ctx: PageContext, entries: ReturnType<typeof listActivity>, labels: Map<number, string>): string {
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
                <td>{e.detail}</td>
                <td>{e.sessionId === null ? t("admin.activity.cli") : `#${e.sessionId} ${labels.get(e.sessionId) ?? ""}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    ),
  );
}
