import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mailOutbox } from "../../db/schema";
import { LEASE_MS } from "../../server/shop/mail/sender";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { mountSmallDisk, type SmallDisk } from "../support/tmpfs";
import { drainOutbox, until } from "./until";

// The data folder's disk fills up while the mail server is taking the messages: "sent" cannot be
// written. The sender keeps what it knows until the disk takes writes again, then writes it; no
// message is sent a second time because its first sending could not be recorded.

const smtp = useSmtp();
let site: TestSite | undefined;
let disk: SmallDisk | undefined;
afterEach(async () => {
  smtp.answerStalled();
  await site?.close();
  disk?.unmount();
  site = undefined;
  disk = undefined;
});

test("with the disk full as the mail server accepts three access e-mails, each is recorded as sent once space is back, and none is sent twice", async () => {
  const clock = testClock();
  disk = mountSmallDisk({ sizeKb: 4096 });
  const small = disk;
  const s = (site = await createTestSite({
    dataDir: small.dir,
    env: { PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url),
    now: clock.now,
  }));
  const buyers = ["ada@example.com", "ben@example.com", "cleo@example.com"];
  for (const b of buyers) smtp.stallAfterData.add(b);
  for (const b of buyers) await payWithTestCard(s, { locale: "fr", email: b });
  await until("the three messages read by the mail server, not answered yet", () => smtp.unanswered === 3);

  // Every page of the write-ahead log back into the database, so that any new write needs new space.
  s.db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  small.fill();
  smtp.answerStalled();
  const unrecorded = () => s.logs.filter((l) => l.includes('"mail outcome not recorded"')).length;
  await until("the three outcomes failed to be written", () => unrecorded() === 3);
  const statuses = () =>
    buyers.map((b) => s.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.recipient, b)).get()?.status);
  expect(statuses()).toEqual(["sending", "sending", "sending"]);

  // Past the lease, and the sender asked to deliver what is due: nothing goes out again.
  clock.advance(2 * LEASE_MS);
  await s.mailer!.deliverDue();
  for (const b of buyers) expect({ b, copies: mailsTo(smtp, b).length }).toEqual({ b, copies: 1 });
  expect(statuses()).toEqual(["sending", "sending", "sending"]);

  // Space back: the sender's next poll writes what it kept (nothing called, no clock moved).
  small.free();
  await until("the three recorded as sent", () => statuses().every((st) => st === "sent"));
  expect(s.logs.filter((l) => l.includes('"mail outcome recorded"'))).toHaveLength(3);
  await drainOutbox(s);
  for (const b of buyers) expect({ b, copies: mailsTo(smtp, b).length }).toEqual({ b, copies: 1 });
}, 60_000);
