import { DEVICE_CLASSES, type DeviceClass } from "../../../../shared/analytics";
import { LOCALE_TAGS } from "../../../../shared/locales";
import { OTHER } from "../../../shop/analytics/rollup";
import type { Audience, Breakdown, Funnel } from "../audience";
import { type PageContext, renderPage } from "./layout";

const TRACKED_EVENTS = ["demo_opened", "pay_clicked", "lead_sent", "chat_opened"] as const;
const isDevice = (key: string): key is DeviceClass => DEVICE_CLASSES.some((d) => d === key);
const isTracked = (key: string): key is (typeof TRACKED_EVENTS)[number] => TRACKED_EVENTS.some((e) => e === key);

const GOOD = { LCP: 2500, INP: 200, CLS: 0.1 } as const;
const FUNNEL_STEPS: (keyof Funnel)[] = ["visitors", "paymentPage", "checkoutStarted", "paid", "activated"];

/**
 * The audience page: the figures first (visitors, page views, paid, conversion), the 30-day chart
 * with its table, the breakdowns, the funnel for all traffic, per source and per language, revenue
 * per source, and real-user speed against the "good" thresholds.
 */
export function audiencePage(ctx: PageContext, data: Audience): string {
  const { t, locale, fmt } = ctx;
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  const shift = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const rate = (part: number, whole: number) => (whole === 0 ? "—" : percent.format(part / whole));
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayLabel = (d: string) => day.format(new Date(`${d}T00:00:00Z`));
  const table = (id: string, caption: string, head: string[], rows: (string | number)[][]) => (
    <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={id}>
      <table>
        {/* The heading above, or the first column's title, already says it on screen: the caption
            names the table (and its scrolling region) for screen readers alone. */}
        <caption id={id} className="visually-hidden">
          {caption}
        </caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={head.length}>{t("admin.audience.none")}</td>
            </tr>
          ) : (
            rows.map((r, n) => (
              <tr key={n}>
                {r.map((cell, i) => (
                  <td key={i}>{typeof cell === "number" ? fmt.number(cell) : cell}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
  const breakdown = (
    id: string,
    title: string,
    rows: Breakdown[],
    label: (key: string) => string = (k) => k,
    count = t("admin.audience.pageviews"),
  ) =>
    table(
      id,
      title,
      [title, t("admin.audience.visitors"), count],
      rows.map((r) => [label(r.key), r.visitors, r.hits]),
    );
  const funnelRows = (rows: (Funnel & { key: string })[], label: (key: string) => string = (k) => k) =>
    rows.map((r) => [
      label(r.key),
      ...FUNNEL_STEPS.map((s, i) =>
        i === 0 ? fmt.number(r[s]) : `${fmt.number(r[s])} (${rate(r[s], r[FUNNEL_STEPS[i - 1] ?? "visitors"])})`,
      ),
    ]);
  const funnelHead = (first: string) => [first, ...FUNNEL_STEPS.map((s) => t(`admin.audience.step.${s}`))];
  const source = (key: string) =>
    key === "direct"
      ? t("admin.audience.direct")
      : key === "unknown"
        ? t("admin.audience.unknown")
        : key === OTHER
          ? t("admin.audience.other")
          : key;
  const vital = (metric: keyof typeof GOOD, value: number | null) =>
    value === null
      ? "—"
      : `${metric === "CLS" ? shift.format(value) : fmt.number(Math.round(value))}${metric === "CLS" ? "" : " ms"} ${value <= GOOD[metric] ? t("admin.audience.good") : t("admin.audience.poor")}`;
  const deviceName = (k: string) => (isDevice(k) ? t(`admin.audience.deviceName.${k}`) : k);
  const eventName = (k: string) => (isTracked(k) ? t(`admin.audience.eventName.${k}`) : k);
  const f = data.funnel;

  return renderPage(
    ctx,
    t("admin.audience.title"),
    "audience",
    <>
      <p className="note">{t("admin.audience.about", { days: 30 })}</p>
      {data.capped.days > 0 ? (
        <p className="note" data-testid="audience-capped">
          {t("admin.audience.capped", { days: data.capped.days, refused: data.capped.refused, limit: data.capped.limit })}
        </p>
      ) : null}
      <div className="grid">
        <div className="figure">
          <span className="value">{fmt.number(data.totals.visitors)}</span>
          <span className="label">{t("admin.audience.visitors")}</span>
        </div>
        <div className="figure">
          <span className="value">{fmt.number(data.totals.pageviews)}</span>
          <span className="label">{t("admin.audience.pageviews")}</span>
        </div>
        <div className="figure">
          <span className="value">{fmt.number(data.paidOrders)}</span>
          <span className="label">{t("admin.overview.paidOrders")}</span>
        </div>
        <div className="figure">
          <span className="value">{rate(f.paid, f.visitors)}</span>
          <span className="label">{t("admin.audience.conversion")}</span>
        </div>
      </div>
      {data.uncountedPaid > 0 ? (
        // Buyers the counting never saw are in the paid orders, not in the rates: a rate counts
        // buyers among counted visitors only, so it never passes 100 %.
        <p className="note" data-testid="audience-uncounted">
          {t("admin.audience.uncounted", { paid: data.uncountedPaid })}
        </p>
      ) : null}
      <section aria-labelledby="audience-chart-heading">
        <h2 id="audience-chart-heading">{t("admin.audience.chart")}</h2>
        <div
          id="audience-chart"
          className="chart"
          data-locale={LOCALE_TAGS[locale].bcp47}
          data-day={t("admin.orders.date")}
          data-visitors={t("admin.audience.visitors")}
          data-pageviews={t("admin.audience.pageviews")}
          aria-hidden="true"
        />
        <script
          type="application/json"
          id="audience-data"
          // Dates and numbers only: nothing in it can close the script element.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(data.days) }}
        />
        <details>
          <summary>{t("admin.overview.chartTable")}</summary>
          {table(
            "audience-days",
            t("admin.audience.chart"),
            [t("admin.orders.date"), t("admin.audience.visitors"), t("admin.audience.pageviews")],
            data.days.map(([d, v, p]) => [dayLabel(d), v, p]),
          )}
        </details>
      </section>
      <section aria-labelledby="funnel-heading">
        <h2 id="funnel-heading">{t("admin.audience.funnel")}</h2>
        {table(
          "funnel-all",
          t("admin.audience.funnelAll"),
          funnelHead(t("admin.audience.traffic")),
          funnelRows([{ key: t("admin.audience.all"), ...f }]),
        )}
        {table(
          "funnel-source",
          t("admin.audience.funnelBySource"),
          funnelHead(t("admin.audience.source")),
          funnelRows(data.funnelBySource, source),
        )}
        {table(
          "funnel-locale",
          t("admin.audience.funnelByLocale"),
          funnelHead(t("admin.audience.language")),
          funnelRows(data.funnelByLocale),
        )}
      </section>
      {/* One table, whose caption says what the heading says: the table's region alone is named, so
          no two landmarks share a name. */}
      <section>
        <h2>{t("admin.audience.revenue")}</h2>
        <p className="note">{t("admin.audience.revenueNote")}</p>
        {table(
          "revenue-source",
          t("admin.audience.revenue"),
          [t("admin.audience.source"), t("admin.discounts.code"), t("admin.audience.step.paid"), t("admin.overview.net")],
          data.revenueBySource.map((r) => [source(r.key), r.code === "" ? "—" : r.code, r.orders, fmt.money(r.revenue, data.currency)]),
        )}
      </section>
      <section aria-labelledby="breakdown-heading">
        <h2 id="breakdown-heading">{t("admin.audience.breakdowns")}</h2>
        {breakdown("top-sources", t("admin.audience.source"), data.sources, source)}
        {breakdown("top-campaigns", t("admin.audience.campaign"), data.campaigns, (k) => (k === OTHER ? t("admin.audience.other") : k))}
        {breakdown("top-languages", t("admin.audience.language"), data.locales)}
        {breakdown("top-devices", t("admin.audience.device"), data.devices, deviceName)}
        {breakdown("top-pages", t("admin.audience.page"), data.pages)}
        {breakdown("top-events", t("admin.audience.events"), data.events, eventName, t("admin.audience.eventCount"))}
      </section>
      <section>
        <h2>{t("admin.audience.vitals")}</h2>
        <p className="note">{t("admin.audience.vitalsAbout")}</p>
        {table(
          "vitals",
          t("admin.audience.vitals"),
          [t("admin.audience.page"), t("admin.audience.device"), "LCP", "INP", "CLS", t("admin.audience.samples")],
          data.vitals.map((v) => [
            v.page,
            deviceName(v.device),
            vital("LCP", v.p75.LCP),
            vital("INP", v.p75.INP),
            vital("CLS", v.p75.CLS),
            v.samples,
          ]),
        )}
      </section>
    </>,
  );
}
