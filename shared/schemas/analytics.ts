import * as v from "valibot";
import { BEACON_EVENTS, DEVICE_CLASSES, VITAL_METRICS } from "../analytics";

// What the page's script sends to the beacon endpoint (client/beacon.ts -> server/shop/analytics/):
// one page view per page, a few events, and real-user speed measures. Nothing in it names a person.

const short = (max: number) => v.pipe(v.string(), v.maxLength(max));

const Common = {
  /** The page's path (no query): the server keeps only the site's own pages. */
  path: v.pipe(v.string(), v.startsWith("/"), v.maxLength(200)),
  device: v.picklist(DEVICE_CLASSES),
};

export const BeaconSchema = v.variant("kind", [
  v.strictObject({
    kind: v.picklist(BEACON_EVENTS),
    ...Common,
    /** The referring page's host, when another site sent the visitor. */
    referrer: v.optional(v.pipe(v.string(), v.maxLength(253), v.regex(/^[a-z0-9.-]*(?::\d{1,5})?$/i, "must be a host name"))),
    utmSource: v.optional(short(100)),
    utmMedium: v.optional(short(100)),
    utmCampaign: v.optional(short(100)),
  }),
  v.strictObject({
    kind: v.literal("vital"),
    ...Common,
    metric: v.picklist(VITAL_METRICS),
    /** LCP and INP in milliseconds, CLS unitless; anything beyond a minute is not a measure. */
    value: v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(60_000)),
  }),
]);
export type Beacon = v.InferOutput<typeof BeaconSchema>;
