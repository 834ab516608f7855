import { afterAll, afterEach, beforeAll } from "bun:test";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server on loopback (smtp-server), reading what arrives with mailparser: the site's
// nodemailer transport talks to it exactly as to a mail provider.

export type ReceivedMail = { to: string[]; mail: ParsedMail; raw: string };

export type TestSmtp = {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Recipients answered with a permanent 550 at RCPT TO. */
  reject: Set<string>;
  /** While true, connections are taken but never greeted: a send that hangs. */
  stall: boolean;
  /** How long the server takes to answer a message it has received (a slow provider). */
  replyDelayMs: number;
  /**
   * Recipients whose message is read to its end (it is in `received`) and then never answered, as a
   * server that stalls after DATA, until `answerStalled()`; the others are answered as usual.
   */
  stallAfterData: Set<string>;
  /** How many messages are read whole and not answered yet (held by `stallAfterData`). */
  readonly unanswered: number;
  /** Answers the messages held by `stallAfterData` (250: taken); later ones are held again. */
  answerStalled(): void;
  /** Resolves once `count` messages have arrived (throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening (the port refuses connections) until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
};

export async function startSmtp(options: { port?: number } = {}): Promise<TestSmtp> {
  let server: SMTPServer | null = null;
  const held: (() => void)[] = [];
  const state: TestSmtp = {
    port: options.port ?? 0,
    url: "",
    received: [],
    reject: new Set(),
    stall: false,
    replyDelayMs: 0,
    stallAfterData: new Set(),
    get unanswered() {
      return held.length;
    },
    answerStalled() {
      for (const answer of held.splice(0)) answer();
    },
    // A deadline, not a wait: a fresh server's first e-mail (its invoice PDF) has taken over 15 s on
    // a loaded machine.
    async waitFor(count, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (state.received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} messages, got ${state.received.length}`);
        await Bun.sleep(25);
      }
      return state.received;
    },
    async stop() {
      const current = server;
      server = null;
      // A stalled message's connection would keep the server open: it is answered as it closes.
      state.answerStalled();
      if (current !== null) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async start() {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        logger: false,
        // Each connection would look up its client's name in the DNS (127.0.0.1, for a Received
        // line no test reads): CPU and a resolver's round trip per message.
        disableReverseLookup: true,
        onConnect(_session, callback) {
          if (!state.stall) callback();
        },
        onRcptTo(address, _session, callback) {
          if (state.reject.has(address.address)) {
            callback(Object.assign(new Error("5.1.1 Mailbox unavailable"), { responseCode: 550 }));
            return;
          }
          callback();
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8");
            simpleParser(raw)
              .then((mail) => {
                const to = session.envelope.rcptTo.map((r) => r.address);
                state.received.push({ to, mail, raw });
                if (to.some((address) => state.stallAfterData.has(address))) held.push(() => callback());
                else if (state.replyDelayMs > 0) setTimeout(() => callback(), state.replyDelayMs);
                else callback();
              })
              .catch((error: Error) => callback(error));
          });
        },
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once("error", reject);
        listening.listen(state.port, "127.0.0.1", () => resolve());
      });
      const address = listening.server.address();
      if (address !== null && typeof address === "object") state.port = address.port;
      state.url = `smtp://127.0.0.1:${state.port}`;
    },
  };
  await state.start();
  return state;
}

/** The messages sent to one address. */
export const mailsTo = (smtp: TestSmtp, address: string) => smtp.received.filter((r) => r.to.includes(address));

/**
 * One SMTP server for a test file: started before its tests, emptied after each, stopped at the end.
 * The returned object stands for it (a test file uses it like the server itself).
 */
export function useSmtp(): TestSmtp {
  let server: TestSmtp | undefined;
  const current = () => {
    if (server === undefined) throw new Error("useSmtp: used outside a test");
    return server;
  };
  beforeAll(async () => {
    server = await startSmtp();
  });
  afterEach(() => {
    server?.received.splice(0);
    server?.reject.clear();
    server?.stallAfterData.clear();
    server?.answerStalled();
    if (server !== undefined) server.replyDelayMs = 0;
  });
  afterAll(() => server?.stop());
  return {
    get port() {
      return current().port;
    },
    get url() {
      return current().url;
    },
    get received() {
      return current().received;
    },
    get reject() {
      return current().reject;
    },
    get stall() {
      return current().stall;
    },
    set stall(value) {
      current().stall = value;
    },
    get replyDelayMs() {
      return current().replyDelayMs;
    },
    set replyDelayMs(value) {
      current().replyDelayMs = value;
    },
    get stallAfterData() {
      return current().stallAfterData;
    },
    get unanswered() {
      return current().unanswered;
    },
    answerStalled: () => current().answerStalled(),
    waitFor: (count, timeoutMs) => current().waitFor(count, timeoutMs),
    stop: () => current().stop(),
    start: () => current().start(),
  };
}
