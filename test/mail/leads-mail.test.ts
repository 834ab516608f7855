import { afterEach, expect, test } from "bun:test";
import { emailLeads, mailOutbox } from "../../db/schema";
import { DEMO_REPEAT_WINDOW_MS } from "../../server/shop/leads/service";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { LOCALES } from "../../shared/locales";
import { createTestSite, type TestSite } from "../support/app";
import { mailsTo, useSmtp } from "../support/smtp";
import { drainOutbox } from "./until";

// What a lead gets: the demo e-mail in the visitor's language, again when they ask again but at most
// once a day, with a one-click unsubscribe that works from the mail provider's button (RFC 8058 POST)
// and from the visible link, after which nothing is sent.

const smtp = useSmtp();
let site: TestSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** The site's clock, moved on by the tests that span days. */
let clock = Date.parse("2026-11-22T10:00:00Z");
afterEach(() => {
  clock = Date.parse("2026-11-22T10:00:00Z");
});
const HOUR = 60 * 60 * 1000;

async function shop() {
  site = await createTestSite({
    env: { PUBLIC_BASE_URL: "https://shop.example" },
    transport: createSmtpTransport(smtp.url),
    now: () => new Date(clock),
  });
  return site;
}
const signUp = (s: TestSite, email: string, locale = "fr") =>
  s.request("/api/leads", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, source: "exit_popup", locale, ip_hash: null }),
  });

/** The List-Unsubscribe address of a received message (the part between < and >). */
function unsubscribeUrlOf(raw: string): URL {
  // Long header lines are folded onto the next line (RFC 5322): unfold before reading.
  const match = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(raw.replace(/\r?\n[ \t]+/g, " "));
  if (match === null) throw new Error("no List-Unsubscribe header");
  return new URL(match[1]!);
}

test("a new lead gets one demo e-mail in their language with a link to the demo page, the offer and a link to the payment page", async () => {
  const s = await shop();
  expect((await signUp(s, "lea@example.com", "es")).status).toBe(201);
  const [demo] = await smtp.waitFor(1);
  expect(demo!.to).toEqual(["lea@example.com"]);
  expect(demo!.mail.subject).toBe("Tu demo de Lifetime Stream");
  expect(demo!.mail.html).toContain('lang="es"');
  // The demo page in their language (the video with its captions), not the bare video file.
  expect(demo!.mail.text).toContain("https://shop.example/es/demo");
  expect(demo!.mail.text).not.toContain("demo-video.mp4");
  expect(demo!.mail.text).toContain("https://shop.example/es/paiement");
  expect(demo!.mail.text).toContain("29,99");
  expect(demo!.mail.html).not.toMatch(/<img|src="http/);
  // RFC 8058 headers, and the same address as a visible link.
  expect(demo!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  const url = unsubscribeUrlOf(demo!.raw);
  expect(url.origin + url.pathname).toBe("https://shop.example/unsubscribe");
  expect(demo!.mail.html).toContain(url.href.replace(/&/g, "&amp;"));
});

test("asking again within 24 hours (a double submit, a reload) sends nothing new and answers the same", async () => {
  const s = await shop();
  const first = await signUp(s, "twice@example.com");
  await smtp.waitFor(1);
  clock += 23 * HOUR;
  for (const again of [await signUp(s, "twice@example.com"), await signUp(s, "TWICE@example.com")]) {
    expect({ status: again.status, body: await again.json() }).toEqual({ status: first.status, body: { ok: true } });
  }
  await drainOutbox(s);
  expect(mailsTo(smtp, "twice@example.com")).toHaveLength(1);
  expect(s.db.select().from(mailOutbox).all()).toHaveLength(1);
  expect(s.db.select().from(emailLeads).all()).toHaveLength(1);
});

test("asking again after 24 hours sends the demo again, in the language asked in, with the same unsubscribe link; the lead stays one row", async () => {
  const s = await shop();
  await signUp(s, "lost-in-spam@example.com", "fr");
  const [first] = await smtp.waitFor(1);
  clock += DEMO_REPEAT_WINDOW_MS + 60_000;
  expect((await signUp(s, "lost-in-spam@example.com", "en")).status).toBe(201);
  const [, second] = await smtp.waitFor(2);
  expect(second!.to).toEqual(["lost-in-spam@example.com"]);
  expect(second!.mail.subject).toBe("Your Lifetime Stream demo");
  expect(unsubscribeUrlOf(second!.raw).href).toBe(unsubscribeUrlOf(first!.raw).href);
  expect(second!.mail.messageId).not.toBe(first!.mail.messageId);
  expect(s.db.select().from(emailLeads).all()).toEqual([expect.objectContaining({ email: "lost-in-spam@example.com", locale: "fr" })]);
  // And the window starts again from this second e-mail.
  clock += 12 * HOUR;
  await signUp(s, "lost-in-spam@example.com", "en");
  await s.mailer!.deliverDue();
  expect(mailsTo(smtp, "lost-in-spam@example.com")).toHaveLength(2);
});

test("a demo still waiting for the mail server is not queued twice, however long it waits", async () => {
  // No sender: the first demo stays in the outbox, as while the mail server is unreachable.
  site = await createTestSite({ env: { PUBLIC_BASE_URL: "https://shop.example" }, now: () => new Date(clock) });
  await signUp(site, "patient@example.com");
  clock += 3 * DEMO_REPEAT_WINDOW_MS;
  expect((await signUp(site, "patient@example.com")).status).toBe(201);
  expect(site.db.select({ status: mailOutbox.status }).from(mailOutbox).all()).toEqual([{ status: "pending" }]);
});

test("a lead stored before unsubscribe links existed, asking again, gets the demo with a working one-click unsubscribe", async () => {
  const s = await shop();
  s.db
    .insert(emailLeads)
    .values({ email: "early@example.com", source: "exit_popup", locale: "it", createdAt: new Date(clock - 400 * HOUR) })
    .run();
  await signUp(s, "early@example.com", "it");
  const [demo] = await smtp.waitFor(1);
  const url = unsubscribeUrlOf(demo!.raw);
  expect((await s.request(`${url.pathname}${url.search}`)).status).toBe(200);
  expect(s.db.select().from(emailLeads).all()[0]!.unsubscribedAt).toBeInstanceOf(Date);
});

test("the privacy page states the rule the server applies: at most once every 24 hours, never after unsubscribing", () => {
  const hours = String(DEMO_REPEAT_WINDOW_MS / HOUR);
  for (const locale of LOCALES) {
    const text = SOURCE_MESSAGES[locale]["privacy.leads.text"];
    expect({ locale, mentionsWindow: text.includes(` ${hours} `) }).toEqual({ locale, mentionsWindow: true });
  }
});

test("the confirmation after a demo request is one short sentence, in every language", () => {
  for (const locale of LOCALES) {
    for (const key of ["demoSentDesc", "demoSentNote"] as const) {
      const text = SOURCE_MESSAGES[locale][key];
      expect({
        locale,
        key,
        sentences: text.split(/[.!?](?:\s|$)/).filter((s) => s.trim() !== "").length,
        short: text.length <= 90,
      }).toEqual({
        locale,
        key,
        sentences: 1,
        short: true,
      });
    }
  }
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
  // Another sign-up of the same address, days later, stays silent, and its answer says nothing of it.
  clock += 3 * DEMO_REPEAT_WINDOW_MS;
  const again = await signUp(s, "bye@example.com");
  expect({ status: again.status, body: await again.json() }).toEqual({ status: 201, body: { ok: true } });
  await s.mailer!.deliverDue();
  expect(mailsTo(smtp, "bye@example.com")).toHaveLength(1);
  expect(s.db.select().from(mailOutbox).all()).toHaveLength(1);
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
  expect(
    (
      await site.request(`/unsubscribe?token=${lead!.unsubscribeToken}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      })
    ).status,
  ).toBe(200);
  const { createMailSender } = await import("../../server/shop/mail/sender");
  const sender = createMailSender({
    db: site.db,
    write: site.write,
    config: site.config,
    content: site.content,
    log: { debug() {}, info() {}, warn() {}, error() {}, request() {} },
    transport: createSmtpTransport(smtp.url),
    now: () => new Date(),
  });
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
  const post = await s.request("/unsubscribe?token=zz", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(post.status).toBe(404);
  expect(await post.json()).toEqual({ error: "Unknown unsubscribe link" });
  expect(s.db.select().from(emailLeads).all()[0]!.unsubscribedAt).toBeNull();
  const put = await s.request("/unsubscribe?token=zz", { method: "PUT" });
  expect(put.status).toBe(405);
  expect(put.headers.get("allow")).toBe("GET, POST");
});
