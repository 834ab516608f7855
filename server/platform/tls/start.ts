import { errorText } from "../../../shared/error-text";
import type { Config } from "../config";
import { isAddressInUse } from "../http/listen";
import type { Logger } from "../log";
import { type CertificateManager, startCertificates } from "./certificates";
import { type Certificate, ensureTlsDir, readCertificate } from "./files";
import { type HttpsApp, type HttpsSite, listenHttps } from "./serve-https";
import type { TlsSettings } from "./settings";

/** A kept certificate still good for serving now (renewal may be due: the manager sees to that). */
const servable = (cert: Certificate | null, settings: TlsSettings, at: Date): cert is Certificate =>
  cert !== null && cert.notAfter.getTime() > at.getTime() && settings.domains.every((name) => cert.names.includes(name));

/**
 * The first process of a site serving HTTPS itself: listens on the HTTP port, serves the kept
 * certificate on the HTTPS port at once when there is a good one, and keeps it current over ACME;
 * each new certificate is served without a restart and `onCertificate` tells the other processes.
 * A port another program holds: one line naming it and the variable, exit 1. Replacing the site's
 * running server, it listens beside it; the certificate is the one kept in the tls folder, served at once.
 */
export async function startHttpsSite(options: {
  app: HttpsApp;
  config: Pick<Config, "host">;
  settings: TlsSettings;
  log: Logger;
  now: () => Date;
  pendingPage: string;
  onCertificate: () => void;
  /**
   * The site's server already running on these ports and data folder, which this one replaces:
   * its ports are shared at once (SO_REUSEPORT) instead of checked free first.
   */
  replacing?: boolean;
}): Promise<{ site: HttpsSite; certificates: CertificateManager }> {
  const { app, config, settings, log, now, pendingPage, onCertificate } = options;
  ensureTlsDir(settings.dir);
  let site: HttpsSite;
  try {
    site = listenHttps({ app, config, settings, log, pendingPage, first: options.replacing !== true });
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    console.error(
      `Port ${settings.httpPort} or ${settings.httpsPort} on ${config.host} is in use by another program (a web server?): stop it, or set HTTP_PORT and HTTPS_PORT to free ports.`,
    );
    process.exit(1);
  }
  const kept = readCertificate(settings.dir);
  if (servable(kept, settings, now())) await site.serve(kept);
  const certificates = startCertificates({
    settings,
    log,
    now,
    onCertificate: (cert) => {
      site
        .serve(cert)
        .then(onCertificate)
        .catch((error: unknown) => log.error("the new HTTPS certificate could not be served", { error: errorText(error) }));
    },
  });
  return { site, certificates };
}

/**
 * In a worker of a site serving HTTPS itself: the HTTP port at once, the HTTPS port with the
 * certificate the first process keeps in the tls folder (when there is one yet); `reload` serves
 * the folder's certificate again once the first process says it changed.
 */
export async function joinHttpsSite(options: {
  app: HttpsApp;
  config: Pick<Config, "host">;
  settings: TlsSettings;
  log: Logger;
  pendingPage: string;
}): Promise<{ site: HttpsSite; reload: () => Promise<void> }> {
  const site = listenHttps({ ...options, first: false });
  const reload = async () => {
    const cert = readCertificate(options.settings.dir);
    if (cert !== null && cert.serial !== site.serving()?.serial) {
      await site.serve(cert);
      // Each process says which certificate it serves: a renewal is seen taken up by all of them.
      options.log.info("HTTPS certificate served", { serial: cert.serial, expires: cert.notAfter.toISOString() });
    }
  };
  await reload();
  return { site, reload };
}
