import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { licenses, mailOutbox, orders } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { LICENSE_ALPHABET } from "../../shared/license-key";
import { formatMoney } from "../../shared/price";
import { type FakeStripe, startFakeStripe } from "../checkout/fake-stripe";
import { charge, checkoutSession, event, signed } from "../checkout/stripe-events";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { mailsTo, useSmtp } from "../support/smtp";
import { drainOutbox } from "./until";

// What a paid order sets off, through the app and a real SMTP server on loopback: one access e-mail
// in the buyer's language carrying the licence key that is in the database, one notice to the owner,
// and on refund a disabled licence and a refund notice.

const OWNER = "owner@shop.example";
let fake: FakeStripe;
let site: TestSite | undefined;

const smtp = useSmtp();
beforeAll(() => {
  fake = startFakeStripe();
});
afterAll(() => fake.close());
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const KEY_PATTERN = new RegExp(`[${LICENSE_ALPHABET}]{5}(-[${LICENSE_ALPHABET}]{5}){4}`);

async function shop(env: Record<string, string> = {}) {
  site = await createTestSite({
    env: { OWNER_EMAIL: OWNER, PUBLIC_BASE_URL: "https://shop.example", ...env },
    transport: createSmtpTransport(smtp.url),
    stripeConnection: fake.connection,
  });
  return site;
}

const buy = (s: TestSite, locale: string, email: string) => payWithTestCard(s, { locale, email });

/** A webhook delivery signed as Stripe signs it. */
async function deliverSigned(s: TestSite, body: unknown, secret: string) {
  const payload = JSON.stringify(body);
  return s.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
    body: payload,
  });
}

const licenseOf = (s: TestSite, orderId: number) => s.db.select().from(licenses).where(eq(licenses.orderId, orderId)).get();

test("a French payment sends one access e-mail in French with the licence key of the order, and one owner notice", async () => {
  const s = await shop();
  await buy(s, "fr", "camille@example.com");
  await smtp.waitFor(2);
  const [order] = s.db.select().from(orders).all();
  const license = licenseOf(s, order!.id);
  expect(license).toMatchObject({ status: "active" });
  expect(license!.key).toMatch(KEY_PATTERN);

  const [access] = mailsTo(smtp, "camille@example.com");
  expect(access!.mail.subject).toBe("Votre clé de licence Lifetime Stream et votre reçu");
  expect(access!.mail.text).toContain(license!.key);
  expect(access!.mail.html).toContain(license!.key);
  expect(access!.mail.html).toContain('lang="fr"');
  // The receipt: order number, product, amount with VAT, card payment, guarantee, support, guide link.
  for (const part of [
    order!.reference,
    "Lifetime Stream — accès à vie",
    `${formatMoney(2999, "EUR", "fr")} TTC`,
    "Carte bancaire",
    "7 jours",
    "support@example.com",
    "https://shop.example/guide",
  ]) {
    expect({ part, found: access!.mail.text!.includes(part) }).toEqual({ part, found: true });
  }
  // The 7-day guarantee's refund page of this order, by its signed reference.
  expect(access!.mail.text).toContain(`https://shop.example/remboursement?order=${order!.reference}&t=`);
  expect(access!.mail.replyTo?.text).toBe("support@example.com");
  // No remote images or trackers: nothing is loaded from anywhere when the message is opened.
  expect(access!.mail.html).not.toMatch(/<img|src="http/);
  expect(access!.mail.headers.has("list-unsubscribe")).toBe(false);

  const [notice] = mailsTo(smtp, OWNER);
  expect(notice!.mail.subject).toBe(`[TEST] Nouvelle vente : ${formatMoney(2999, "EUR", "fr")}, commande ${order!.reference}`);
  expect(notice!.mail.text).toContain(license!.key);
  expect(notice!.mail.text).toContain("Lyon");
  expect(smtp.received).toHaveLength(2);
  expect(
    s.db
      .select()
      .from(mailOutbox)
      .all()
      .map((m) => m.status),
  ).toEqual(["sent", "sent"]);
});

test("an English payment sends the access e-mail in English; the success page names the address it went to", async () => {
  const s = await shop();
  const { successPath } = await buy(s, "en", "sam@example.com");
  await smtp.waitFor(2);
  const [access] = mailsTo(smtp, "sam@example.com");
  expect(access!.mail.subject).toBe("Your Lifetime Stream licence key and receipt");
  expect(access!.mail.text).toContain("€29.99, VAT included");
  expect(access!.mail.text).toContain("https://shop.example/en/guide");
  const page = await s.request(successPath);
  expect(page.headers.get("cache-control")).toBe("no-store");
  const html = await page.text();
  expect(html).toContain("Your licence key and the installation guide were sent to sam@example.com.");
});

test("paying twice with the same form, and reloading the success page, still sends one access e-mail", async () => {
  const s = await shop();
  const { successPath, cardPage, body } = await buy(s, "fr", "twice@example.com");
  await s.request(cardPage, { method: "POST", headers: FORM, body });
  await s.request(successPath);
  await s.request(successPath);
  await smtp.waitFor(2);
  await drainOutbox(s);
  expect(mailsTo(smtp, "twice@example.com")).toHaveLength(1);
  expect(s.db.select().from(licenses).all()).toHaveLength(1);
});

test("the owner's refund of a test order disables the licence and sends a refund notice to the buyer and the owner", async () => {
  const s = await shop();
  await buy(s, "it", "giulia@example.com");
  await smtp.waitFor(2);
  const [order] = s.db.select().from(orders).all();
  const lines: string[] = [];
  expect(
    await runCommand(
      ["orders", "refund", String(order!.id)],
      s.config,
      (l) => lines.push(l),
      (l) => lines.push(l),
    ),
  ).toBe(0);
  // The command runs in another process in real life: the server's sender finds the rows by polling.
  await s.mailer!.deliverDue();
  await smtp.waitFor(4);
  expect(licenseOf(s, order!.id)).toMatchObject({ status: "disabled", disabledReason: "refunded" });
  const refund = mailsTo(smtp, "giulia@example.com").at(-1)!;
  expect(refund.mail.subject).toBe(`Il tuo ordine Lifetime Stream ${order!.reference} è stato rimborsato`);
  expect(refund.mail.text).toContain(licenseOf(s, order!.id)!.key);
  expect(mailsTo(smtp, OWNER).at(-1)!.mail.subject).toContain("Remboursement");
  // Refunding again changes nothing and sends nothing.
  expect(
    await runCommand(
      ["orders", "refund", String(order!.id)],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(1);
  await s.mailer!.deliverDue();
  expect(smtp.received).toHaveLength(4);
});

test("'orders resend' queues the same licence key again; an unpaid order is refused", async () => {
  const s = await shop();
  await buy(s, "es", "lucia@example.com");
  await smtp.waitFor(2);
  const [order] = s.db.select().from(orders).all();
  const out: string[] = [];
  expect(
    await runCommand(
      ["orders", "resend", String(order!.id)],
      s.config,
      (l) => out.push(l),
      (l) => out.push(l),
    ),
  ).toBe(0);
  await s.mailer!.deliverDue();
  const copies = mailsTo(smtp, "lucia@example.com");
  expect(copies).toHaveLength(2);
  expect(copies[1]!.mail.subject).toBe("Tu clave de licencia de Lifetime Stream y tu recibo");
  expect(copies[1]!.mail.text).toContain(licenseOf(s, order!.id)!.key);
  expect(
    await runCommand(
      ["orders", "resend", "999"],
      s.config,
      () => {},
      () => {},
    ),
  ).toBe(1);
});

test("without OWNER_EMAIL the owner gets nothing, the buyer still gets the access e-mail", async () => {
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" }, transport: createSmtpTransport(smtp.url) });
  await buy(site, "fr", "solo@example.com");
  await drainOutbox(site);
  expect(smtp.received.map((r) => r.to)).toEqual([["solo@example.com"]]);
});

test("Stripe: a paid checkout.session.completed sends the access e-mail; charge.refunded disables the key and sends the refund notice", async () => {
  const secret = "whsec_fulfilment";
  const s = await shop({ STRIPE_SECRET_KEY: "sk_test_fulfilment", STRIPE_WEBHOOK_SECRET: secret });
  const deliver = (body: unknown) => deliverSigned(s, body, secret);
  const completed = event("checkout.session.completed", checkoutSession({ id: "cs_mail_1", email: "marie@example.com", locale: "en" }));
  expect((await deliver(completed)).status).toBe(200);
  // Stripe delivers again: still one e-mail.
  expect((await deliver(completed)).status).toBe(200);
  await smtp.waitFor(2);
  const [order] = s.db.select().from(orders).all();
  const key = licenseOf(s, order!.id)!.key;
  expect(mailsTo(smtp, "marie@example.com")[0]!.mail.text).toContain(key);
  expect(mailsTo(smtp, OWNER)[0]!.mail.subject).toBe(`Nouvelle vente : ${formatMoney(2999, "EUR", "fr")}, commande ${order!.reference}`);

  expect((await deliver(event("charge.refunded", charge("pi_for_cs_mail_1")))).status).toBe(200);
  await smtp.waitFor(4);
  expect(licenseOf(s, order!.id)).toMatchObject({ status: "disabled" });
  expect(mailsTo(smtp, "marie@example.com")[1]!.mail.subject).toBe(`Your Lifetime Stream order ${order!.reference} has been refunded`);
});

test("a refund that arrives before the payment's completion: the order is refunded, no access e-mail, a refund notice", async () => {
  const secret = "whsec_fulfilment";
  const s = await shop({ STRIPE_SECRET_KEY: "sk_test_fulfilment", STRIPE_WEBHOOK_SECRET: secret });
  const deliver = (body: unknown) => deliverSigned(s, body, secret);
  await deliver(event("charge.refunded", charge("pi_for_cs_mail_2")));
  await deliver(event("checkout.session.completed", checkoutSession({ id: "cs_mail_2", email: "late@example.com", locale: "fr" })));
  await drainOutbox(s);
  expect(smtp.received).toHaveLength(2);
  const kinds = s.db
    .select({ kind: mailOutbox.kind })
    .from(mailOutbox)
    .all()
    .map((m) => m.kind);
  expect(kinds.sort()).toEqual(["owner-refund", "refund"]);
  const [order] = s.db.select().from(orders).all();
  expect(order!.status).toBe("refunded");
  expect(licenseOf(s, order!.id)).toMatchObject({ status: "disabled" });
});
