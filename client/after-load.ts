import type { VitalMetric } from "../shared/analytics";
import { carryParams } from "./carry-params";
import { watchVitals } from "./vitals";

// What the page's script does once the page has loaded, in one chunk of its own fetched only then:
// real-user speed, and a code or a partner in the address kept in the site's links. Neither is
// needed before `load`, so neither weighs on the script every visitor downloads first.

export function afterLoad(report: (metric: VitalMetric, value: number) => void): void {
  carryParams();
  watchVitals(report);
}
