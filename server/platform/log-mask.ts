// What must never reach a log line, whichever field or message it hides in: the log is read by
// whoever runs the server and often shipped to a third party, so personal data and secrets are
// masked before a line is written.

const PATTERNS: [RegExp, string][] = [
  // A password in a URL (SMTP_URL is smtp://user:password@host): keep the user and host.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+@/gi, "$1***@"],
  // Stripe secret and restricted keys, webhook signing secrets, Anthropic keys.
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{6,}/g, "[redacted]"],
  [/\bwhsec_[A-Za-z0-9+/=]{6,}/g, "[redacted]"],
  [/\bsk-ant-[A-Za-z0-9_-]{6,}/g, "[redacted]"],
  // Checkout ids (Stripe's and the test checkout's cs_test_/cs_live_, free-access claims'
  // cs_free_/cs_free_test_): until the success page's
  // bound passes, an id opens the order's page. Its first four characters stay, enough to match
  // the lines of one checkout, far too few to open anything.
  [/\b(cs_(?:free_test|free|test|live)_[A-Za-z0-9]{4})[A-Za-z0-9]+/g, "$1…"],
  // Licence keys: five groups of five letters or digits (shared/license-key.ts).
  [/\b[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}\b/g, "[redacted]"],
  // E-mail addresses keep their first character and their domain: j***@example.com.
  [/([A-Za-z0-9_%+-])[A-Za-z0-9._%+-]*@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})/g, "$1***@$2"],
];

/**
 * Paths whose segment after the prefix is a capability: the console's invite (whoever has it
 * registers a passkey) and the test checkout's card page (its id is the checkout's).
 */
const CAPABILITY_PATHS: readonly RegExp[] = [/^(\/admin\/invite\/)[^/]+/, /^(\/checkout\/test\/)[^/]+/];
/**
 * Any other segment that looks like a random token (24 or more URL-safe characters, letters and
 * digits mixed): a capability pasted into a mistyped address, a link of a future feature.
 */
const TOKEN_SEGMENT = /(?<=\/)(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{24,}(?=\/|$)/g;
const MAY_HOLD_TOKEN = /[A-Za-z0-9_-]{24}/;

/** A path is masked on this much of it at most (a probe may send many kilobytes). */
const MASKED_PATH_SCAN = 1000;
/** What a log line keeps of a path: enough to recognise it. */
export const LOGGED_PATH_LENGTH = 200;

/**
 * A request path as a log line may show it: capabilities in it replaced by "[redacted]", masked like
 * any text, then cut to LOGGED_PATH_LENGTH characters (masked before it is cut, so that no piece of
 * a capability is left at the cut). Every log line that names a path (the access log, the 404 log,
 * refusals, errors) goes through this one function. The query is never passed here: callers leave
 * it out, it may carry a token.
 */
export function maskPath(path: string): string {
  let out = path.length > MASKED_PATH_SCAN ? path.slice(0, MASKED_PATH_SCAN) : path;
  for (const pattern of CAPABILITY_PATHS) out = out.replace(pattern, "$1[redacted]");
  if (MAY_HOLD_TOKEN.test(out)) out = out.replace(TOKEN_SEGMENT, "[redacted]");
  out = maskText(out);
  return out.length > LOGGED_PATH_LENGTH ? `${out.slice(0, LOGGED_PATH_LENGTH)}…` : out;
}

/** Secrets shorter than this are not searched for: "x" would mask every x in every line. */
const MIN_SECRET_LENGTH = 8;
const MAX_DEPTH = 6;

/**
 * Found in any text one of PATTERNS matches: "@" (URL passwords, e-mail addresses), a key prefix,
 * two groups of a licence key. One test instead of six replacements for most lines (every request
 * writes one).
 */
const MAY_NEED_MASKING = /@|_(?:live|test)_|whsec_|sk-ant-|[A-Z0-9]{5}-[A-Z0-9]{5}/;

/** `text` with secrets, passwords in URLs, licence keys and e-mail addresses masked. */
export function maskText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.replaceAll(secret, "[redacted]");
  if (!MAY_NEED_MASKING.test(out)) return out;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Fields whose whole value is a secret, at the top level or one level down. */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
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
]);

/**
 * The same value with every string in it masked, and the fields named like a secret (SECRET_FIELDS,
 * in the object given or one level down) replaced by "[redacted]" (objects and arrays copied, never
 * changed).
 */
export function maskValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === "string") return maskText(value, secrets);
  if (depth >= MAX_DEPTH || value === null || typeof value !== "object") return value;
  if (value instanceof Error)
    return { name: value.name, message: maskText(value.message, secrets), stack: maskText(value.stack ?? "", secrets) };
  if (Array.isArray(value)) return value.map((item) => maskValue(item, secrets, depth + 1));
  if (value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, depth <= 1 && SECRET_FIELDS.has(k) ? "[redacted]" : maskValue(v, secrets, depth + 1)]),
  );
}
