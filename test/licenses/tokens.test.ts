import { afterEach, expect, test } from "bun:test";
import { createLocalJWKSet, generateKeyPair, type JSONWebKeySet, jwtVerify, SignJWT } from "jose";
import * as v from "valibot";
import { licenses } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { LicenseTokenClaimsSchema } from "../../shared/schemas/licenses";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";

// Signed licence tokens: what the app receives from activate and verify, and checks offline with
// nothing but the JWKS it fetched once from /.well-known/jwks.json.

const DAY = 24 * 60 * 60 * 1000;
const BASE = "https://shop.example";

let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function shopWithSale(clock = testClock(), env: Record<string, string> = {}) {
  const s = (site = await createTestSite({ env: { PUBLIC_BASE_URL: BASE, ...env }, now: clock.now }));
  await payWithTestCard(s, { locale: "en", email: "buyer@example.com" });
  return { s, key: s.db.select().from(licenses).all()[0]!.key, clock };
}

const call = async (s: TestSite, action: string, body: unknown) => {
  const response = await s.request(`/api/licenses/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

const fetchJwks = async (s: TestSite): Promise<JSONWebKeySet> => (await s.request("/.well-known/jwks.json")).json();

/** What the app does offline: the JWKS it kept, the site's address, the token, its own clock. */
const verifyOffline = (jwks: JSONWebKeySet, token: string, at: Date) =>
  jwtVerify(token, createLocalJWKSet(jwks), { issuer: BASE, audience: "license", algorithms: ["EdDSA"], currentDate: at });

test("a token from activate verifies offline against the published JWKS and says what the app needs", async () => {
  const { s, key, clock } = await shopWithSale();
  const activated = await call(s, "activate", { key, instanceName: "Living-room TV" });
  expect(activated.status).toBe(201);
  const jwksResponse = await s.request("/.well-known/jwks.json");
  expect(jwksResponse.headers.get("content-type")).toContain("application/json");
  // Apps and proxies may keep it an hour; a rotated-out key stays published far longer than that.
  expect(jwksResponse.headers.get("cache-control")).toBe("public, max-age=3600");
  const jwks: JSONWebKeySet = await jwksResponse.json();
  expect(jwks.keys).toHaveLength(1);
  // Only the public half is published.
  expect(jwks.keys[0]).not.toHaveProperty("d");
  expect(jwks.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });

  const { payload, protectedHeader } = await verifyOffline(jwks, activated.body.token, clock.now());
  expect(protectedHeader).toMatchObject({ alg: "EdDSA", kid: jwks.keys[0]!.kid });
  const claims = v.parse(LicenseTokenClaimsSchema, payload);
  expect(claims).toMatchObject({ iss: BASE, aud: "license", sub: activated.body.instanceId, status: "active", activationLimit: 5 });
  expect(claims.exp - claims.iat).toBe(14 * 24 * 60 * 60);
  expect(new Date(activated.body.tokenExpiresAt).getTime()).toBe(claims.exp * 1000);
});

test("a token altered by one byte, expired on the app's clock, or signed by another key is refused", async () => {
  const { s, key, clock } = await shopWithSale(testClock(), { LICENSE_TOKEN_DAYS: "3" });
  const { body } = await call(s, "activate", { key, instanceName: "Phone" });
  const jwks = await fetchJwks(s);
  const token: string = body.token;
  await verifyOffline(jwks, token, clock.now());

  // One byte changed in each part: header, claims, signature.
  const dots = [token.indexOf("."), token.lastIndexOf(".")];
  for (const at of [5, dots[0]! + 5, dots[1]! + 5]) {
    const altered = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    expect(altered).not.toBe(token);
    expect(verifyOffline(jwks, altered, clock.now())).rejects.toThrow();
  }

  // LICENSE_TOKEN_DAYS=3: still good after 2 days, refused after 3.
  await verifyOffline(jwks, token, new Date(clock.now().getTime() + 2 * DAY));
  expect(verifyOffline(jwks, token, new Date(clock.now().getTime() + 3 * DAY + 1000))).rejects.toThrow(/exp/);

  // The same claims and kid, signed by a key that is not the site's.
  const other = await generateKeyPair("Ed25519");
  const { payload, protectedHeader } = await verifyOffline(jwks, token, clock.now());
  const forged = await new SignJWT(payload).setProtectedHeader(protectedHeader).sign(other.privateKey);
  expect(verifyOffline(jwks, forged, clock.now())).rejects.toThrow();
});

test("after a key rotation the old token still verifies until it expires, new tokens use the new key, and the old key goes once its tokens are gone", async () => {
  const clock = testClock();
  const { s, key } = await shopWithSale(clock);
  const before = await call(s, "activate", { key, instanceName: "Old laptop", deviceId: "laptop-0001" });
  const oldKid = (await fetchJwks(s)).keys[0]!.kid ?? "";

  clock.advance(DAY);
  const out: string[] = [];
  expect(
    await runCommand(
      ["licenses", "rotate-key"],
      s.config,
      (l) => out.push(l),
      () => {},
    ),
  ).toBe(0);
  expect(out.join("")).toContain("New signing key");

  // The running site signs with the new key at once, and publishes both.
  const after = await call(s, "activate", { key, instanceName: "New laptop" });
  const jwks = await fetchJwks(s);
  expect(jwks.keys.map((k) => k.kid)).toContain(oldKid);
  expect(jwks.keys).toHaveLength(2);
  const newer = await verifyOffline(jwks, after.body.token, clock.now());
  expect(newer.protectedHeader.kid).not.toBe(oldKid);
  const older = await verifyOffline(jwks, before.body.token, clock.now());
  expect(older.protectedHeader.kid).toBe(oldKid);
  // A renewal of the old installation gets a token from the new key.
  const renewed = await call(s, "verify", { key, instanceId: before.body.instanceId });
  expect((await verifyOffline(jwks, renewed.body.token, clock.now())).protectedHeader.kid).toBe(newer.protectedHeader.kid);

  // Far past every token the old key signed (and every devices link), the next rotation (what the
  // command runs, here on the test clock) removes it.
  clock.advance(60 * DAY);
  expect((await s.licenseKeys.rotate()).removed).toEqual([oldKid]);
  const remaining = await fetchJwks(s);
  expect(remaining.keys.map((k) => k.kid)).not.toContain(oldKid);
});

test("a freed instance is told so by verify and gets no token; the same for every way of freeing it", async () => {
  const { s, key, clock } = await shopWithSale();
  const a = (await call(s, "activate", { key, instanceName: "A" })).body.instanceId;
  const b = (await call(s, "activate", { key, instanceName: "B" })).body.instanceId;

  const good = await call(s, "verify", { key, instanceId: a });
  expect(good.body).toMatchObject({ valid: true, status: "active", activations: 2, instance: "active" });
  await verifyOffline(await fetchJwks(s), good.body.token, clock.now());

  // By the app (deactivate).
  expect((await call(s, "deactivate", { key, instanceId: a })).status).toBe(200);
  const freed = await call(s, "verify", { key, instanceId: a });
  expect(freed.status).toBe(200);
  expect(freed.body).toEqual({ valid: false, status: "active", activations: 1, activationLimit: 5, instance: "freed" });

  // By the owner (reset).
  expect(
    await runCommand(
      ["licenses", "reset", key],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  expect((await call(s, "verify", { key, instanceId: b })).body).toEqual({
    valid: false,
    status: "inactive",
    activations: 0,
    activationLimit: 5,
    instance: "freed",
  });

  // An instance id of another key, or never given out.
  expect((await call(s, "verify", { key, instanceId: "ins_000000000000000000000000" })).body).toMatchObject({
    valid: false,
    instance: "unknown",
  });
  expect((await call(s, "verify", { key, instanceId: "ins_000000000000000000000000" })).body).not.toHaveProperty("token");
});

test("a disabled licence gets no token, even for an installation that still holds its slot", async () => {
  const { s, key } = await shopWithSale();
  const { body } = await call(s, "activate", { key, instanceName: "TV" });
  expect(
    await runCommand(
      ["licenses", "disable", key],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(0);
  const checked = await call(s, "verify", { key, instanceId: body.instanceId });
  expect(checked.body).toMatchObject({ valid: false, status: "disabled", instance: "active" });
  expect(checked.body).not.toHaveProperty("token");
  expect((await call(s, "activate", { key, instanceName: "Another" })).status).toBe(403);
});

test("the same deviceId twice takes one slot and gets the same instance; another device takes another", async () => {
  const { s, key } = await shopWithSale(testClock(), { LICENSE_ACTIVATION_LIMIT: "2" });
  const first = await call(s, "activate", { key, instanceName: "Phone", deviceId: "android-7f3a9c21" });
  const again = await call(s, "activate", { key, instanceName: "Phone (reinstalled)", deviceId: "android-7f3a9c21" });
  expect(first.status).toBe(201);
  expect(again.status).toBe(200);
  expect(again.body.instanceId).toBe(first.body.instanceId);
  expect(again.body.activations).toBe(1);
  expect(typeof again.body.token).toBe("string");

  const tv = await call(s, "activate", { key, instanceName: "TV", deviceId: "tv-00000000042" });
  expect(tv.body).toMatchObject({ activations: 2 });
  // At the limit, a known device still gets back in; a new one does not.
  expect((await call(s, "activate", { key, instanceName: "Phone", deviceId: "android-7f3a9c21" })).status).toBe(200);
  expect((await call(s, "activate", { key, instanceName: "Tablet", deviceId: "tablet-0000001" })).status).toBe(409);
  expect((await call(s, "verify", { key })).body.activations).toBe(2);

  // Freed, the device comes back as a new instance; the freed one stays freed.
  await call(s, "deactivate", { key, instanceId: first.body.instanceId });
  const back = await call(s, "activate", { key, instanceName: "Phone", deviceId: "android-7f3a9c21" });
  expect(back.status).toBe(201);
  expect(back.body.instanceId).not.toBe(first.body.instanceId);
  expect((await call(s, "verify", { key, instanceId: first.body.instanceId })).body.instance).toBe("freed");

  // A deviceId the app cannot mean is refused with the reason.
  const bad = await call(s, "activate", { key, instanceName: "X", deviceId: "short" });
  expect(bad.status).toBe(422);
  expect(bad.body.error).toContain("deviceId");
});

test("the signing key is made once in DATA_DIR, readable only by the owner, and never written to the log", async () => {
  const { s, key } = await shopWithSale();
  await call(s, "activate", { key, instanceName: "TV" });
  const dir = `${s.dataDir}/license-keys`;
  const files = [...new Bun.Glob("*.json").scanSync(dir)];
  expect(files).toHaveLength(1);
  const stored = JSON.parse(await Bun.file(`${dir}/${files[0]}`).text());
  const { statSync } = await import("node:fs");
  expect(statSync(`${dir}/${files[0]}`).mode & 0o077).toBe(0);
  expect(s.logs.join("\n")).not.toContain(stored.jwk.d);
  // A second site on the same folder (another process) uses the same key.
  const second = await createTestSite({ dataDir: s.dataDir, env: { PUBLIC_BASE_URL: BASE } });
  try {
    expect(await fetchJwks(second)).toEqual(await fetchJwks(s));
  } finally {
    await second.close();
  }
});
