import * as v from "valibot";
import { FaqEntrySchema, GuideDeviceSchema } from "../../../shared/content";
import { IdParam } from "../../platform/http/route-input";

// What the console's endpoints accept. The WebAuthn answers are checked in depth by
// @simplewebauthn/server; here only their shape and size, so that nothing else reaches it.

const B64 = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]*={0,2}$/, "must be base64url"), v.maxLength(8192));

const Transports = v.optional(v.array(v.picklist(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])));
const Attachment = v.optional(v.picklist(["platform", "cross-platform"]));

export const RegistrationAnswer = v.object({
  id: B64,
  rawId: B64,
  type: v.literal("public-key"),
  authenticatorAttachment: Attachment,
  clientExtensionResults: v.record(v.string(), v.unknown()),
  response: v.object({
    clientDataJSON: B64,
    attestationObject: B64,
    authenticatorData: v.optional(B64),
    publicKey: v.optional(B64),
    publicKeyAlgorithm: v.optional(v.number()),
    transports: Transports,
  }),
});

export const AuthenticationAnswer = v.object({
  id: B64,
  rawId: B64,
  type: v.literal("public-key"),
  authenticatorAttachment: Attachment,
  clientExtensionResults: v.record(v.string(), v.unknown()),
  response: v.object({
    clientDataJSON: B64,
    authenticatorData: B64,
    signature: B64,
    userHandle: v.optional(B64),
  }),
});

const InviteToken = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, "is not an invite"));

export const RegisterOptionsBody = v.object({ invite: v.optional(InviteToken) });

export const RegisterBody = v.object({
  invite: v.optional(InviteToken),
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(60)), ""),
  response: RegistrationAnswer,
});

export const SignInBody = v.object({ response: AuthenticationAnswer });

export const RecoveryForm = v.object({ code: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(40)) });

export const isInviteToken = (value: string) => v.is(InviteToken, value);

/** Whether a body names an invite (the registration of the first passkey, before any session). */
export const hasInvite = (body: unknown) => v.is(v.object({ invite: InviteToken }), body);

/** A form of text fields (the content's and the catalogue's): each form's own code reads its fields. */
export const FormFields = v.record(v.string(), v.string());

/** The draft's revision a content form was opened at, or a version's number: digits, like a row's id. */
export const Revision = IdParam;

/** A FAQ entry in the path by its id, of the content's shape, else the page does not exist. */
export const FaqParams = v.object({ id: FaqEntrySchema.entries.id });

/** A device of the installation guide in the path by its id, of the content's shape, else the page does not exist. */
export const DeviceParams = v.object({ id: GuideDeviceSchema.entries.id });
