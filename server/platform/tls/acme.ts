import { readFileSync } from "node:fs";
import { Agent } from "node:https";
import * as acme from "acme-client";
import { errorText } from "../../../shared/error-text";
import {
  forgetAccountUrl,
  readAccountKey,
  readAccountUrl,
  removeChallenge,
  writeAccountKey,
  writeAccountUrl,
  writeChallenge,
} from "./files";
import type { TlsSettings } from "./settings";

/**
 * Gets a certificate for the settings' names from the ACME certificate authority with acme-client
 * (account, order, http-01 challenges, finalisation, download: RFC 8555 is long and exacting, and
 * a well-kept client follows the CAs' changes). The challenge answers are written as files in the
 * tls folder, which every process listening on the HTTP port serves.
 */
export async function requestCertificate(settings: TlsSettings): Promise<{ cert: string; key: string }> {
  await reachDirectory(settings);
  let accountKey = readAccountKey(settings.dir);
  if (accountKey === null) {
    accountKey = (await acme.crypto.createPrivateEcdsaKey()).toString();
    writeAccountKey(settings.dir, accountKey);
  }
  // The account's address, kept from its registration with this directory: a renewal goes on with
  // it instead of registering again (which, for an account that exists, some CAs refuse).
  const known = readAccountUrl(settings.dir, settings.directoryUrl);
  const client = new acme.Client({ directoryUrl: settings.directoryUrl, accountKey, ...(known !== null ? { accountUrl: known } : {}) });
  const [key, csr] = await acme.crypto.createCsr({ commonName: settings.domains[0], altNames: settings.domains });
  const cert = await client
    .auto({
      csr,
      email: settings.email,
      termsOfServiceAgreed: true,
      challengePriority: ["http-01"],
      // acme-client's own check fetches the answer through the public DNS before telling the CA;
      // the CA checks it anyway, and a host behind NAT may not reach its own public address.
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        writeChallenge(settings.dir, challenge.token, keyAuthorization);
      },
      challengeRemoveFn: async (_authz, challenge) => {
        removeChallenge(settings.dir, challenge.token);
      },
    })
    .catch(async (error: unknown) => {
      // The CA may have forgotten the account (a test CA restarted, an account deactivated): register again next time.
      if (known !== null) forgetAccountUrl(settings.dir);
      // The CA gone in the middle: acme-client's own words for it mean nothing to an owner.
      await reachDirectory(settings);
      throw error;
    });
  if (known === null) writeAccountUrl(settings.dir, settings.directoryUrl, client.getAccountUrl());
  return { cert, key: key.toString() };
}

/** How long the directory has to answer before the attempt counts as failed (then retried later). */
const DIRECTORY_TIMEOUT_MS = 15_000;

/**
 * Asks the ACME directory once before anything else. acme-client's HTTP layer turns a refused or
 * timed-out connection into an unrelated error of its own ("undefined is not an object"), after a
 * minute of retries: this says in one line which address could not be reached, and why.
 */
async function reachDirectory(settings: Pick<TlsSettings, "directoryUrl" | "caFile">): Promise<void> {
  const ca = settings.caFile === undefined ? undefined : readFileSync(settings.caFile, "utf8");
  let response: Response;
  try {
    response = await fetch(settings.directoryUrl, {
      signal: AbortSignal.timeout(DIRECTORY_TIMEOUT_MS),
      redirect: "follow",
      ...(ca !== undefined ? { tls: { ca } } : {}),
    });
  } catch (error) {
    throw new Error(`The certificate authority's ACME directory ${settings.directoryUrl} cannot be reached: ${reasonOf(error)}.`);
  }
  await response.body?.cancel();
  if (!response.ok)
    throw new Error(
      `The certificate authority's ACME directory ${settings.directoryUrl} answered ${response.status} instead of its directory.`,
    );
}

/** A failed fetch's reason in words an owner can act on (the connection's error code first). */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${DIRECTORY_TIMEOUT_MS / 1000} s`;
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "the name does not resolve",
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its certificate is not trusted (ACME_CA_FILE names the CA to trust)",
    SELF_SIGNED_CERT_IN_CHAIN: "its certificate is not trusted (ACME_CA_FILE names the CA to trust)",
    DEPTH_ZERO_SELF_SIGNED_CERT: "its certificate is not trusted (ACME_CA_FILE names the CA to trust)",
  };
  if (known[code] !== undefined) return known[code];
  const message = errorText(error);
  return code !== "" ? `${message} (${code})` : message;
}

/**
 * The CA to trust for the ACME directory's HTTPS (ACME_CA_FILE): set on acme-client's own HTTP
 * client only, so that no other connection of the program trusts it or loses its checks.
 */
export function trustForAcme(caFile: string | undefined): void {
  acme.axios.defaults.httpsAgent = caFile === undefined ? undefined : new Agent({ ca: readFileSync(caFile, "utf8") });
  // acme-client retries a failed request five times, 5 to 25 s apart (75 s in all) before failing
  // with a meaningless error; the certificate manager retries the whole attempt itself (from a
  // minute, then less often) and says why in between. Two quick retries cover a passing hiccup.
  // (acmeSettings is acme-client's own addition to its axios instance, outside axios's types.)
  const settings: unknown = Reflect.get(acme.axios.defaults, "acmeSettings");
  const current = typeof settings === "object" && settings !== null ? settings : {};
  Object.assign(acme.axios.defaults, { acmeSettings: { ...current, retryMaxAttempts: 2, retryDefaultDelay: 1 } });
}

/** acme-client reports problems as errors whose message is the CA's `detail`: one line for the log and the console. */
export function acmeErrorText(error: unknown): string {
  const text = errorText(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}
