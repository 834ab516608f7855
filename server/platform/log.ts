import { writeSync } from "node:fs";
import type { Config } from "./config";
import { maskText, maskValue } from "./log-mask";

type Level = "debug" | "info" | "warn" | "error";

/** The access log's line for one request (server/platform/http/access-log.ts). */
export type RequestLine = { method: string; path: string; status: number; ms: number; requestId: string };

export type Logger = Record<Level, (message: string, fields?: Record<string, unknown>) => void> & {
  /** `info("request", line)`, written with its fields known in advance: one per request, so it must be cheap. */
  request(line: RequestLine): void;
};

const RANK: Record<Level | "silent", number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/**
 * One JSON line per event: `{"level":"info","time":"…", …fields,"msg":"…"}` (written here rather
 * than by a logging library: the one used before, with the worker-thread module it loads, was about
 * 10 ms of every process's start). Lines go to standard output, or to `write` (tests collect them).
 * Fields named like a secret are replaced by "[redacted]"; in every string, e-mail addresses are
 * masked (j***@example.com), and so are the values of `options.secrets` (the configured keys and
 * passwords) and anything shaped like a Stripe or Anthropic key, a password in a URL or a licence
 * key (log-mask.ts).
 */
export function createLogger(
  level: Level | "silent" = "info",
  write?: (line: string) => void,
  options: { secrets?: readonly string[] /** On every line (a worker process's number). */; fields?: Record<string, string | number> } = {},
): Logger {
  const secrets = options.secrets ?? [];
  const out: (line: string) => void = write ? (line) => write(line.trimEnd()) : batchedStdout();
  const enabled = (lvl: Level) => RANK[lvl] >= RANK[level];
  const requestsLogged = enabled("info");
  const base = options.fields === undefined ? "" : JSON.stringify(options.fields).slice(1, -1);
  const head = base === "" ? "" : `,${base}`;
  const now = isoClock();
  const make = (lvl: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (!enabled(lvl)) return;
    const rest = fields === undefined ? "" : fieldsJson(maskValue(fields, secrets));
    out(
      `{"level":"${lvl}","time":"${now()}"${head}${rest === "" ? "" : `,${rest}`},"msg":${JSON.stringify(maskText(message, secrets))}}\n`,
    );
  };
  // Paths the secrets leave as they are, already written as JSON: the same few pages make most lines.
  const cleanPaths = new Map<string, string>();
  const pathJson = (path: string): string => {
    const known = cleanPaths.get(path);
    if (known !== undefined) return known;
    const masked = maskText(path, secrets);
    const json = jsonString(masked);
    if (masked === path) {
      if (cleanPaths.size >= 512) cleanPaths.clear();
      cleanPaths.set(path, json);
    }
    return json;
  };
  const request = (line: RequestLine) => {
    if (!requestsLogged) return;
    out(
      `{"level":"info","time":"${now()}"${head},"method":${jsonString(line.method)},"path":${pathJson(line.path)},"status":${line.status},"ms":${line.ms},"requestId":${jsonString(maskText(line.requestId, secrets))},"msg":"request"}\n`,
    );
  };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error"), request };
}

/**
 * The fields as the inside of a JSON object. What JSON cannot write (a BigInt, a cycle below the
 * depth masking copies) is written as text rather than losing the line: a log call never throws.
 */
function fieldsJson(fields: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(fields);
  } catch {
    const seen = new WeakSet<object>();
    json = JSON.stringify(fields, (_key, value: unknown) => {
      if (typeof value === "bigint") return value.toString();
      if (value !== null && typeof value === "object") {
        if (seen.has(value)) return "[Circular]";
        seen.add(value);
      }
      return value;
    });
  }
  return json.length <= 2 ? "" : json.slice(1, -1);
}

/** Characters a JSON string holds as they are: most methods, paths and request ids are only these. */
const PLAIN_JSON = /^[A-Za-z0-9 ._:+=/-]*$/;
const jsonString = (text: string) => (PLAIN_JSON.test(text) ? `"${text}"` : JSON.stringify(text));

/** The time in ISO 8601, formatted once per millisecond however many lines it has. */
function isoClock(): () => string {
  let at = 0;
  let text = "";
  return () => {
    const ms = Date.now();
    if (ms !== at) {
      at = ms;
      text = new Date(ms).toISOString();
    }
    return text;
  };
}

/** What a pipe takes in one piece (POSIX PIPE_BUF on Linux): a write of at most this is never cut. */
const ATOMIC_WRITE_BYTES = 4096;

/** How long a line may wait for others to share its write. */
const BATCH_MS = 10;

/**
 * Standard output, written synchronously but in batches rather than line by line: a write of
 * whole lines of at most 4 KB as soon as that much is pending, and whatever is pending 10 ms after
 * the first line of a batch. Under load that is one system call for about twenty request lines
 * instead of one each (a write per line cost more than answering a static page), and since no
 * write is more than 4 KB, lines of several server processes sharing one pipe never cut into each
 * other. What is pending is written when the process exits, so a line logged just before is not
 * lost; a line may follow the answer it reports by up to 10 ms.
 */
function batchedStdout(): (line: string) => void {
  let chunk = "";
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (bytes === 0) return;
    writeAllToStdout(chunk, bytes);
    chunk = "";
    bytes = 0;
  };
  process.on("exit", flush);
  return (line: string) => {
    // A line's length in UTF-16 units is its size in bytes when it is ASCII, as nearly all are.
    const size = ASCII.test(line) ? line.length : Buffer.byteLength(line);
    if (bytes > 0 && bytes + size > ATOMIC_WRITE_BYTES) {
      writeAllToStdout(chunk, bytes);
      chunk = "";
      bytes = 0;
    }
    chunk += line;
    bytes += size;
    if (timer === null) {
      timer = setTimeout(flush, BATCH_MS);
      timer.unref();
    }
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range starts at NUL on purpose (any ASCII byte).
const ASCII = /^[\x00-\x7f]*$/;

function writeAllToStdout(text: string, bytes: number): void {
  let rest: Buffer | null = null;
  for (let done = 0; done < bytes; ) {
    try {
      // Whole in one call nearly always; a partial write (a full disk) goes on from where it stopped.
      done += rest === null && done === 0 ? writeSync(1, text) : writeSync(1, (rest ??= Buffer.from(text)), done, bytes - done);
    } catch (error) {
      const code = error instanceof Error && "code" in error ? error.code : undefined;
      // A full pipe (non-blocking standard output): wait for the reader. A closed one: nobody reads the log.
      if (code === "EAGAIN") Bun.sleepSync(1);
      else if (code === "EPIPE") return;
      else throw error;
    }
  }
}

/** The configured secrets, to be masked wherever they would appear in a log line. */
export function configSecrets(
  config: Pick<Config, "stripe" | "anthropic" | "mail" | "ipHashSecret"> & Partial<Pick<Config, "backup">>,
): string[] {
  const smtpPassword = smtpPasswordOf(config.mail.smtpUrl);
  const backupSecret = config.backup?.kind === "s3" ? config.backup.secretAccessKey : undefined;
  return [
    config.stripe?.secretKey,
    config.stripe?.webhookSecret,
    config.anthropic?.apiKey,
    config.ipHashSecret,
    smtpPassword,
    backupSecret,
  ].filter((secret): secret is string => secret !== undefined && secret !== "");
}

function smtpPasswordOf(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const password = new URL(url).password;
  return password === "" ? undefined : decodeURIComponent(password);
}
