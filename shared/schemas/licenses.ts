import * as v from "valibot";
import { normalizeLicenseKey } from "../license-key";
import { DEFAULT_LOCALE, LOCALES } from "../locales";
import { LeadEmailSchema } from "./leads";

// The licence API's payloads (JSON or form-encoded, one schema each) and the access-recovery form's,
// which the page's form and POST /api/access/resend share.

/** A key as typed: any case, with or without dashes, spaces around; stored form after parsing. */
export const LicenseKeySchema = v.pipe(
  v.string("key must be text"),
  v.check((s) => normalizeLicenseKey(s) !== null, "key must be 25 letters and digits, such as ABCDE-FGH23-JKMNP-QRS45-TUVWX"),
  v.transform((s) => normalizeLicenseKey(s) ?? s),
);

const InstanceName = v.pipe(
  v.string("instanceName must be text"),
  v.trim(),
  v.nonEmpty("instanceName is required"),
  v.maxLength(100, "instanceName must be at most 100 characters"),
);
const InstanceId = v.pipe(
  v.string("instanceId must be text"),
  v.trim(),
  v.regex(/^ins_[A-Za-z0-9]{20,40}$/, "instanceId is not one this server gave out"),
);

/** The app's own stable id of the device (kept across reinstalls), so the same device never takes two slots. */
const DeviceId = v.pipe(
  v.string("deviceId must be text"),
  v.trim(),
  v.regex(/^[\x21-\x7e]{8,128}$/, "deviceId must be 8 to 128 visible ASCII characters, the same on every activation of this device"),
);

// The object's own message covers a body that is not an object and a field that is missing.
export const VerifyLicenseSchema = v.object(
  { key: LicenseKeySchema, instanceId: v.optional(InstanceId) },
  "send the licence key as the field key",
);
export const ActivateLicenseSchema = v.object(
  { key: LicenseKeySchema, instanceName: InstanceName, deviceId: v.optional(DeviceId) },
  "send the fields key and instanceName (a name for this device), and optionally deviceId",
);
export const DeactivateLicenseSchema = v.object(
  { key: LicenseKeySchema, instanceId: InstanceId },
  "send the fields key and instanceId (from the activation)",
);

export const AccessResendSchema = v.object(
  {
    email: LeadEmailSchema,
    locale: v.optional(v.picklist(LOCALES, "Unknown locale"), DEFAULT_LOCALE),
  },
  "send the field email (the address used to pay)",
);

/**
 * The claims of a licence token (a compact JWS, EdDSA over Ed25519, `typ` JWT, `kid` naming a key of
 * /.well-known/jwks.json): what the app may trust offline until `exp`, as long as `sub` is its own
 * instance. `aud` is always "license"; the site signs other things (links) for other audiences.
 */
export const LICENSE_TOKEN_AUDIENCE = "license";
export const LicenseTokenClaimsSchema = v.object({
  iss: v.string(),
  aud: v.literal(LICENSE_TOKEN_AUDIENCE),
  /** The instance (installation) the token was issued to. */
  sub: v.string(),
  status: v.picklist(["active", "inactive"]),
  activationLimit: v.number(),
  /** Seconds since the epoch. */
  iat: v.number(),
  exp: v.number(),
});

// The buyer's "manage my devices" page, reached from a signed link (`?t=`) in the access e-mail.

export const DevicesLinkSchema = v.pipe(
  v.string("t must be text"),
  v.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
  v.maxLength(2000),
);

/** Freeing one device from the page: a plain form post, or JSON from its script. */
export const FreeDeviceSchema = v.object(
  {
    t: DevicesLinkSchema,
    instanceId: InstanceId,
    locale: v.optional(v.picklist(LOCALES, "Unknown locale"), DEFAULT_LOCALE),
  },
  "send the fields t (the link's token) and instanceId",
);

export type DeviceEntry = { instanceId: string; name: string; activatedAt: number };

/** What the page shows: the devices of a valid link, or why there are none to show. */
export type DevicesPageState =
  | {
      state: "ok";
      /** The link's token, posted back with each "free" form. */
      link: string;
      devices: DeviceEntry[];
      activationLimit: number;
      /** Refunded or blocked: devices may still be freed, none may be added. */
      disabled: boolean;
      /** The outcome of a plain form post (`?status=`). */
      flash?: DevicesFlash;
      /** The order's review page's query (`?order=&k=`), offered under the devices. */
      review?: string;
    }
  | { state: "invalid" }
  /** Too many looks from this client in a short time (429): nothing was read. */
  | { state: "rate-limited" };

export const DEVICES_FLASHES = ["freed", "unknown", "rate-limited", "error"] as const;
export type DevicesFlash = (typeof DEVICES_FLASHES)[number];
