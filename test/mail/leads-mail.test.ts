import { afterEach, expect, test } from "bun:test";
import { emailLeads, mailOutbox } from "../../db/schema";
import { createSmtpTransport } from "../../server/mail/transport";
import { createTestSite, type TestSite } from "../support/app";
import { mailsTo, useSmtp } from "../support/smtp";

// What a lead gets: one demo e-mail per address, in the visitor's language, with a one-click
// unsubscribe that works from the mail provider's button (RFC 8058 POST) and from the visible link.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function shop() {
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" }, transport: createSmtpTransport(smtp.url) });
  return site;
}
const signUp = (s: TestSite, email: string, locale = "fr") =>
  s.request("/api/leads", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, source: "exit_popup", locale, ip_hash: null }) });

/** The List-Unsubscribe address of a received message (the part between < and >). */
function unsubscribeUrlOf(raw: string): URL {
  // Long header lines are folded onto the next line (RFC 5322): unfold before reading.
  const match = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(raw.replace(/\r?\n[ \t]+/g, " "));
  if (match === null) throw new Error("no List-Unsubscribe header");
  return new URL(match[1]!);
}

test("a new lead gets one demo e-mail in their language with the video, the offer and a link to the payment page", async () => {
  const s = await shop();
  expect((await signUp(s, "lea@example.com", "es")).status).toBe(201);
  const [demo] = await smtp.waitFor(1);
  expect(demo!.to).toEqual(["lea@example.com"]);
  expect(demo!.mail.subject).toBe("Tu demo de Lifetime Stream");
  expect(demo!.mail.html).toContain('lang="es"');
  expect(demo!.mail.text).toContain("https://shop.example/demo-video.mp4");
  expect(demo!.mail.text).toContain("https://shop.example/es/paiement");
  expect(demo!.mail.text).toContain("29,99");
  expect(demo!.mail.html).not.toMatch(/<img|src="http/);
  // RFC 8058 headers, and the same address as a visible link.
  expect(demo!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  const url = unsubscribeUrlOf(demo!.raw);
  expect(url.origin + url.pathname).toBe("https://shop.example/unsubscribe");
  expect(demo!.mail.html).toContain(url.href.replace(/&/g, "&amp;"));
});

test("signing up again with the same address sends nothing new (and answers the same)", async () => {
  const s = await shop();
  expect((await signUp(s, "twice@example.com")).status).toBe(201);
  await smtp.waitFor(1);
  expect((await signUp(s, "twice@example.com")).status).toBe(201);
  expect((await signUp(s, "TWICE@example.com")).status).toBe(201);
  await s.mailer!.deliverDue();
  await Bun.sleep(200);
  expect(mailsTo(smtp, "twice@example.com")).toHaveLength(1);
  expect(s.db.select().from(mailOutbox).all()).toHaveLength(1);
});

test("the one-click unsubscribe (a POST to the List-Unsubscribe address) marks the lead, which is never mailed again", async () => {
  const s = await shop();
  await signUp(s, "bye@example.com");
  const [demo] = await smtp.waitFor(1);
  const url = unsubscribeUrlOf(demo!.raw);
  const response = await s.request(`${url.pathname}${url.search}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(response.status).toBe(200);
  const [lead] = s.db.select().from(emailLeads).all();
  expect(lead!.unsubscribedAt).toBeInstanceOf(Date);
  // Another sign-up of the same address stays silent.
  await signUp(s, "bye@example.com");
  await s.mailer!.deliverDue();
  expect(mailsTo(smtp, "bye@example.com")).toHaveLength(1);
});

test("the visible link unsubscribes with one click, without JavaScript, and says so in the lead's language", async () => {
  const s = await shop();
  await signUp(s, "link@example.com", "it");
  const [demo] = await smtp.waitFor(1);
  const url = unsubscribeUrlOf(demo!.raw);
  const page = await s.request(`${url.pathname}${url.search}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<html lang="it"');
  expect(html).toContain("Disiscrizione completata");
  expect(html).not.toContain("<form");
  expect(s.db.select().from(emailLeads).all()[0]!.unsubscribedAt).toBeInstanceOf(Date);
  // Clicking again is harmless.
  expect((await s.request(`${url.pathname}${url.search}`)).status).toBe(200);
});

test("a demo still queued when the address unsubscribes is not sent", async () => {
  // No sender yet: the message waits in the outbox.
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" } });
  await signUp(site, "quick@example.com");
  const [lead] = site.db.select().from(emailLeads).all();
  expect((await site.request(`/unsubscribe?token=${lead!.unsubscribeToken}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" })).status).toBe(200);
  const { createMailSender } = await import("../../server/mail/sender");
  const sender = createMailSender({ db: site.db, write: site.write, config: site.config, log: { debug() {}, info() {}, warn() {}, error() {} }, transport: createSmtpTransport(smtp.url), now: () => new Date() });
  await sender.deliverDue();
  await sender.stop();
  expect(smtp.received).toHaveLength(0);
  expect(site.db.select().from(mailOutbox).all()[0]).toMatchObject({ status: "cancelled", lastError: "unsubscribed" });
});

test("an unknown or malformed unsubscribe token changes nothing: 404 page, 404 JSON", async () => {
  const s = await shop();
  await signUp(s, "keep@example.com");
  expect((await s.request("/unsubscribe?token=00000000000000000000000000000000")).status).toBe(404);
  expect((await s.request("/unsubscribe?token=<script>")).status).toBe(404);
  expect((await s.request("/unsubscribe")).status).toBe(404);
  const post = await s.request("/unsubscribe?token=zz", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
  expect(post.status).toBe(404);
  expect(await post.json()).toEqual({ error: "Unknown unsubscribe link" });
  expect(s.db.select().from(emailLeads).all()[0]!.unsubscribedAt).toBeNull();
  const put = await s.request("/unsubscribe?token=zz", { method: "PUT" });
  expect(put.status).toBe(405);
  expect(put.headers.get("allow")).toBe("GET, POST");
});
