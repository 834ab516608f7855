import { join } from "node:path";
import type { Env } from "../env";

/**
 * HTTPS served by the program itself (DOMAIN set): the names of its certificate, the two ports,
 * the certificate authority's ACME directory, and the folder the account key and certificate are
 * kept in (`DATA_DIR/tls/`, backed up with the other kept files).
 */
export type TlsSettings = {
  domains: string[];
  httpsPort: number;
  httpPort: number;
  directoryUrl: string;
  /** A PEM file to trust for the ACME directory's own HTTPS (a private or test CA). */
  caFile: string | undefined;
  /** The ACME account's contact (OWNER_EMAIL), told of expiry problems by the CA. */
  email: string | undefined;
  dir: string;
};

export const TLS_DIR = "tls";

export function tlsSettingsOf(
  env: Pick<Env, "DOMAIN" | "HTTPS_PORT" | "HTTP_PORT" | "ACME_DIRECTORY" | "ACME_CA_FILE" | "OWNER_EMAIL">,
  dataDir: string,
): TlsSettings | null {
  if (env.DOMAIN === undefined) return null;
  return {
    domains: env.DOMAIN,
    httpsPort: env.HTTPS_PORT,
    httpPort: env.HTTP_PORT,
    directoryUrl: env.ACME_DIRECTORY,
    caFile: env.ACME_CA_FILE,
    email: env.OWNER_EMAIL,
    dir: join(dataDir, TLS_DIR),
  };
}

/** The site's address over HTTPS: the first name, with the port only when it is not 443. */
export function httpsBaseUrl(tls: Pick<TlsSettings, "domains" | "httpsPort">): string {
  return `https://${tls.domains[0]}${tls.httpsPort === 443 ? "" : `:${tls.httpsPort}`}`;
}

/**
 * The start-up line's address for a site serving HTTPS itself: both ports, as really listened on.
 * Without a certificate yet, the HTTPS port is not listened on: the line says HTTP answers meanwhile.
 */
export function httpsListeningText(host: string, tls: Pick<TlsSettings, "httpsPort" | "httpPort">, certificate: boolean): string {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  if (!certificate)
    return `http://${bracketed}:${tls.httpPort} (a page saying the certificate is pending; https://${bracketed}:${tls.httpsPort} once it is obtained)`;
  return `https://${bracketed}:${tls.httpsPort} and http://${bracketed}:${tls.httpPort} (redirects to HTTPS)`;
}
