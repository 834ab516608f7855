import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ACCOUNT_KEY, CERTIFICATE, CERTIFICATE_KEY } from "../tls/files";
import { TLS_DIR } from "../tls/settings";
import type { BackupTarget } from "./settings";

/**
 * The folder of the licence-signing keys in the data folder (server/shop/licenses/signing-keys.ts
 * keeps them there): named here, where the platform lists what a restore needs, and imported by
 * the licences, so that the platform imports no feature.
 */
export const SIGNING_KEYS_DIR = "license-keys";

/**
 * The HTTPS certificate, its key and the ACME account (DOMAIN set): a restored server serves the
 * certificate at once and renews it with the same account, instead of asking the CA for a new one
 * (Let's Encrypt limits how many it issues a week for the same names).
 */
const TLS_FILES = [ACCOUNT_KEY, "account.json", CERTIFICATE, CERTIFICATE_KEY].map((name) => `${TLS_DIR}/${name}`);

/**
 * The files beside the database the site cannot work without once restored: the IP-hash secret
 * (the leads' hashes and the rate limits' keys) and the licence-signing keys in `license-keys/`
 * (every token the app holds is checked against them), and with DOMAIN the HTTPS certificate and ACME
 * account in `tls/`. They go next to the replica, in `site-files/`, whenever they
 * change. The rate limits' own file does not: it holds nothing worth keeping.
 */
export const isKeptFile = (name: string) =>
  name === "ip-hash.secret" || new RegExp(`^${SIGNING_KEYS_DIR}/[A-Za-z0-9_-]+\\.json$`).test(name) || TLS_FILES.includes(name);

/** The kept files of a data folder, as paths relative to it. */
function keptFilesIn(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  const top = readdirSync(dataDir).filter(isKeptFile);
  const keysDir = join(dataDir, SIGNING_KEYS_DIR);
  const keys = existsSync(keysDir) ? readdirSync(keysDir).map((n) => `${SIGNING_KEYS_DIR}/${n}`) : [];
  const tls = TLS_FILES.filter((name) => existsSync(join(dataDir, name)));
  return [...top, ...keys.filter(isKeptFile), ...tls].sort();
}

const FOLDER = "site-files";

export type Store = {
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array | null>;
};

export function storeFor(target: BackupTarget): Store {
  if (target.kind === "file") {
    const dir = join(target.path, FOLDER);
    return {
      async put(name, bytes) {
        const path = join(dir, name);
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        const temp = `${path}.tmp`;
        writeFileSync(temp, bytes, { mode: 0o600 });
        renameSync(temp, path);
      },
      async get(name) {
        const path = join(dir, name);
        return existsSync(path) ? readFileSync(path) : null;
      },
    };
  }
  const client = new Bun.S3Client({
    bucket: target.bucket,
    endpoint: target.endpoint,
    region: target.region,
    accessKeyId: target.accessKeyId,
    secretAccessKey: target.secretAccessKey,
    virtualHostedStyle: !target.forcePathStyle,
  });
  const key = (name: string) => [target.path, FOLDER, name].filter(Boolean).join("/");
  return {
    async put(name, bytes) {
      await client.write(key(name), bytes);
    },
    async get(name) {
      const file = client.file(key(name));
      if (!(await file.exists())) return null;
      return new Uint8Array(await file.arrayBuffer());
    },
  };
}

const MANIFEST = "manifest.json";

/**
 * Copies the kept files that changed since `pushed` (name -> sha256, updated in place) to the
 * target, then the list of their names. Resolves with the names copied.
 */
export async function pushKeptFiles(dataDir: string, target: BackupTarget, pushed: Map<string, string>): Promise<string[]> {
  const store = storeFor(target);
  const names = keptFilesIn(dataDir);
  const copied: string[] = [];
  for (const name of names) {
    const bytes = readFileSync(join(dataDir, name));
    const digest = createHash("sha256").update(bytes).digest("hex");
    if (pushed.get(name) === digest) continue;
    await store.put(name, bytes);
    pushed.set(name, digest);
    copied.push(name);
  }
  if (copied.length > 0) await store.put(MANIFEST, new TextEncoder().encode(JSON.stringify({ files: names })));
  return copied;
}

/** Brings the kept files back into `dataDir` (restore); resolves with their names. */
export async function pullKeptFiles(dataDir: string, target: BackupTarget): Promise<string[]> {
  const store = storeFor(target);
  const manifest = await store.get(MANIFEST);
  if (manifest === null) return [];
  const parsed: unknown = JSON.parse(new TextDecoder().decode(manifest));
  const files =
    typeof parsed === "object" && parsed !== null && "files" in parsed && Array.isArray(parsed.files)
      ? parsed.files.filter((f): f is string => typeof f === "string" && isKeptFile(f))
      : [];
  const restored: string[] = [];
  for (const name of files) {
    const bytes = await store.get(name);
    if (bytes === null) continue;
    const path = join(dataDir, name);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.restoring`;
    writeFileSync(temp, bytes, { mode: 0o600 });
    if (existsSync(path)) copyFileSync(path, `${path}.before-restore`);
    renameSync(temp, path);
    restored.push(name);
  }
  return restored;
}
