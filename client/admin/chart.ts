import uPlot from "uplot";

/**
 * The overview's 30-day chart: net revenue per day. Its figures are in the page as JSON (and as a
 * table for screen readers and without JavaScript); this draws them, with the amounts in money and
 * the days as dates of the owner's language (the figures are in cents, the days in Paris time).
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
      net.push(row[1] / 100);
    }
  }
  const label = container.dataset.label ?? "";
  const locale = container.dataset.locale ?? "fr-FR";
  const money = new Intl.NumberFormat(locale, {
    style: "currency",
    currency: container.dataset.currency ?? "EUR",
    maximumFractionDigits: 0,
  });
  const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "Europe/Paris" });
  const width = Math.max(280, container.clientWidth);
  container.replaceChildren();
  new uPlot(
    {
      width,
      height: 220,
      series: [{}, { label, stroke: "#1d4ed8", fill: "rgba(29, 78, 216, 0.12)", width: 2 }],
      axes: [
        { values: (_chart, ticks) => ticks.map((t) => day.format(new Date(t * 1000))) },
        { size: 70, values: (_chart, ticks) => ticks.map((t) => money.format(t)) },
      ],
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
    },
    [days, net],
    container,
  );
}
