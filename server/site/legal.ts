import { formatTermsVersion, type LegalFacts, TERMS_VERSION } from "../../shared/legal";
import type { Locale } from "../../shared/locales";
import type { Config } from "../platform/config";

/**
 * What the legal pages state, from the configuration of the running site: who sells, and what the
 * site really does (which payment provider, which chat assistant, how long data is kept), so that
 * every sentence of the privacy policy and the terms is true of this installation.
 */
export function legalFacts(config: Config, locale: Locale): LegalFacts {
  return {
    identity: config.legal,
    termsVersion: TERMS_VERSION,
    termsVersionDate: formatTermsVersion(TERMS_VERSION, locale),
    activationLimit: config.licenseActivationLimit,
    retention: config.retention,
    payment: config.stripe !== undefined ? "stripe" : "test",
    chat: config.anthropic !== undefined ? "claude" : "offline",
    chatDigest: config.digest.frequency !== "off" && config.mail.ownerEmail !== undefined,
    smtp: config.mail.smtpUrl !== undefined,
    backup: backupPlace(config),
    vatScheme: config.vatScheme,
  };
}

/** The backup's storage as a visitor may read it: the service's host name, never a bucket or a key. */
function backupPlace(config: Config): LegalFacts["backup"] {
  const target = config.backup;
  if (target === null) return null;
  if (target.kind === "file") return { storage: null };
  return { storage: target.endpoint !== undefined ? new URL(target.endpoint).hostname : "Amazon S3" };
}
