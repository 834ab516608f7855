import pino, { type DestinationStream } from "pino";
import type { Config } from "./config";
import { maskText, maskValue } from "./log-mask";

type Level = "debug" | "info" | "warn" | "error";

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void>;

/** Fields whose whole value is a secret, at the top level or one level down (pino's redact paths). */
const SECRET_FIELDS = [
  "password",
  "pass",
  "secret",
  "secretKey",
  "webhookSecret",
  "apiKey",
  "authorization",
  "cookie",
  "token",
  "key",
  "licenseKey",
  "smtpUrl",
  "ipHashSecret",
];
const REDACT_PATHS = SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]);

/**
 * One JSON line per event (pino): `{"level":"info","time":"…","msg":"…", …fields}`. Lines go to
 * standard output, or to `write` (tests collect them). Fields named like a secret are replaced by
 * "[redacted]"; in every string, e-mail addresses are masked (j***@example.com), and so are the
 * values of `options.secrets` (the configured keys and passwords) and anything shaped like a Stripe
 * or Anthropic key, a password in a URL or a licence key.
 */
export function createLogger(
  level: Level | "silent" = "info",
  write?: (line: string) => void,
  options: { secrets?: readonly string[] } = {},
): Logger {
  const secrets = options.secrets ?? [];
  // Synchronous writes to stdout: a line written just before the process exits is not lost.
  const destination: DestinationStream = write ? { write: (line) => write(line.trimEnd()) } : pino.destination({ dest: 1, sync: true });
  const logger = pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination,
  );
  const make = (lvl: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (!logger.isLevelEnabled(lvl)) return;
    const text = maskText(message, secrets);
    if (fields === undefined) logger[lvl](text);
    else logger[lvl](maskValue(fields, secrets), text);
  };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error") };
}

/** The configured secrets, to be masked wherever they would appear in a log line. */
export function configSecrets(config: Pick<Config, "stripe" | "anthropic" | "mail" | "ipHashSecret">): string[] {
  const smtpPassword = smtpPasswordOf(config.mail.smtpUrl);
  return [config.stripe?.secretKey, config.stripe?.webhookSecret, config.anthropic?.apiKey, config.ipHashSecret, smtpPassword].filter(
    (secret): secret is string => secret !== undefined && secret !== "",
  );
}

function smtpPasswordOf(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const password = new URL(url).password;
  return password === "" ? undefined : decodeURIComponent(password);
}
