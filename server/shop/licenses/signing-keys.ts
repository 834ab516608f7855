import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import * as v from "valibot";
import { SIGNING_KEYS_DIR } from "../../platform/backup/kept-files";

// The site's Ed25519 signing keys: licence tokens the app checks offline, and the buyer's links to
// the devices page. One JSON file per key in DATA_DIR/license-keys/ (made once, private to the owner,
// like the IP-hash secret); the newest signs. A key that was replaced still verifies, and stays in
// the published JWKS, until the last token it can have signed has expired.

const StoredKey = v.object({
  kid: v.string(),
  createdAt: v.number(),
  jwk: v.object({ kty: v.literal("OKP"), crv: v.literal("Ed25519"), x: v.string(), d: v.string() }),
});

type LoadedKey = { kid: string; createdAt: number; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK; file: string };

export type PublicJwks = { keys: JWK[] };

export type SigningKeys = {
  /** The keys that verify: the newest, and each older one while tokens it signed may still be valid. */
  jwks(): Promise<PublicJwks>;
  /** A compact JWS (EdDSA) of these claims, signed by the newest key, with its kid. */
  sign(claims: JWTPayload & { aud: string; sub: string }, expiresAt: Date): Promise<string>;
  /** The claims of a token this site signed for this audience, still valid at `now`; null otherwise. */
  verify(token: string, audience: string): Promise<JWTPayload | null>;
  /** Adds a new key that signs from now on; keys past their last token's expiry are deleted. */
  rotate(): Promise<{ kid: string; removed: string[] }>;
};

/**
 * `keepRetiredMs`: how long a replaced key still verifies (the longest life of anything it signed).
 * The folder is read again whenever it changes, so a rotation by the CLI reaches running servers.
 */
export function openSigningKeys(options: { dataDir: string; issuer: string; keepRetiredMs: number; now: () => Date }): SigningKeys {
  const dir = join(options.dataDir, SIGNING_KEYS_DIR);
  let loaded: { stamp: number; keys: LoadedKey[] } | null = null;

  const stampOf = () => {
    try {
      return statSync(dir).mtimeMs;
    } catch {
      return -1;
    }
  };

  const load = async (): Promise<LoadedKey[]> => {
    let stamp = stampOf();
    if (loaded !== null && loaded.stamp === stamp) return loaded.keys;
    let keys = await readKeys(dir);
    if (keys.length === 0) {
      await createKey(dir, options.now());
      stamp = stampOf();
      keys = await readKeys(dir);
    }
    loaded = { stamp, keys };
    return keys;
  };

  /** The newest key, and the older ones whose successor came recently enough. */
  const usable = (keys: LoadedKey[]): LoadedKey[] => {
    const now = options.now().getTime();
    return keys.filter((_key, i) => {
      const successor = keys[i + 1];
      return successor === undefined || successor.createdAt + options.keepRetiredMs > now;
    });
  };

  return {
    async jwks() {
      const keys = usable(await load());
      return { keys: keys.map((k) => k.publicJwk) };
    },
    async sign(claims, expiresAt) {
      const keys = await load();
      const newest = keys[keys.length - 1];
      if (newest === undefined) throw new Error("No licence signing key");
      const now = options.now();
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "EdDSA", kid: newest.kid, typ: "JWT" })
        .setIssuer(options.issuer)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(newest.privateKey);
    },
    async verify(token, audience) {
      const keys = usable(await load());
      try {
        const { payload } = await jwtVerify(
          token,
          async (header) => {
            const key = keys.find((k) => k.kid === header.kid);
            if (key === undefined) throw new Error("unknown key");
            return key.publicKey;
          },
          { issuer: options.issuer, audience, algorithms: ["EdDSA"], currentDate: options.now() },
        );
        return payload;
      } catch {
        return null;
      }
    },
    async rotate() {
      const before = await load();
      const kid = await createKey(dir, options.now());
      const after = await readKeys(dir);
      const kept = new Set(usable(after).map((k) => k.kid));
      const removed: string[] = [];
      for (const key of before) {
        if (kept.has(key.kid)) continue;
        unlinkSync(key.file);
        removed.push(key.kid);
      }
      loaded = null;
      return { kid, removed };
    },
  };
}

async function readKeys(dir: string): Promise<LoadedKey[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  }
  const keys: LoadedKey[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const parsed = v.safeParse(StoredKey, JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) throw new Error(`${file} is not a licence signing key`);
    const { kid, createdAt, jwk } = parsed.output;
    const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, alg: "EdDSA", use: "sig" };
    const privateKey = await importJWK({ ...jwk, alg: "EdDSA" }, "EdDSA");
    const publicKey = await importJWK(publicJwk, "EdDSA");
    // A symmetric secret comes back as bytes; an Ed25519 JWK never does.
    if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new Error(`${file}: not an Ed25519 key`);
    keys.push({ kid, createdAt, privateKey, publicKey, publicJwk, file });
  }
  return keys.sort((a, b) => a.createdAt - b.createdAt || a.kid.localeCompare(b.kid));
}

/** A new key, written whole under its final name or not at all (two processes starting together make one each, both valid). */
async function createKey(dir: string, now: Date): Promise<string> {
  const { privateKey } = await generateKeyPair("Ed25519", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: jwk.x ?? "" });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${kid}.json`);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const stored: v.InferOutput<typeof StoredKey> = {
    kid,
    createdAt: now.getTime(),
    jwk: { kty: "OKP", crv: "Ed25519", x: jwk.x ?? "", d: jwk.d ?? "" },
  };
  writeFileSync(temp, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path);
  } finally {
    unlinkSync(temp);
  }
  return kid;
}
