import type { PartnerProblem, PartnerRow, Period } from "../../../shop/partners/service";
import { type PageContext, renderPage } from "./layout";

export type PartnersPageModel = {
  rows: PartnerRow[];
  period: Period;
  currency: string;
  done: boolean;
  problem: PartnerProblem | null;
};

/** The console's partners: each partner's figures for a period, its CSV, and a form to add one. */
export function partnersPage(ctx: PageContext, model: PartnersPageModel): string {
  const { t, fmt } = ctx;
  const { period } = model;
  const csv = `/admin/partners.csv?${new URLSearchParams({ from: period.from, to: period.to }).toString()}`;
  return renderPage(
    ctx,
    t("admin.partners.title"),
    "partners",
    <>
      {model.done && (
        <p className="success" role="status">
          {t("admin.partners.created")}
        </p>
      )}
      {model.problem !== null && (
        <p className="error" role="alert">
          {t(`admin.partners.problem.${model.problem}`)}
        </p>
      )}
      <p className="note">{t("admin.partners.about")}</p>
      <form method="get" action="/admin/partners" className="card">
        <label htmlFor="partners-from">{t("admin.partners.from")}</label>
        <input id="partners-from" name="from" type="date" defaultValue={period.from} required />
        <label htmlFor="partners-to">{t("admin.partners.to")}</label>
        <input id="partners-to" name="to" type="date" defaultValue={period.to} required />
        <button type="submit">{t("admin.partners.show")}</button>
      </form>
      {model.rows.length === 0 ? (
        <p>{t("admin.partners.none")}</p>
      ) : (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
            <table data-testid="partners">
              <thead>
                <tr>
                  <th scope="col">{t("admin.partners.name")}</th>
                  <th scope="col">{t("admin.partners.visitors")}</th>
                  <th scope="col">{t("admin.partners.paidOrders")}</th>
                  <th scope="col">{t("admin.partners.net")}</th>
                  <th scope="col">{t("admin.partners.commission")}</th>
                  <th scope="col">{t("admin.partners.owed")}</th>
                  <th scope="col">{t("admin.discounts.code")}</th>
                </tr>
              </thead>
              <tbody>
                {model.rows.map((r) => (
                  <tr key={r.name} data-partner={r.name}>
                    <th scope="row">{r.name}</th>
                    <td>{fmt.number(r.visitors)}</td>
                    <td>{fmt.number(r.paidOrders)}</td>
                    <td>{fmt.money(r.netRevenue, model.currency)}</td>
                    <td>{r.commission === null ? "—" : `${r.commission} %`}</td>
                    <td>{fmt.money(r.commissionOwed, model.currency)}</td>
                    <td>{r.code ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            <a href={csv}>{t("admin.partners.csv")}</a>
          </p>
        </>
      )}
      <section className="card" aria-labelledby="partner-new">
        <h2 id="partner-new">{t("admin.partners.create")}</h2>
        <form method="post" action="/admin/partners">
          <label htmlFor="partner-name">{t("admin.partners.name")}</label>
          <input id="partner-name" name="name" required maxLength={32} aria-describedby="partner-name-hint" />
          <p id="partner-name-hint" className="note">
            {t("admin.partners.nameHint")}
          </p>
          <label htmlFor="partner-commission">{t("admin.partners.commissionField")}</label>
          <input id="partner-commission" name="commission" type="number" min={0} max={100} />
          <label htmlFor="partner-code">{t("admin.partners.codeField")}</label>
          <input id="partner-code" name="code" maxLength={32} />
          <button type="submit">{t("admin.partners.createButton")}</button>
        </form>
      </section>
    </>,
  );
}
