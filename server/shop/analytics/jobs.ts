import { errorText } from "../../../shared/error-text";
import type { Logger } from "../../platform/log";
import type { Analytics } from "./service";

export const ROLL_UP_EVERY_MS = 60 * 1000;

export type Job = { stop(): void };

/** The first process recomputes the day's totals every minute (other processes only on the console's request). */
export function startRollUps(deps: { analytics: Analytics; log: Logger }, everyMs = ROLL_UP_EVERY_MS): Job {
  const run = () =>
    deps.analytics.rollUp().catch((error: unknown) => {
      // A busy database only delays the totals to the next minute.
      deps.log.warn("analytics: roll-up failed, will retry", { error: errorText(error) });
    });
  void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
