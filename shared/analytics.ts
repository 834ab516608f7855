// The beacon's vocabulary, for the page's script and the server alike. No valibot here: the page's
// first script imports this file, and stays small (the schema is in shared/schemas/analytics.ts).

export const BEACON_EVENTS = ["pageview", "demo_opened", "pay_clicked", "lead_sent", "chat_opened"] as const;
export type BeaconEvent = (typeof BEACON_EVENTS)[number];
export const DEVICE_CLASSES = ["mobile", "tablet", "desktop"] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];
export const VITAL_METRICS = ["LCP", "INP", "CLS"] as const;
export type VitalMetric = (typeof VITAL_METRICS)[number];

/** The bytes a beacon may have: a few short fields. */
export const BEACON_MAX_BYTES = 1024;

/** Device class from the viewport's width in CSS pixels. */
export const deviceClassOf = (width: number): DeviceClass => (width < 640 ? "mobile" : width < 1024 ? "tablet" : "desktop");
