import { expect, test } from "bun:test";
import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { listPasskeys, storePasskey } from "../../server/owner/console/passkeys";
import { findSession, markVerified } from "../../server/owner/console/sessions";
import { createTestSite, type TestSite } from "../support/app";
import { cookieOf, ownerCookie } from "./owner";

// What a passkey proves and what it takes to change the owner's passkeys: a removal needs the same
// fresh check as an addition, and an assertion counts only when it was made for the site's own
// origin (PUBLIC_BASE_URL's scheme, host and port), whatever the request's headers say.

const MINUTE = 60 * 1000;

async function siteWithClock(env: Record<string, string> = {}) {
  let at = Date.parse("2026-11-24T09:00:00Z");
  const site = await createTestSite({ env, now: () => new Date(at) });
  return { site, advance: (ms: number) => (at += ms) };
}

test("removing a passkey needs a fresh check: refused 6 minutes after a recovery-code sign-in, allowed after a passkey check", async () => {
  const { site, advance } = await siteWithClock();
  try {
    const cookie = await ownerCookie(site);
    const stored = (id: string, name: string) =>
      site.write((tx) => storePasskey(tx, { credentialId: id, publicKey: "pk", counter: 0, transports: "[]" }, name, new Date()));
    await stored("cred-phone", "Phone");
    const laptop = await stored("cred-laptop", "Laptop");

    const now = new Date(advance(6 * MINUTE));
    const refused = await site.request(`/admin/passkeys/${laptop}/remove`, {
      method: "POST",
      headers: { cookie, "accept-language": "en" },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Removing a passkey needs a passkey check from the last 5 minutes");
    expect(listPasskeys(site.db).map((p) => p.name)).toEqual(["Phone", "Laptop"]);
    // The page offers the check instead of a button that would be refused.
    const page = await (await site.request("/admin/security", { headers: { cookie, "accept-language": "en" } })).text();
    expect(page).not.toContain("Remove the passkey Laptop");
    expect(page).toContain("To add or remove a passkey, first confirm with a passkey you have");

    const session = findSession(site.db, cookie.split("=")[1] ?? "", now);
    if (session === null) throw new Error("no live session");
    await site.write((tx) => markVerified(tx, session.id, now));
    expect((await site.request(`/admin/passkeys/${laptop}/remove`, { method: "POST", headers: { cookie } })).status).toBe(303);
    expect(listPasskeys(site.db).map((p) => p.name)).toEqual(["Phone"]);
  } finally {
    await site.close();
  }
});

/** A software authenticator holding one ES256 passkey for the host name `rpId`. */
function authenticator(rpId: string) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const coordinate = (value: string | undefined) => new Uint8Array(Buffer.from(value ?? "", "base64url"));
  // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, coordinate(jwk.x)],
      [-3, coordinate(jwk.y)],
    ]),
  );
  const credentialId = Buffer.from("software-authenticator-1").toString("base64url");
  let counter = 0;
  return {
    passkey: { credentialId, publicKey: Buffer.from(cose).toString("base64url"), counter: 0, transports: '["internal"]' },
    /** The browser's answer to `challenge`, as a page at `origin` would have it signed. */
    assert(challenge: string, origin: string) {
      return assertion(privateKey, rpId, credentialId, ++counter, challenge, origin);
    },
  };
}

function assertion(privateKey: KeyObject, rpId: string, credentialId: string, counter: number, challenge: string, origin: string) {
  const clientData = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }));
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  // rpIdHash, flags user present (0x01) and verified (0x04), signature counter.
  const authenticatorData = Buffer.concat([createHash("sha256").update(rpId).digest(), Buffer.from([0x05]), count]);
  const signature = sign("sha256", Buffer.concat([authenticatorData, createHash("sha256").update(clientData).digest()]), privateKey);
  return {
    id: credentialId,
    rawId: credentialId,
    type: "public-key",
    clientExtensionResults: {},
    response: {
      clientDataJSON: clientData.toString("base64url"),
      authenticatorData: authenticatorData.toString("base64url"),
      signature: signature.toString("base64url"),
    },
  };
}

async function signIn(site: TestSite, key: ReturnType<typeof authenticator>, signedFor: string, headers: Record<string, string>) {
  // The challenge as the site's own page asks for it; the answer comes with `headers`.
  const options = await site.request("/admin/api/sign-in/options", { method: "POST" });
  expect(options.status).toBe(200);
  const { options: body } = (await options.json()) as { options: { challenge: string } };
  return site.request("/admin/api/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ response: key.assert(body.challenge, signedFor) }),
  });
}

test("a passkey assertion made for another port of the same host is refused, whatever Origin and Sec-Fetch-Site say", async () => {
  const site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://localhost" } });
  try {
    const key = authenticator("localhost");
    await site.write((tx) => storePasskey(tx, key.passkey, "Phone", new Date()));
    const elsewhere = "https://localhost:8443";

    // The other port's page, its browser saying so in Origin while the request claims same-origin.
    const claimed = await signIn(site, key, elsewhere, { origin: elsewhere, "sec-fetch-site": "same-origin" });
    expect(claimed.status).toBe(403);
    expect(claimed.headers.get("set-cookie")).toBeNull();
    // Sent as if from the site itself: the signature still names the other origin.
    const forwarded = await signIn(site, key, elsewhere, { origin: "https://localhost", "sec-fetch-site": "same-origin" });
    expect(forwarded.status).toBe(401);
    expect(forwarded.headers.get("set-cookie")).toBeNull();
    // Without any header at all (a script, not a browser).
    const bare = await signIn(site, key, elsewhere, {});
    expect(bare.status).toBe(401);

    // The same authenticator on the site's own origin signs in: the refusals were about the origin.
    const own = await signIn(site, key, "https://localhost", { origin: "https://localhost", "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
    expect(cookieOf(own)).not.toBe("");
  } finally {
    await site.close();
  }
});
