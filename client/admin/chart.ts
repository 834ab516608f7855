import uPlot from "uplot";

/**
 * The overview's 30-day chart: net revenue per day. Its figures are in the page as JSON (and as a
 * table for screen readers and without JavaScript); this draws them.
 */
export function drawChart(container: HTMLElement): void {
  const source = document.getElementById("revenue-data");
  if (source === null) return;
  const rows: unknown = JSON.parse(source.textContent ?? "[]");
  if (!Array.isArray(rows)) return;
  const days: number[] = [];
  const net: number[] = [];
  for (const row of rows) {
    if (Array.isArray(row) && typeof row[0] === "number" && typeof row[1] === "number") {
      days.push(row[0]);
      net.push(row[1]);
    }
  }
  const label = container.dataset.label ?? "";
  const width = Math.max(280, container.clientWidth);
  container.replaceChildren();
  new uPlot(
    {
      width,
      height: 220,
      series: [{}, { label, stroke: "#1d4ed8", fill: "rgba(29, 78, 216, 0.12)", width: 2 }],
      axes: [{}, { size: 60 }],
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
    },
    [days, net],
    container,
  );
}
