import { LOCALE_TAGS } from "../../../../shared/locales";
import { hourLabel, weekdayName } from "../../../../shared/owner-formats";
import { SELLER_IDENTITY } from "../../../platform/production-readiness";
import type { Overview, Period } from "../overview";
import { type PageContext, renderPage } from "./layout";

/** The figures first (revenue, orders, refund rate), then the chart, leads, e-mail, and the checklist. */
export function overviewPage(ctx: PageContext, data: Overview, nowLabel: Date): string {
  const { t, locale } = ctx;
  const money = (minor: number) => ctx.fmt.money(minor, data.currency);
  const periods: Period[] = ["today", "week", "month", "all"];
  const rate = (p: Period) => {
    const f = data.figures[p];
    return f.paidOrders === 0
      ? "—"
      : new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(f.refundedOrders / f.paidOrders);
  };
  return renderPage(
    ctx,
    t("admin.overview.title"),
    "overview",
    <>
      <p className="note">{t("admin.overview.asOf", { date: ctx.fmt.when(nowLabel) })}</p>
      <p className="note" data-testid="vat-scheme">
        {t("admin.overview.vatScheme", { scheme: t(`admin.vatScheme.${data.vatScheme}`) })}
      </p>
      {data.vatCharged.length === 0 ? null : (
        <p className="note" data-testid="vat-charged">
          {t("admin.overview.vatCharged", {
            rates: data.vatCharged
              .map((r) =>
                r.rate === 0
                  ? t("admin.overview.vatNone", { count: r.invoices })
                  : t("admin.overview.vatRate", {
                      rate: new Intl.NumberFormat(LOCALE_TAGS[locale].bcp47, { style: "percent", maximumFractionDigits: 2 }).format(
                        r.rate / 10000,
                      ),
                      country: r.country ?? "FR",
                      count: r.invoices,
                      amount: money(r.vat),
                    }),
              )
              // French typography puts a narrow no-break space before a semicolon.
              .join(locale === "fr" ? "\u202f; " : "; "),
          })}
        </p>
      )}
      {periods.map((p) => (
        <section key={p} aria-labelledby={`period-${p}`}>
          <h2 id={`period-${p}`}>{t(`admin.period.${p}`)}</h2>
          <div className="grid">
            <a className="figure" href="/admin/orders">
              <span className="value">{money(data.figures[p].net)}</span>
              <span className="label">{t("admin.overview.net")}</span>
            </a>
            <div className="figure">
              <span className="value">{money(data.figures[p].gross)}</span>
              <span className="label">{t("admin.overview.gross")}</span>
            </div>
            <div className="figure">
              <span className="value">{money(data.figures[p].refunded)}</span>
              <span className="label">{t("admin.overview.refunded")}</span>
            </div>
            <a className="figure" href="/admin/orders">
              <span className="value">{ctx.fmt.number(data.figures[p].paidOrders)}</span>
              <span className="label">{t("admin.overview.paidOrders")}</span>
            </a>
            <div className="figure">
              <span className="value">{rate(p)}</span>
              <span className="label">{t("admin.overview.refundRate")}</span>
            </div>
          </div>
        </section>
      ))}
      <section aria-labelledby="chart-heading">
        <h2 id="chart-heading">{t("admin.overview.chart")}</h2>
        <div
          id="revenue-chart"
          className="chart"
          data-label={t("admin.overview.net")}
          data-locale={LOCALE_TAGS[locale].bcp47}
          data-currency={data.currency}
          aria-hidden="true"
        />
        <script
          type="application/json"
          id="revenue-data"
          // Numbers only: nothing in it can close the script element.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(data.chart) }}
        />
        <details>
          <summary>{t("admin.overview.chartTable")}</summary>
          <div className="table-wrap" tabIndex={0} role="region" aria-label={t("admin.tableRegion")}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("admin.orders.date")}</th>
                  <th scope="col">{t("admin.overview.net")}</th>
                </tr>
              </thead>
              <tbody>
                {data.chart.map(([day, net]) => (
                  <tr key={day}>
                    <td>
                      {new Intl.DateTimeFormat(LOCALE_TAGS[locale].bcp47, { dateStyle: "medium", timeZone: "Europe/Paris" }).format(
                        new Date(day * 1000),
                      )}
                    </td>
                    <td>{money(net)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>
      <section aria-labelledby="more-heading">
        <h2 id="more-heading">{t("admin.overview.more")}</h2>
        <div className="grid">
          <a className="figure" href="/admin/leads">
            <span className="value">{ctx.fmt.number(data.leads.total)}</span>
            <span className="label">{t("admin.overview.leads", { month: data.leads.month })}</span>
          </a>
          <a className="figure" href="/admin/mail">
            <span className="value">{ctx.fmt.number(data.mail.failed)}</span>
            <span className="label">{t("admin.overview.mailFailed", { retrying: data.mail.retrying })}</span>
          </a>
          <a className="figure" href="/admin/orders">
            <span className="value">{ctx.fmt.number(data.declined)}</span>
            <span className="label">{t("admin.overview.declined")}</span>
          </a>
        </div>
      </section>
      <section aria-labelledby="checklist-heading">
        <h2 id="checklist-heading">{t("admin.checklist.title")}</h2>
        <ul>
          {data.checklist.map((item) => (
            <li key={item.id}>
              {item.referenceShown === undefined ? (
                <span className={item.ok ? "success" : "error"}>{item.ok ? t("admin.checklist.done") : t("admin.checklist.todo")}</span>
              ) : (
                <span className="note">{t("admin.checklist.note")}</span>
              )}{" "}
              {item.referenceShown !== undefined ? (
                t(item.referenceShown ? "admin.checklist.referenceShown" : "admin.checklist.referenceNone")
              ) : item.id === "seller" ? (
                <>
                  {t("admin.checklist.seller", { variables: SELLER_IDENTITY.map(([variable]) => variable).join(", ") })}
                  {data.sellerIdentityMissing.length > 0 ? (
                    <> ({t("admin.checklist.missing", { variables: data.sellerIdentityMissing.join(", ") })})</>
                  ) : null}
                </>
              ) : item.id === "placeholders" ? null : (
                t(`admin.checklist.${item.id}`)
              )}
              {item.id === "backups" && data.backup.enabled ? <> ({backupState(ctx, data.backup)})</> : null}
              {item.id === "https" && data.certificate !== null ? (
                <span data-testid="certificate-state"> ({certificateText(ctx, data.certificate)})</span>
              ) : null}
            </li>
          ))}
        </ul>
        <p className="note" data-testid="digest-setting">
          {digestState(ctx, data.digest)}
        </p>
      </section>
    </>,
  );
}

/** The digest e-mail's setting in words: when it comes, or why it does not. */
function digestState(ctx: PageContext, digest: Overview["digest"]): string {
  return ctx.t("admin.overview.digest", {
    state: digest.state,
    hour: hourLabel(digest.hour),
    weekday: weekdayName(ctx.locale, digest.weekday),
  });
}

/** When Litestream last copied a change off the machine, or what stops it. */
function backupState(ctx: PageContext, backup: Overview["backup"]): string {
  const { t } = ctx;
  const last =
    backup.lastReplicatedAt === null
      ? t("admin.checklist.backupsNever")
      : t("admin.checklist.backupsLast", { date: ctx.fmt.when(backup.lastReplicatedAt) });
  return backup.lastError === null ? last : `${last}; ${t("admin.checklist.backupsProblem", { problem: backup.lastError })}`;
}

/** The certificate the site gets itself: until when it is good, or that it is pending, and the last failed attempt. */
function certificateText(ctx: PageContext, certificate: NonNullable<Overview["certificate"]>): string {
  const { t } = ctx;
  const domains = certificate.domains.join(", ");
  const state =
    certificate.notAfter === null
      ? t("admin.checklist.httpsPending", { domains })
      : t("admin.checklist.httpsCertificate", { domains, date: ctx.fmt.when(certificate.notAfter) });
  if (certificate.lastError === null) return state;
  const failed = t("admin.checklist.httpsFailed", {
    date: certificate.lastErrorAt === null ? "—" : ctx.fmt.when(certificate.lastErrorAt),
    error: certificate.lastError,
    next: certificate.nextAttemptAt === null ? "—" : ctx.fmt.when(certificate.nextAttemptAt),
  });
  return `${state}; ${failed}`;
}
