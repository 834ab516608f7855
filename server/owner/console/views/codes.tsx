import type { CodeFigures, CodeOrder, CodeProblem, CodeStatus } from "../../../shop/codes/service";
import { type PageContext, renderPage } from "./layout";

export type CodesPageModel = {
  codes: (CodeFigures & { recent: CodeOrder[] })[];
  currency: string;
  done: "created" | "disabled" | null;
  problem: CodeProblem | null;
  /** Production running the built-in test checkout: the uses shown are test orders', counted apart from real sales'. */
  testUses: boolean;
};

/** The words of a code's state (service.ts codeStatusAt) in the owner's language. */
const STATUS_KEYS = {
  active: "admin.discounts.active",
  scheduled: "admin.discounts.scheduled",
  "used-up": "admin.discounts.usedUp",
  expired: "admin.discounts.expired",
  disabled: "admin.discounts.disabled",
} as const satisfies Record<CodeStatus, string>;

/** The console's discount codes: each with its uses, paid orders and revenue, the orders made with it; a form to create one. */
export function codesPage(ctx: PageContext, model: CodesPageModel): string {
  const { t, fmt } = ctx;
  const reduction = (c: CodeFigures) =>
    c.kind === "percent" ? `${c.value} %` : t("admin.discounts.amountOff", { amount: fmt.money(c.value, c.currency ?? model.currency) });
  const validity = (c: CodeFigures) =>
    c.startsAt === null && c.endsAt === null
      ? t("admin.discounts.always")
      : t("admin.discounts.between", {
          from: c.startsAt === null ? "…" : fmt.day(c.startsAt),
          to: c.endsAt === null ? "…" : fmt.day(new Date(c.endsAt.getTime() - 1)),
        });
  return renderPage(
    ctx,
    t("admin.discounts.title"),
    "codes",
    <>
      {model.done !== null && (
        <p className="success" role="status">
          {t(`admin.discounts.done.${model.done}`)}
        </p>
      )}
      {model.problem !== null && (
        <p className="error" role="alert">
          {t(`admin.discounts.problem.${model.problem}`)}
        </p>
      )}
      <p className="note">{t("admin.discounts.about")}</p>
      {model.testUses ? (
        <p className="note" data-testid="codes-test-uses">
          {t("admin.discounts.testUses")}
        </p>
      ) : null}
      {model.codes.length === 0 ? (
        <p>{t("admin.discounts.none")}</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
          <table data-testid="codes">
            <thead>
              <tr>
                <th scope="col">{t("admin.discounts.code")}</th>
                <th scope="col">{t("admin.discounts.reduction")}</th>
                <th scope="col">{t("admin.discounts.valid")}</th>
                <th scope="col">{t("admin.discounts.uses")}</th>
                <th scope="col">{t("admin.discounts.orders")}</th>
                <th scope="col">{t("admin.discounts.revenue")}</th>
                <th scope="col">{t("admin.discounts.state")}</th>
                <th scope="col">{t("admin.discounts.note")}</th>
              </tr>
            </thead>
            <tbody>
              {model.codes.map((c) => (
                <tr key={c.id} data-code={c.code}>
                  <th scope="row">{c.code}</th>
                  <td>{reduction(c)}</td>
                  <td>{validity(c)}</td>
                  <td>{c.maxUses === null ? fmt.number(c.uses) : `${fmt.number(c.uses)} / ${fmt.number(c.maxUses)}`}</td>
                  <td>{fmt.number(c.orders)}</td>
                  <td>{fmt.money(c.revenue, c.currency ?? model.currency)}</td>
                  <td data-status={c.status}>
                    {c.disabledAt === null ? (
                      <form method="post" action={`/admin/codes/${encodeURIComponent(c.code)}/disable`} className="inline">
                        {t(STATUS_KEYS[c.status])}{" "}
                        <button type="submit" className="secondary" aria-label={t("admin.discounts.disableLabel", { code: c.code })}>
                          {t("admin.discounts.disable")}
                        </button>
                      </form>
                    ) : (
                      t("admin.discounts.disabledOn", { date: fmt.when(c.disabledAt) })
                    )}
                  </td>
                  <td>{c.note ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {model.codes
        .filter((c) => c.recent.length > 0)
        .map((c) => (
          <details key={c.id} className="card">
            <summary>{t("admin.discounts.ordersOf", { code: c.code, count: c.recent.length })}</summary>
            <ul>
              {c.recent.map((o) => (
                <li key={o.id}>
                  <a href={`/admin/orders/${o.id}`}>{o.reference}</a> — {fmt.money(o.amount, o.currency)} —{" "}
                  {o.paidAt === null ? "" : fmt.when(o.paidAt)} {o.status === "refunded" ? `(${t("admin.discounts.refunded")})` : ""}
                  {o.test ? ` · ${t("admin.orders.testMode")}` : ""}
                </li>
              ))}
            </ul>
          </details>
        ))}
      <section className="card" aria-labelledby="code-new">
        <h2 id="code-new">{t("admin.discounts.create")}</h2>
        <form method="post" action="/admin/codes">
          <label htmlFor="code-code">{t("admin.discounts.code")}</label>
          <input
            id="code-code"
            name="code"
            required
            maxLength={32}
            pattern="[A-Za-z0-9][A-Za-z0-9_\-]{2,31}"
            aria-describedby="code-code-hint"
          />
          <p id="code-code-hint" className="note">
            {t("admin.discounts.codeHint")}
          </p>
          <fieldset>
            <legend>{t("admin.discounts.reduction")}</legend>
            <label>
              <input type="radio" name="kind" value="percent" defaultChecked /> {t("admin.discounts.percent")}
            </label>
            <label>
              <input type="radio" name="kind" value="amount" /> {t("admin.discounts.amount", { currency: model.currency })}
            </label>
          </fieldset>
          <label htmlFor="code-value">{t("admin.discounts.value")}</label>
          <input id="code-value" name="value" required inputMode="decimal" maxLength={9} />
          <label htmlFor="code-starts">{t("admin.discounts.starts")}</label>
          <input id="code-starts" name="starts" type="date" />
          <label htmlFor="code-ends">{t("admin.discounts.ends")}</label>
          <input id="code-ends" name="ends" type="date" aria-describedby="code-dates-hint" />
          <p id="code-dates-hint" className="note">
            {t("admin.discounts.datesHint")}
          </p>
          <label htmlFor="code-max">{t("admin.discounts.max")}</label>
          <input id="code-max" name="max" type="number" min={1} />
          <label htmlFor="code-note">{t("admin.discounts.note")}</label>
          <input id="code-note" name="note" maxLength={200} />
          <button type="submit">{t("admin.discounts.createButton")}</button>
        </form>
      </section>
    </>,
  );
}
