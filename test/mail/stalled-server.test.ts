import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import { retryDelayMs } from "../../server/shop/mail/sender";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { drainOutbox, until } from "./until";

// A mail server that never answers one message: that message waits alone, the others go on.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  smtp.answerStalled();
  await site?.close();
  site = undefined;
});

const rowOf = (s: TestSite, recipient: string) => s.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient)).get();

test("nine purchases while the mail server never answers the first one's e-mail: the eight others are delivered while it still waits", async () => {
  const s = (site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" }, transport: createSmtpTransport(smtp.url) }));
  smtp.stallAfterData.add("stalled@example.com");
  await payWithTestCard(s, { locale: "fr", email: "stalled@example.com" });
  // The server has the whole message and says nothing (the production timeouts: a minute of silence).
  await until("the first access e-mail is read and left unanswered", () => smtp.unanswered === 1);

  const buyers = Array.from({ length: 8 }, (_, i) => `buyer${i + 1}@example.com`);
  for (const email of buyers) await payWithTestCard(s, { locale: "en", email });
  await until("the eight other access e-mails are accepted", () => buyers.every((b) => mailsTo(smtp, b).length > 0));
  await until("and recorded as sent", () => buyers.every((b) => rowOf(s, b)?.status === "sent"));

  // All of that happened while the first message was still on its way, unanswered.
  expect(smtp.unanswered).toBe(1);
  expect(rowOf(s, "stalled@example.com")).toMatchObject({ status: "sending", attempts: 1 });

  // Once the server answers, it is recorded too; every buyer got exactly one e-mail.
  smtp.answerStalled();
  await drainOutbox(s);
  expect(rowOf(s, "stalled@example.com")?.status).toBe("sent");
  for (const email of ["stalled@example.com", ...buyers])
    expect({ email, copies: mailsTo(smtp, email).length }).toEqual({ email, copies: 1 });
}, 60_000);

test("a message the server leaves unanswered past the socket timeout is given up on and tried again later with the same Message-ID", async () => {
  const clock = testClock();
  // The timeout injected short, so that the test does not wait the minute it is in production.
  const s = (site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url, { socketTimeout: 500 }),
    now: clock.now,
  }));
  smtp.stallAfterData.add("silent@example.com");
  await payWithTestCard(s, { locale: "fr", email: "silent@example.com" });
  await until("the message is given up on", () => rowOf(s, "silent@example.com")?.status === "pending");
  const row = rowOf(s, "silent@example.com");
  expect(row).toMatchObject({ attempts: 1, leaseOwner: null, leaseHolder: null });
  expect(row?.lastError).toMatch(/timeout/i);
  // Not due before its retry time.
  await drainOutbox(s);
  expect(mailsTo(smtp, "silent@example.com")).toHaveLength(1);

  // The server had read it whole without answering: in doubt, so it goes again, as the same message,
  // which the receiving side recognises by its Message-ID (docs/decisions/005-email-outbox.md).
  smtp.stallAfterData.clear();
  smtp.answerStalled();
  clock.advance(retryDelayMs(1));
  await drainOutbox(s);
  expect(rowOf(s, "silent@example.com")).toMatchObject({ status: "sent", attempts: 2 });
  const copies = mailsTo(smtp, "silent@example.com").map((m) => m.mail.messageId);
  expect(copies).toEqual([row?.messageId, row?.messageId]);
}, 60_000);

test("a mail server slow to answer, within the timeout, gets the message once and it is recorded as sent", async () => {
  const clock = testClock();
  // Scaled down from production (a minute of silence allowed, a slow provider taking tens of
  // seconds): the server answers after 1 s, within the 5 s allowed.
  const s = (site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url, { socketTimeout: 5000 }),
    now: clock.now,
  }));
  smtp.replyDelayMs = 1000;
  await payWithTestCard(s, { locale: "fr", email: "slow@example.com" });
  await drainOutbox(s);
  expect(rowOf(s, "slow@example.com")).toMatchObject({ status: "sent", attempts: 1 });
  // Any retry would be due by now.
  smtp.replyDelayMs = 0;
  clock.advance(2 * 60 * 60 * 1000);
  await drainOutbox(s);
  expect(mailsTo(smtp, "slow@example.com")).toHaveLength(1);
}, 60_000);
