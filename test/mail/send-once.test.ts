import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { eq } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import { LEASE_MS } from "../../server/shop/mail/sender";
import { createSmtpTransport, SMTP_TIMEOUTS } from "../../server/shop/mail/transport";
import { startServer } from "../e2e/harness";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";

// Each e-mail once: a mail server slow to answer is waited for rather than sent the message again,
// and the one case SMTP cannot close (the server killed after the mail server took the message,
// before it said so) re-sends the message with the same Message-ID, which receivers recognise.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

test("the mail server is waited for as RFC 5321 asks (10 minutes for the end of the message), within the sender's lease", () => {
  expect(SMTP_TIMEOUTS.socketTimeout).toBeGreaterThanOrEqual(10 * 60_000);
  expect(SMTP_TIMEOUTS.greetingTimeout).toBeGreaterThanOrEqual(5 * 60_000);
  expect(LEASE_MS).toBeGreaterThan(SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout);
});

test("a mail server that takes 35 s to accept a message gets it once, and the message is recorded as sent", async () => {
  const clock = testClock();
  const s = (site = await createTestSite({ transport: createSmtpTransport(smtp.url), now: clock.now }));
  smtp.replyDelayMs = 35_000;
  await payWithTestCard(s, { locale: "fr", email: "slow@example.com" });
  const sent = async () => s.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, "slow@example.com")).get()?.status;
  const until = Date.now() + 55_000;
  while ((await sent()) !== "sent" && Date.now() < until) await Bun.sleep(250);
  expect(await sent()).toBe("sent");
  // Any retry would be due by now.
  smtp.replyDelayMs = 0;
  clock.advance(2 * 60 * 60 * 1000);
  await s.mailer?.deliverDue();
  expect(mailsTo(smtp, "slow@example.com")).toHaveLength(1);
}, 90_000);

test("a server killed while the mail server is answering sends the message again on restart with the same Message-ID as the row", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-mail-kill-"));
  try {
    const env = { SMTP_URL: smtp.url, MAIL_FROM: "Shop <shop@example.com>" };
    const first = await startServer({ dataDir, env });
    smtp.replyDelayMs = 20_000;
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const start = await fetch(`${first.baseUrl}/api/payment`, {
      method: "POST",
      headers: form,
      body: "locale=fr&acceptTerms=yes",
      redirect: "manual",
    });
    const cardPage = start.headers.get("location") ?? "";
    const card = new URLSearchParams({
      email: "killed@example.com",
      name: "Camille",
      city: "Lyon",
      card: "4242 4242 4242 4242",
      expiry: "12/34",
      cvc: "123",
    });
    const paid = await fetch(`${first.baseUrl}${cardPage}`, { method: "POST", headers: form, body: card.toString(), redirect: "manual" });
    expect(paid.status).toBe(303);
    // The mail server has the message and has not said so yet: the server dies now.
    const until = Date.now() + 20_000;
    while (mailsTo(smtp, "killed@example.com").length === 0 && Date.now() < until) await Bun.sleep(50);
    expect(mailsTo(smtp, "killed@example.com")).toHaveLength(1);
    await first.stop("SIGKILL");

    smtp.replyDelayMs = 0;
    const second = await startServer({ dataDir, env });
    try {
      const again = Date.now() + 20_000;
      while (mailsTo(smtp, "killed@example.com").length < 2 && Date.now() < again) await Bun.sleep(50);
      await Bun.sleep(500);
    } finally {
      await second.stop();
    }
    const copies = mailsTo(smtp, "killed@example.com").map((m) => m.mail.messageId);
    expect(copies).toHaveLength(2);
    expect(copies[1]).toBe(copies[0]);
    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    const row = db
      .query<{ message_id: string; status: string }, []>(
        "SELECT message_id, status FROM mail_outbox WHERE recipient = 'killed@example.com'",
      )
      .get();
    db.close();
    expect(row).toEqual({ message_id: copies[0] ?? "", status: "sent" });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);
