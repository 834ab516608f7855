import uPlot from "uplot";

/**
 * The audience page's 30-day chart: visitors and page views per UTC day. Its figures are in the page
 * as JSON (and as a table for screen readers and without JavaScript); this draws them.
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
  const width = Math.max(280, container.clientWidth);
  container.replaceChildren();
  new uPlot(
    {
      width,
      height: 220,
      series: [
        {},
        { label: container.dataset.visitors ?? "", stroke: "#1d4ed8", fill: "rgba(29, 78, 216, 0.12)", width: 2 },
        { label: container.dataset.pageviews ?? "", stroke: "#b45309", width: 2, dash: [6, 4] },
      ],
      axes: [{}, { size: 60 }],
      cursor: { drag: { x: false, y: false } },
    },
    [days, visitors, views],
    container,
  );
}
