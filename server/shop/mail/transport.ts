import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { errorText } from "../../../shared/error-text";
import { type MailFilesRemoved, mailFilePath, removeMailFiles } from "./mail-files";

/**
 * A value made on first use, then kept: nodemailer (about 17 MB of memory in each server process)
 * is loaded with the first message rather than at start-up.
 */
function whenFirstUsed<T>(make: () => Promise<T>) {
  let made: Promise<T> | null = null;
  return { get: () => (made ??= make()), ifMade: (use: (value: T) => void) => void made?.then(use) };
}

// The one seam between the sender and a mail server: nodemailer over SMTP when SMTP_URL is set,
// otherwise the embedded default that writes each message as an RFC 5322 file. Both compose the
// message with nodemailer, so the .eml file is byte for byte what SMTP would have carried.

export type OutgoingMail = {
  /** The outbox row: names the .eml file. */
  outboxId: number;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  date: Date;
  headers: Record<string, string>;
  /** Files the message carries (an invoice, the terms accepted), as nodemailer attaches them. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
};

export type MailTransport = {
  /** For the start-up log line: where mail goes (never the password). */
  describe: string;
  /** Resolves once the mail server took the message; `signal` gives up on it (the connection is closed). */
  send(mail: OutgoingMail, options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * The outbox row of a message just sent was deleted meanwhile (erased on request, or expired):
   * drop whatever this transport kept of it. Nothing to do for SMTP, where the message has left.
   */
  discard(outboxId: number): MailFilesRemoved;
  close(): void;
};

/** A delivery that did not happen; `permanent` when trying again cannot help (a 5xx answer). */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "MailSendError";
  }
}

/** The message as nodemailer takes it (both transports compose the same bytes from it). */
function messageOf(mail: OutgoingMail) {
  const { from, to, subject, html, text, messageId, date, headers, attachments } = mail;
  return { from, to, subject, html, text, messageId, date, headers, attachments };
}

/**
 * How long to wait for the mail server: a mail client's timeouts (tens of seconds), not a relay's
 * (RFC 5321 lets a relay wait 10 minutes for the answer to the end of a message). A server that
 * does not answer within them is given up on and the message tried again later, on a connection of
 * its own, while the other messages go on. `socketTimeout` is the longest silence at any step, so
 * also the wait for the answer to the end of the message: a message given up on there may have been
 * taken, and its retry carries the same Message-ID (docs/decisions/005-email-outbox.md).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
export type SmtpTimeouts = typeof SMTP_TIMEOUTS;

/**
 * Messages sent at once, each on its own pooled connection: a message the server stalls holds one
 * connection, never the others, and none waits in nodemailer's queue behind it.
 */
export const SMTP_CONNECTIONS = 4;

export function createSmtpTransport(smtpUrl: string, timeouts: Partial<SmtpTimeouts> = {}): MailTransport {
  const transporter = whenFirstUsed(async () =>
    (await import("nodemailer")).createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: SMTP_CONNECTIONS,
      // nodemailer would send a message again by itself when its connection drops, even after the
      // end of the message: whether to try again is the outbox's decision, made with what it knows.
      maxRequeues: 0,
      ...SMTP_TIMEOUTS,
      ...timeouts,
    }),
  );
  const url = new URL(smtpUrl);
  return {
    describe: `${url.protocol}//${url.host}`,
    async send(mail, options) {
      try {
        await (await transporter.get()).sendMail({ ...messageOf(mail), signal: options?.signal });
      } catch (error) {
        throw classify(error);
      }
    },
    discard: () => ({ deleted: 0, failed: [] }),
    // Connections still delivering are closed too: the sender has given up on them (stopping).
    close: () => transporter.ifMade((t) => t.close({ force: true })),
  };
}

/**
 * A 5xx reply (mailbox unknown, message refused) is final; a 4xx reply, a refused or broken
 * connection, a timeout or a failed login may pass later, so the message waits for another try.
 */
export function classify(error: unknown): MailSendError {
  const code = fieldOf(error, "responseCode");
  const response = fieldOf(error, "response");
  const message = typeof response === "string" && response !== "" ? response : errorText(error);
  const permanent = typeof code === "number" && code >= 500 && code < 600 && fieldOf(error, "code") !== "EAUTH";
  return new MailSendError(message, permanent);
}

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && key in value ? Reflect.get(value, key) : undefined;
}

/** The embedded default: `dir/<outbox id>.eml`, written whole (temporary file, then rename). */
export function createFileTransport(dir: string): MailTransport {
  const composer = whenFirstUsed(async () =>
    (await import("nodemailer")).createTransport({ streamTransport: true, buffer: true, newline: "windows" }),
  );
  return {
    describe: `files in ${dir}`,
    async send(mail) {
      const info = await (await composer.get()).sendMail(messageOf(mail));
      if (!Buffer.isBuffer(info.message)) throw new MailSendError("message was not composed", false);
      try {
        mkdirSync(dir, { recursive: true });
        const path = mailFilePath(dir, mail.outboxId);
        const temp = `${path}.${process.pid}.tmp`;
        writeFileSync(temp, info.message);
        renameSync(temp, path);
      } catch (error) {
        // A full or read-only disk may be fixed by the owner: try again later.
        throw new MailSendError(errorText(error), false);
      }
    },
    discard: (outboxId) => removeMailFiles(dir, [outboxId]),
    close: () => composer.ifMade((c) => c.close()),
  };
}
