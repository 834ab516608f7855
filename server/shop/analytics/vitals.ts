import type { VitalMetric } from "../../../shared/analytics";

/**
 * Real-user speed is kept per day as histograms, so the 75th percentile of any period is read from
 * a few rows: bucket n holds the values in [n × width, (n + 1) × width), the last one everything
 * above. The percentile is a bucket's upper edge: never better than the truth.
 */
export const VITAL_BUCKETS = {
  LCP: { width: 100, good: 2500 },
  INP: { width: 10, good: 200 },
  CLS: { width: 0.01, good: 0.1 },
  last: 200,
} as const;

/** The p-th percentile (0-1) of a histogram given as bucket -> samples; null without samples. */
export function percentileOf(metric: VitalMetric, histogram: ReadonlyMap<number, number>, p: number): number | null {
  const total = [...histogram.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= p * total) return Number(((bucket + 1) * VITAL_BUCKETS[metric].width).toFixed(2));
  }
  return null;
}
