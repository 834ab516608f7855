import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { licenses, mailOutbox } from "../../db/schema";
import { MAX_ATTEMPTS, retryDelayMs } from "../../server/shop/mail/sender";
import { createFileTransport, createSmtpTransport } from "../../server/shop/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { runSiteCommand as cli } from "../support/cli";
import { payWithTestCard, testClock } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";

// Delivery when things go wrong: the mail server away for a while, a permanent refusal, and the
// embedded default without any mail server.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
  // A test may have stopped the server: every test starts with it up.
  await smtp.stop();
  await smtp.start();
});

const buy = (s: TestSite, email: string) => payWithTestCard(s, { locale: "fr", email });
const outbox = (s: TestSite) => s.db.select().from(mailOutbox).all();

test("with the SMTP server down the access e-mail waits and retries; once it is back, it arrives exactly once", async () => {
  const clock = testClock();
  await smtp.stop();
  site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url),
    now: clock.now,
  });
  await buy(site, "patient@example.com");
  await site.mailer!.deliverDue();
  let [row] = outbox(site);
  expect(row).toMatchObject({ status: "pending", attempts: 1 });
  expect(row!.lastError).toMatch(/ECONNREFUSED|connect/i);
  // Still down at the next try: the delay doubles.
  clock.advance(retryDelayMs(1));
  await site.mailer!.deliverDue();
  [row] = outbox(site);
  expect(row).toMatchObject({ status: "pending", attempts: 2 });
  expect(row!.nextAttemptAt.getTime() - clock.now().getTime()).toBeGreaterThan(retryDelayMs(1));

  await smtp.start();
  // Not due yet: nothing is sent before its time.
  await site.mailer!.deliverDue();
  expect(smtp.received).toHaveLength(0);
  clock.advance(retryDelayMs(2));
  await site.mailer!.deliverDue();
  await site.mailer!.deliverDue();
  expect(mailsTo(smtp, "patient@example.com")).toHaveLength(1);
  expect(outbox(site)[0]).toMatchObject({ status: "sent", attempts: 3, lastError: null });
});

test("retries go on for at least 24 hours, then the message is marked failed with the reason", async () => {
  const clock = testClock();
  await smtp.stop();
  site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url),
    now: clock.now,
  });
  const started = clock.now().getTime();
  await buy(site, "gone@example.com");
  await site.mailer!.deliverDue();
  let lastTry = started;
  // Each time the message is due again, the server is still down.
  while (outbox(site)[0]!.status === "pending") {
    clock.advance(outbox(site)[0]!.nextAttemptAt.getTime() - clock.now().getTime());
    lastTry = clock.now().getTime();
    await site.mailer!.deliverDue();
  }
  expect(lastTry - started).toBeGreaterThanOrEqual(72 * 60 * 60 * 1000);
  const [row] = outbox(site);
  expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
  expect(row!.lastError).toMatch(new RegExp(`^gave up after ${MAX_ATTEMPTS} attempts: .*(ECONNREFUSED|connect)`, "i"));
  // The owner's retry starts a new series of tries rather than giving up at once.
  await smtp.start();
  expect((await cli(site, "mail", "retry", String(row!.id))).code).toBe(0);
  await site.mailer!.deliverDue();
  expect(outbox(site)[0]).toMatchObject({ status: "sent", attempts: 1 });
  expect(retryDelayMs(1)).toBe(30_000);
});

test("a permanent 550 refusal marks the message failed with its reason, shown by 'mail list'; 'mail retry' sends it once fixed", async () => {
  smtp.reject.add("nobody@example.com");
  site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example", OWNER_EMAIL: "owner@shop.example" },
    transport: createSmtpTransport(smtp.url),
  });
  await buy(site, "nobody@example.com");
  await smtp.waitFor(1);
  await site.mailer!.deliverDue();
  const access = outbox(site).find((m) => m.kind === "access")!;
  expect(access).toMatchObject({ status: "failed", attempts: 1 });
  expect(access.lastError).toContain("550");
  // The owner's notice was not held up by the buyer's bad address.
  expect(mailsTo(smtp, "owner@shop.example")).toHaveLength(1);

  const listing = await cli(site, "mail", "list");
  expect(listing.code).toBe(0);
  const line = listing.said.split("\n").find((l) => l.startsWith(`${access.id}\t`))!;
  expect(line).toContain("failed\taccess\tnobody@example.com\t1");
  expect(line).toContain("550");

  smtp.reject.clear();
  expect((await cli(site, "mail", "retry", String(access.id))).code).toBe(0);
  await site.mailer!.deliverDue();
  expect(mailsTo(smtp, "nobody@example.com")).toHaveLength(1);
  expect(await cli(site, "mail", "retry", String(access.id))).toMatchObject({ code: 1 });
  expect(await cli(site, "mail", "retry", "abc")).toMatchObject({ code: 2 });
});

test("after a refused delivery, the success page says the e-mail could not be delivered and how to get access", async () => {
  smtp.reject.add("typo@exmaple.com");
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" }, transport: createSmtpTransport(smtp.url) });
  const { successPath } = await payWithTestCard(site, { locale: "en", email: "typo@exmaple.com", name: "Sam", city: "Leeds" });
  await site.mailer!.deliverDue();
  expect(outbox(site)[0]!.status).toBe("failed");
  const html = await (await site.request(successPath)).text();
  expect(html).toContain("Our e-mail to typo@exmaple.com could not be delivered. Write to support@example.com");
  expect(html).not.toContain("<p>Your licence key and the installation guide were sent");
});

test("without SMTP_URL every message is a readable .eml file in DATA_DIR/mail, with both parts", async () => {
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example", OWNER_EMAIL: "owner@shop.example" } });
  const dir = site.config.mail.dir;
  expect(dir).toBe(join(site.dataDir, "mail"));
  const { createMailSender } = await import("../../server/shop/mail/sender");
  const sender = createMailSender({
    db: site.db,
    write: site.write,
    config: site.config,
    content: site.content,
    log: { debug() {}, info() {}, warn() {}, error() {}, request() {} },
    transport: createFileTransport(dir),
    now: () => new Date(),
  });
  await buy(site, "files@example.com");
  await sender.deliverDue();
  await sender.stop();
  const files = readdirSync(dir).sort();
  expect(files).toEqual(["1.eml", "2.eml"]);
  const [access] = outbox(site);
  const parsed = await simpleParser(readFileSync(join(dir, `${access!.id}.eml`)));
  expect(parsed.to && "text" in parsed.to ? parsed.to.text : "").toBe("files@example.com");
  expect(parsed.messageId).toBe(access!.messageId);
  expect(parsed.subject).toBe("Votre clé de licence Lifetime Stream et votre reçu");
  expect(parsed.text).toContain(site.db.select().from(licenses).all()[0]!.key);
  expect(parsed.html).toContain("<html");
  expect(outbox(site).map((m) => m.status)).toEqual(["sent", "sent"]);
});
