import { readFileSync } from "node:fs";
import { Agent } from "node:https";
import * as acme from "acme-client";
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
    .catch((error: unknown) => {
      // The CA may have forgotten the account (a test CA restarted, an account deactivated): register again next time.
      if (known !== null) forgetAccountUrl(settings.dir);
      throw error;
    });
  if (known === null) writeAccountUrl(settings.dir, settings.directoryUrl, client.getAccountUrl());
  return { cert, key: key.toString() };
}

/**
 * The CA to trust for the ACME directory's HTTPS (ACME_CA_FILE): set on acme-client's own HTTP
 * client only, so that no other connection of the program trusts it or loses its checks.
 */
export function trustForAcme(caFile: string | undefined): void {
  acme.axios.defaults.httpsAgent = caFile === undefined ? undefined : new Agent({ ca: readFileSync(caFile, "utf8") });
}

/** acme-client reports problems as errors whose message is the CA's `detail`: one line for the log and the console. */
export function acmeErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}
