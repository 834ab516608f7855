import uPlot from "uplot";

/**
 * The audience page's 30-day chart: visitors and page views per UTC day. Its figures are in the page
 * as JSON (and as a table for screen readers and without JavaScript); this draws them, with the days
 * and figures written as in the owner's language, like the overview's chart, and the legend's
 * labels in it too (uPlot's own are English).
 */
export function drawAudienceChart(container: HTMLElement): void {
  const source = document.getElementById("audience-data");
  if (source === null) return;
  const rows: unknown = JSON.parse(source.textContent ?? "[]");
  if (!Array.isArray(rows)) return;
  const days: number[] = [];
  const visitors: number[] = [];
  const views: number[] = [];
  for (const row of rows) {
    if (Array.isArray(row) && typeof row[0] === "string" && typeof row[1] === "number" && typeof row[2] === "number") {
      days.push(Date.parse(`${row[0]}T00:00:00Z`) / 1000);
      visitors.push(row[1]);
      views.push(row[2]);
    }
  }
  const locale = container.dataset.locale ?? "fr-FR";
  const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const count = new Intl.NumberFormat(locale);
  const dayOf = (seconds: number | null) => (seconds === null ? "—" : day.format(new Date(seconds * 1000)));
  const countOf = (n: number | null) => (n === null ? "—" : count.format(n));
  const width = Math.max(280, container.clientWidth);
  container.replaceChildren();
  new uPlot(
    {
      width,
      height: 220,
      series: [
        { label: container.dataset.day ?? "", value: (_chart, v) => dayOf(v) },
        {
          label: container.dataset.visitors ?? "",
          value: (_chart, v) => countOf(v),
          stroke: "#1d4ed8",
          fill: "rgba(29, 78, 216, 0.12)",
          width: 2,
        },
        { label: container.dataset.pageviews ?? "", value: (_chart, v) => countOf(v), stroke: "#b45309", width: 2, dash: [6, 4] },
      ],
      axes: [
        { values: (_chart, ticks) => ticks.map((t) => dayOf(t)) },
        { size: 60, values: (_chart, ticks) => ticks.map((t) => countOf(t)) },
      ],
      cursor: { drag: { x: false, y: false } },
    },
    [days, visitors, views],
    container,
  );
}
