import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../e2e/harness";
import { endServer } from "../support/end-server";
import { mailsTo, useSmtp } from "../support/smtp";
import { until } from "./until";

// The one case SMTP cannot close: the server killed after the mail server read the whole message,
// before the mail server said it took it. Nothing tells whether it did, so the restarted server
// sends it again, with the same Message-ID, which receivers recognise
// (docs/decisions/005-email-outbox.md). A slow or silent mail server: stalled-server.test.ts.

const smtp = useSmtp();
afterEach(() => {
  smtp.replyDelayMs = 0;
});

const statusOf = (dataDir: string) => {
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    return db.query<{ status: string }, []>("SELECT status FROM mail_outbox WHERE recipient = 'killed@example.com'").get()?.status;
  } finally {
    db.close();
  }
};

test("a server killed while the mail server is answering sends the message again on restart with the same Message-ID as the row", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-mail-kill-"));
  try {
    // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
    const env = { SMTP_URL: smtp.url, MAIL_FROM: "Shop <shop@example.com>", WORKERS: "1" };
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
    // The mail server has the message and has not said so yet: the server dies now. A deadline,
    // not a wait (the access e-mail renders its invoice first): at a load of 21 it took over 20 s.
    await until("the mail server has read the message", () => mailsTo(smtp, "killed@example.com").length === 1, 60_000);
    await first.stop("SIGKILL");

    smtp.replyDelayMs = 0;
    const second = await startServer({ dataDir, env });
    try {
      // Recorded as sent: the row is done with, no further copy can follow.
      await until("the message is sent again and recorded", () => statusOf(dataDir) === "sent");
    } finally {
      await endServer(second);
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
