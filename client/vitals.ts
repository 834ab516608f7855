import { onCLS, onINP, onLCP } from "web-vitals";
import type { VitalMetric } from "../shared/analytics";

/**
 * Reports each measure once it is final (web-vitals sends LCP, INP and CLS when the page is hidden
 * or left), to a thousandth: milliseconds for LCP and INP, the layout-shift score for CLS.
 */
export function watchVitals(report: (metric: VitalMetric, value: number) => void): void {
  const forward = (metric: { name: string; value: number }) => {
    if (metric.name === "LCP" || metric.name === "INP" || metric.name === "CLS")
      report(metric.name, Math.round(metric.value * 1000) / 1000);
  };
  onLCP(forward);
  onINP(forward);
  onCLS(forward);
}
