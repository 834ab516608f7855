import type { Logger } from "../log";
import { acmeErrorText, requestCertificate, trustForAcme } from "./acme";
import { type Certificate, ensureTlsDir, readCertificate, readTlsStatus, writeCertificate, writeTlsStatus } from "./files";
import type { TlsSettings } from "./settings";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Renewed this long before it expires, as Let's Encrypt advises: weeks of retries before a visitor sees a warning. */
export const RENEW_BEFORE_MS = 30 * DAY_MS;
/** A failed attempt is tried again after a minute, then twice as long each time, at most six hours apart. */
const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000;
/** Even with nothing due, the certificate is looked at twice a day (a clock changed, a file restored). */
const LOOK_EVERY_MS = 12 * 60 * 60 * 1000;

export type CertificateManager = {
  /** The certificate served now, or null while the first one is pending. */
  current(): Certificate | null;
  /** Gets or renews the certificate now if it is due (or missing); resolves once that attempt is over. */
  check(): Promise<void>;
  stop(): void;
};

/**
 * When `cert` is to be renewed: 30 days before its end, or with a third of its life left when it
 * lives less than 90 days (Let's Encrypt's advice, and its short-lived certificates last 6 days:
 * 30 days before the end would be before the start, and the server would renew without pause).
 */
export function renewalDueAt(cert: Pick<Certificate, "notBefore" | "notAfter">): number {
  const life = cert.notAfter.getTime() - cert.notBefore.getTime();
  return cert.notAfter.getTime() - Math.min(RENEW_BEFORE_MS, life / 3);
}

/** Whether `cert` covers every name and its renewal is not yet due. */
export function isCurrent(cert: Certificate | null, domains: string[], at: Date): boolean {
  if (cert === null) return false;
  if (!domains.every((name) => cert.names.includes(name))) return false;
  return renewalDueAt(cert) > at.getTime();
}

/**
 * Keeps a certificate for the settings' names in the tls folder: the one there if it is still good,
 * otherwise a new one from the CA, and a renewal 30 days before it expires, all in the running
 * server. Each new certificate is handed to `onCertificate` (which serves it without a restart). A
 * failure is logged and recorded for the console and the digest (status.json), and tried again
 * with a growing delay; the certificate in use, if any, stays served meanwhile.
 */
export function startCertificates(options: {
  settings: TlsSettings;
  log: Logger;
  now: () => Date;
  onCertificate: (cert: Certificate) => void;
}): CertificateManager {
  const { settings, log, now, onCertificate } = options;
  ensureTlsDir(settings.dir);
  trustForAcme(settings.caFile);
  let cert = readCertificate(settings.dir);
  let retryMs = FIRST_RETRY_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => void check(), Math.max(0, ms));
    // The certificate's timer alone never keeps the process running.
    timer.unref();
  };

  const attempt = async () => {
    const at = now();
    if (cert !== null && isCurrent(cert, settings.domains, at)) {
      schedule(Math.min(LOOK_EVERY_MS, renewalDueAt(cert) - at.getTime()));
      return;
    }
    const renewing = cert !== null;
    log.info(renewing ? "renewing the HTTPS certificate" : "requesting the HTTPS certificate", {
      domains: settings.domains,
      directory: settings.directoryUrl,
      ...(cert !== null ? { expires: cert.notAfter.toISOString() } : {}),
    });
    try {
      const issued = await requestCertificate(settings);
      writeCertificate(settings.dir, issued.cert, issued.key);
      const fresh = readCertificate(settings.dir);
      if (fresh === null) throw new Error(`the certificate written to ${settings.dir} cannot be read back`);
      cert = fresh;
      retryMs = FIRST_RETRY_MS;
      writeTlsStatus(settings.dir, {
        notAfter: fresh.notAfter,
        lastRenewedAt: now(),
        lastError: null,
        lastErrorAt: null,
        nextAttemptAt: null,
      });
      log.info(renewing ? "HTTPS certificate renewed" : "HTTPS certificate obtained", {
        domains: fresh.names,
        expires: fresh.notAfter.toISOString(),
      });
      if (!stopped) onCertificate(fresh);
      schedule(Math.min(LOOK_EVERY_MS, renewalDueAt(fresh) - now().getTime()));
    } catch (error) {
      const message = acmeErrorText(error);
      const next = new Date(now().getTime() + retryMs);
      log.error(renewing ? "HTTPS certificate renewal failed" : "HTTPS certificate not obtained: HTTP answers that it is pending", {
        domains: settings.domains,
        directory: settings.directoryUrl,
        error: message,
        retryInSeconds: Math.round(retryMs / 1000),
        ...(cert !== null ? { servedCertificateExpires: cert.notAfter.toISOString() } : {}),
      });
      writeTlsStatus(settings.dir, {
        ...readTlsStatus(settings.dir),
        notAfter: cert?.notAfter ?? null,
        lastError: message,
        lastErrorAt: now(),
        nextAttemptAt: next,
      });
      schedule(retryMs);
      retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
    }
  };

  const check = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= attempt().finally(() => {
      running = null;
    });
    return running;
  };

  void check();
  return {
    current: () => cert,
    check,
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
