import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";

// What DATA_DIR/tls/ holds: the ACME account's key (the same account for every renewal), the
// certificate with its chain and its key, the challenge answers being checked (files, so that
// every process sharing the HTTP port can answer them), and the state of the last attempt, which
// the console and the digest read.

export const ACCOUNT_KEY = "account.key";
export const CERTIFICATE = "certificate.pem";
export const CERTIFICATE_KEY = "certificate.key";
const STATUS = "status.json";
const CHALLENGES = "challenges";

export type Certificate = { cert: string; key: string; notBefore: Date; notAfter: Date; names: string[]; serial: string };

/** Writes a file whole then renames it: a process reading it never sees half of it. */
function writeWhole(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

export function ensureTlsDir(dir: string): void {
  mkdirSync(join(dir, CHALLENGES), { recursive: true, mode: 0o700 });
}

export function readAccountKey(dir: string): string | null {
  const path = join(dir, ACCOUNT_KEY);
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

export function writeAccountKey(dir: string, pem: string): void {
  writeWhole(join(dir, ACCOUNT_KEY), pem);
}

const ACCOUNT = "account.json";
const AccountSchema = v.object({ directory: v.string(), url: v.string() });

/** The account's address at `directory`, kept from its registration; null for another directory or none. */
export function readAccountUrl(dir: string, directory: string): string | null {
  try {
    const parsed = v.safeParse(AccountSchema, JSON.parse(readFileSync(join(dir, ACCOUNT), "utf8")));
    return parsed.success && parsed.output.directory === directory ? parsed.output.url : null;
  } catch {
    return null;
  }
}

export function writeAccountUrl(dir: string, directory: string, url: string): void {
  writeWhole(join(dir, ACCOUNT), `${JSON.stringify({ directory, url })}\n`);
}

export function forgetAccountUrl(dir: string): void {
  rmSync(join(dir, ACCOUNT), { force: true });
}

/** The certificate kept in `dir` and its key, or null when there is none or it cannot be read. */
export function readCertificate(dir: string): Certificate | null {
  const certPath = join(dir, CERTIFICATE);
  const keyPath = join(dir, CERTIFICATE_KEY);
  if (!existsSync(certPath) || !existsSync(keyPath)) return null;
  try {
    const cert = readFileSync(certPath, "utf8");
    const key = readFileSync(keyPath, "utf8");
    return { cert, key, ...describe(cert) };
  } catch {
    return null;
  }
}

/** The leaf certificate's end of validity, names and serial. */
export function describe(chainPem: string): Pick<Certificate, "notBefore" | "notAfter" | "names" | "serial"> {
  const leaf = new X509Certificate(chainPem);
  const names = (leaf.subjectAltName ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith("DNS:"))
    .map((entry) => entry.slice(4));
  return { notBefore: new Date(leaf.validFrom), notAfter: new Date(leaf.validTo), names, serial: leaf.serialNumber };
}

/** Keeps a new certificate: the key first, so that a reader never pairs a new chain with an old key for long. */
export function writeCertificate(dir: string, cert: string, key: string): void {
  writeWhole(join(dir, CERTIFICATE_KEY), key);
  writeWhole(join(dir, CERTIFICATE), cert);
}

/** A challenge token is base64url (RFC 8555 section 8.1): anything else is not a file name to look up. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

export function writeChallenge(dir: string, token: string, keyAuthorization: string): void {
  if (!TOKEN.test(token)) throw new Error("the certificate authority sent a challenge token that is not base64url");
  writeWhole(join(dir, CHALLENGES, token), keyAuthorization);
}

export function removeChallenge(dir: string, token: string): void {
  if (TOKEN.test(token)) rmSync(join(dir, CHALLENGES, token), { force: true });
}

export function readChallenge(dir: string, token: string): string | null {
  if (!TOKEN.test(token)) return null;
  const path = join(dir, CHALLENGES, token);
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The last attempt to get or renew the certificate, for the console and the digest. */
export type TlsStatus = {
  /** When the certificate kept now expires (null: none yet). */
  notAfter: Date | null;
  lastRenewedAt: Date | null;
  /** The last attempt's error, until one succeeds. */
  lastError: string | null;
  lastErrorAt: Date | null;
  nextAttemptAt: Date | null;
};

const DateText = v.pipe(
  v.string(),
  v.transform((s) => new Date(s)),
  v.check((d) => !Number.isNaN(d.getTime())),
);
const StatusSchema = v.object({
  notAfter: v.nullable(DateText),
  lastRenewedAt: v.nullable(DateText),
  lastError: v.nullable(v.string()),
  lastErrorAt: v.nullable(DateText),
  nextAttemptAt: v.nullable(DateText),
});

export const NO_STATUS: TlsStatus = { notAfter: null, lastRenewedAt: null, lastError: null, lastErrorAt: null, nextAttemptAt: null };

export function readTlsStatus(dir: string): TlsStatus {
  try {
    const parsed = v.safeParse(StatusSchema, JSON.parse(readFileSync(join(dir, STATUS), "utf8")));
    return parsed.success ? parsed.output : NO_STATUS;
  } catch {
    return NO_STATUS;
  }
}

export function writeTlsStatus(dir: string, status: TlsStatus): void {
  writeWhole(join(dir, STATUS), `${JSON.stringify(status)}\n`);
}
