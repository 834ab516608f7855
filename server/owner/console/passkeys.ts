import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../../db/client";
import { ownerChallenges, ownerPasskeys } from "../../../db/schema";
import type { DbWriter, Write } from "../../../db/writer";

/** A ceremony's challenge is answered within this, or refused. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** The WebAuthn user handle of the one owner: fixed, so every passkey belongs to the same account. */
const OWNER_USER_ID = new TextEncoder().encode("site-owner");

export type ChallengePurpose = (typeof ownerChallenges.$inferSelect)["purpose"];
export type Passkey = typeof ownerPasskeys.$inferSelect;

/** Who the passkeys are for: the site's host name, and the one origin a browser may sign from. */
export type RelyingParty = { id: string; name: string; origins: string[] };

/**
 * The relying party from the site's public address alone: its host name, and its origin (scheme,
 * host and port). A passkey is bound to the host name, so a page on another port of the same host
 * (another program on the server, a forgotten test instance) could obtain the owner's signature;
 * an answer signed for any origin but PUBLIC_BASE_URL's is refused, whatever the request says.
 */
export function relyingParty(publicBaseUrl: string, siteName: string): RelyingParty {
  const base = new URL(publicBaseUrl);
  return { id: base.hostname, name: siteName, origins: [base.origin] };
}

export function listPasskeys(db: Pick<Db, "select">): Passkey[] {
  return db.select().from(ownerPasskeys).orderBy(asc(ownerPasskeys.id)).all();
}

async function keepChallenge(write: Write, challenge: string, purpose: ChallengePurpose, now: Date): Promise<void> {
  await write((tx) => {
    // Old unanswered challenges go as new ones come: the table stays a handful of rows.
    tx.delete(ownerChallenges).where(lte(ownerChallenges.expiresAt, now)).run();
    tx.insert(ownerChallenges)
      .values({ challenge, purpose, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) })
      .run();
  });
}

/**
 * Takes the challenge an answer carries, once: true when it was handed out for this purpose and is
 * still valid. Deleting it means a replayed answer is refused.
 */
function takeChallenge(tx: DbWriter, challenge: string, purpose: ChallengePurpose, now: Date): boolean {
  const taken = tx
    .delete(ownerChallenges)
    .where(and(eq(ownerChallenges.challenge, challenge), eq(ownerChallenges.purpose, purpose), gt(ownerChallenges.expiresAt, now)))
    .returning({ challenge: ownerChallenges.challenge })
    .all();
  return taken.length > 0;
}

/** The challenge inside a browser's answer (clientDataJSON), or null when unreadable. */
const ClientData = v.object({ challenge: v.pipe(v.string(), v.maxLength(200)) });
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed = v.safeParse(ClientData, JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")));
    return parsed.success ? parsed.output.challenge : null;
  } catch {
    return null;
  }
}

// Loaded at the first passkey operation: evaluating its certificate and ASN.1 code cost about 12 ms
// of every server start's CPU (bench/start-cpu.ts), for pages only the owner opens.
const webauthn = () => import("@simplewebauthn/server");

export async function registrationOptions(
  db: Db,
  write: Write,
  rp: RelyingParty,
  now: Date,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: "owner",
    userDisplayName: `${rp.name} owner`,
    userID: OWNER_USER_ID,
    attestationType: "none",
    // One passkey per authenticator: registering the same phone twice is refused by the browser.
    excludeCredentials: listPasskeys(db).map((p) => ({ id: p.credentialId, transports: parseTransports(p.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await keepChallenge(write, options.challenge, "register", now);
  return options;
}

export type NewPasskey = { credentialId: string; publicKey: string; counter: number; transports: string };

/**
 * Checks a browser's answer to a registration challenge (user verification required); the passkey
 * to store, or null. The challenge is used up whatever the outcome.
 */
export async function verifyRegistration(
  write: Write,
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  now: Date,
): Promise<NewPasskey | null> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (challenge === null || !(await write((tx) => takeChallenge(tx, challenge, "register", now)))) return null;
  try {
    const { verifyRegistrationResponse } = await webauthn();
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
    };
  } catch {
    return null;
  }
}

export function storePasskey(tx: DbWriter, passkey: NewPasskey, name: string, now: Date): number {
  return tx
    .insert(ownerPasskeys)
    .values({ ...passkey, name, createdAt: now })
    .returning({ id: ownerPasskeys.id })
    .get().id;
}

export async function authenticationOptions(
  write: Write,
  rp: RelyingParty,
  purpose: "sign-in" | "confirm",
  now: Date,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  // No allow-list: the passkeys are discoverable, so the browser offers the owner's own.
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required" });
  await keepChallenge(write, options.challenge, purpose, now);
  return options;
}

/** Checks a browser's answer to a sign-in or confirmation challenge: the passkey used, or null. */
export async function verifyAuthentication(
  db: Db,
  write: Write,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  purpose: "sign-in" | "confirm",
  now: Date,
): Promise<Passkey | null> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (challenge === null || !(await write((tx) => takeChallenge(tx, challenge, purpose, now)))) return null;
  const passkey = db.select().from(ownerPasskeys).where(eq(ownerPasskeys.credentialId, response.id)).get();
  if (passkey === undefined) return null;
  try {
    const { verifyAuthenticationResponse } = await webauthn();
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: parseTransports(passkey.transports),
      },
      requireUserVerification: true,
    });
    if (!result.verified) return null;
    await write((tx) =>
      tx
        .update(ownerPasskeys)
        .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: now })
        .where(eq(ownerPasskeys.id, passkey.id))
        .run(),
    );
    return passkey;
  } catch {
    return null;
  }
}

const Transports = v.array(v.picklist(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]));
function parseTransports(stored: string): v.InferOutput<typeof Transports> {
  try {
    const parsed = v.safeParse(Transports, JSON.parse(stored));
    return parsed.success ? parsed.output : [];
  } catch {
    return [];
  }
}
