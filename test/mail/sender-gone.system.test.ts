import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import { eq } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import { claimDue } from "../../server/shop/mail/outbox";
import { createMailSender, LEASE_MS } from "../../server/shop/mail/sender";
import { retireSender, type SenderIdentity, senderIdentity } from "../../server/shop/mail/sender-identity";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { until } from "./until";

// A message left "sending" by a sender that is gone goes out at once, and only then: the sender is
// known by more than its pid, which a restarted container gives again to the new server.

const smtp = useSmtp();
let site: TestSite | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await site?.close();
  site = undefined;
});

const ROOT = join(import.meta.dir, "..", "..");
const quiet = { debug() {}, info() {}, warn() {}, error() {}, request() {} };
const rowOf = (s: TestSite, recipient: string) => s.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient)).get();

/** A site whose access e-mail for `email` is queued and not sent (no sender of its own). */
async function queued(email: string, now?: () => Date) {
  const s = (site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" }, now }));
  await payWithTestCard(s, { locale: "fr", email });
  return s;
}

/** The message taken by `holder`, as a sender does before it connects to the mail server. */
async function heldBy(s: TestSite, holder: SenderIdentity, now: Date) {
  const rows = await claimDue(s.write, { now, limit: 10, leaseMs: LEASE_MS, holder, takeOver: () => false });
  expect(rows).toHaveLength(1);
}

function senderFor(s: TestSite, now: () => Date) {
  const sender = createMailSender({
    db: s.db,
    write: s.write,
    config: s.config,
    log: quiet,
    transport: createSmtpTransport(smtp.url),
    now,
    content: s.content,
  });
  cleanups.push(() => sender.stop());
  return sender;
}

/** Another holder with the given pid and process start time (clock ticks since boot). */
function holderOf(pid: number, startTicks: string): SenderIdentity {
  const [, boot] = senderIdentity().holder.split("/");
  return { pid, holder: `${crypto.randomUUID()}/${boot}/${startTicks}` };
}

const startTicksOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]!;

test("a message held by an earlier run with this very pid (a restarted container) is sent at once by the new sender, once", async () => {
  const clock = testClock();
  const s = await queued("same-pid@example.com", clock.now);
  // The earlier run: same pid as this process, another sender, killed after it took the message.
  const earlier = senderIdentity();
  await heldBy(s, earlier, clock.now());
  retireSender(earlier);
  expect(rowOf(s, "same-pid@example.com")).toMatchObject({ status: "sending", leaseOwner: process.pid });

  // No clock moved: it does not wait for the lease.
  const sender = senderFor(s, clock.now);
  sender.start();
  await smtp.waitFor(1);
  await sender.deliverDue();
  expect(rowOf(s, "same-pid@example.com")).toMatchObject({ status: "sent", attempts: 2 });
  expect(mailsTo(smtp, "same-pid@example.com").map((m) => m.mail.messageId)).toEqual([rowOf(s, "same-pid@example.com")?.messageId]);
});

test("a pid now used by another program frees the message at once; a sender still running keeps its message, past its lease", async () => {
  const clock = testClock();
  const s = await queued("reused@example.com", clock.now);
  // The parent of this test process runs, but started at another time than the holder said.
  await heldBy(s, holderOf(process.ppid, "1"), clock.now());
  const sender = senderFor(s, clock.now);
  await sender.deliverDue();
  expect(rowOf(s, "reused@example.com")?.status).toBe("sent");
  expect(mailsTo(smtp, "reused@example.com")).toHaveLength(1);

  await payWithTestCard(s, { locale: "fr", email: "running@example.com" });
  // That same parent, named rightly: a sender still running, which alone knows what the mail server answered.
  await heldBy(s, holderOf(process.ppid, startTicksOf(process.ppid)), clock.now());
  clock.advance(2 * LEASE_MS);
  // deliverDue returns once nothing is due or being sent: the held message was looked at and left.
  await sender.deliverDue();
  expect(rowOf(s, "running@example.com")?.status).toBe("sending");
  expect(mailsTo(smtp, "running@example.com")).toHaveLength(0);
});

/** The real server as pid 1 of a pid namespace of its own, as in a container without an init. */
async function startAsPid1(dataDir: string, env: Record<string, string>) {
  const output: string[] = [];
  const proc = spawn({
    cmd: ["unshare", "--pid", "--fork", "--kill-child", "--mount-proc", process.execPath, "run", join(ROOT, "server/main.ts")],
    cwd: ROOT,
    // Pages made at their first request: this server is asked for none (1.3 s of CPU at start).
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PAGES_AT_START: "false",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const exited = proc.exited;
  cleanups.push(async () => {
    proc.kill("SIGKILL");
    await exited;
  });
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      output.push(...decoder.decode(value).split("\n").filter(Boolean));
    }
  };
  void pump(proc.stdout);
  void pump(proc.stderr);
  let baseUrl = "";
  await until(
    "the server listens",
    () => {
      // The address it prints: localhost or the HOST it was given.
      const line = output.find((l) => /listening on http:\/\/(localhost|127\.0\.0\.1):\d+/.test(l));
      baseUrl = /listening on http:\/\/(?:localhost|127\.0\.0\.1):(\d+)/.exec(line ?? "")?.[1] ?? "";
      return baseUrl !== "";
    },
    90_000,
  );
  return { baseUrl: `http://127.0.0.1:${baseUrl}`, output, kill: () => proc.kill("SIGKILL"), exited };
}

test("the real server as pid 1, killed while sending, restarted as pid 1 again: the access e-mail goes at once, once", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-mail-pid1-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // WORKERS=1: only the first process sends e-mail, and a worker costs a second of CPU at each of the two starts.
  const env = { SMTP_URL: smtp.url, MAIL_FROM: "Shop <shop@example.com>", LOG_LEVEL: "info", WORKERS: "1" };
  const status = () => {
    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    try {
      return db
        .query<{ status: string; lease_owner: number | null; message_id: string }, []>(
          "SELECT status, lease_owner, message_id FROM mail_outbox WHERE recipient = 'pid1@example.com'",
        )
        .get();
    } finally {
      db.close();
    }
  };
  // The mail server takes connections and never greets them: the message is on its way, not yet sent.
  smtp.stall = true;
  cleanups.push(() => {
    smtp.stall = false;
  });
  const first = await startAsPid1(dataDir, env);
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const start = await fetch(`${first.baseUrl}/api/payment`, {
    method: "POST",
    headers: form,
    body: "locale=fr&acceptTerms=yes",
    redirect: "manual",
  });
  const card = new URLSearchParams({
    email: "pid1@example.com",
    name: "Camille",
    city: "Lyon",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  });
  const paid = await fetch(`${first.baseUrl}${start.headers.get("location") ?? ""}`, {
    method: "POST",
    headers: form,
    body: card.toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  await until("the sender holds the message", () => status()?.status === "sending");
  expect(status()?.lease_owner).toBe(1);
  first.kill();
  await first.exited;

  smtp.stall = false;
  const second = await startAsPid1(dataDir, env);
  // Promptly: the lease (minutes) is not waited for; failing after 20 s means it was.
  await until("the access e-mail is sent after the restart", () => status()?.status === "sent");
  second.kill();
  await second.exited;
  expect(second.output.some((l) => l.includes("mail resumed"))).toBe(true);
  expect(mailsTo(smtp, "pid1@example.com").map((m) => m.mail.messageId)).toEqual([status()?.message_id]);
}, 240_000);
