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

// The object's own message covers a body that is not an object and a field that is missing.
export const VerifyLicenseSchema = v.object({ key: LicenseKeySchema }, "send the licence key as the field key");
export const ActivateLicenseSchema = v.object(
  { key: LicenseKeySchema, instanceName: InstanceName },
  "send the fields key and instanceName (a name for this device)",
);
export const DeactivateLicenseSchema = v.object(
  { key: LicenseKeySchema, instanceId: InstanceId },
  "send the fields key and instanceId (from the activation)",
);

/** Where the access-recovery form sits; a form post without JavaScript is sent back there. */
export const ACCESS_FORM_PAGES = ["access", "success", "landing"] as const;

export const AccessResendSchema = v.object(
  {
    email: LeadEmailSchema,
    locale: v.optional(v.picklist(LOCALES, "Unknown locale"), DEFAULT_LOCALE),
  },
  "send the field email (the address used to pay)",
);
