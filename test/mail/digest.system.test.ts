import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDb } from "../../db/client";
import { mailOutbox, orders, ownerActivity, ownerDigests } from "../../db/schema";
import { runCommand } from "../../server/owner/cli";
import { type DigestJob, startDigests } from "../../server/owner/digest/job";
import { createLogger } from "../../server/platform/log";
import { deliverySettings } from "../../server/shop/checkout/delivery";
import { refundOrder } from "../../server/shop/checkout/refund";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { dateIn } from "../../shared/offer";
import { cookieOf, recoveryCodes, signInWithCode } from "../console/owner";
import { startServer } from "../e2e/harness";
import { createTestSite, type TestSite } from "../support/app";
import { endServer } from "../support/end-server";
import { mailsTo, type ReceivedMail, useSmtp } from "../support/smtp";
import { plainSpaces } from "../support/text";
import { until } from "./until";

// The owner's digest e-mail, end to end on a real SMTP server on loopback: the console's figures
// of the period that ended, queued once per period whoever looks, at the hour and weekday set.

const smtp = useSmtp();
const OWNER = "owner@shop.example";
const BASE = "https://shop.example";

const sites: TestSite[] = [];
const jobs: DigestJob[] = [];
afterEach(async () => {
  warnings.splice(0);
  for (const j of jobs.splice(0)) await j.stop();
  for (const s of sites.splice(0)) await s.close();
});

/** A clock the test sets: the digest's hour and days are read from it. */
function clockAt(iso: string) {
  let at = Date.parse(iso);
  return { now: () => new Date(at), set: (next: string) => (at = Date.parse(next)) };
}

async function shop(clock: ReturnType<typeof clockAt>, env: Record<string, string> = {}, dataDir?: string): Promise<TestSite> {
  const s = await createTestSite({
    env: { OWNER_EMAIL: OWNER, PUBLIC_BASE_URL: BASE, TRUST_PROXY: "true", ...env },
    transport: createSmtpTransport(smtp.url),
    now: clock.now,
    dataDir,
  });
  sites.push(s);
  return s;
}

/** The digest job as the first server process runs it, on a test site. */
function digestsOf(s: TestSite, clock: ReturnType<typeof clockAt>): DigestJob {
  const job = startDigests({
    db: s.db,
    write: s.write,
    config: s.config,
    log: quietLog,
    now: clock.now,
    mailer: s.mailer ?? { wake() {} },
  });
  jobs.push(job);
  return job;
}
/** What the digest job logged as a warning or an error: a busy database, a failure. */
const warnings: string[] = [];
const quietLog = createLogger("warn", (line) => warnings.push(line));

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${n} Safari/537.36`;
/** One visitor: an address and a browser, as the trusted proxy reports them. */
const visitor = (n: number) => ({ "x-forwarded-for": `198.51.100.${n}`, "user-agent": browser(n) });

const view = (s: TestSite, who: Record<string, string>, path: string, referrer?: string) =>
  s.request("/api/beacon", {
    method: "POST",
    headers: { "content-type": "text/plain", ...who },
    body: JSON.stringify({ kind: "pageview", device: "desktop", path, ...(referrer === undefined ? {} : { referrer }) }),
  });

/** A visitor who pays with the test card, from the payment page: returns the order's id. */
async function buy(s: TestSite, who: Record<string, string>, email: string): Promise<number> {
  expect((await view(s, who, "/paiement")).status).toBe(204);
  const start = await s.request("/api/payment", { method: "POST", headers: { ...FORM, ...who }, body: "locale=fr&acceptTerms=yes" });
  const card = new URLSearchParams({ email, name: "Camille", city: "Lyon", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
  const paid = await s.request(start.headers.get("location") ?? "", {
    method: "POST",
    headers: { ...FORM, ...who },
    body: card.toString(),
  });
  expect(paid.status).toBe(303);
  return s.db.select({ id: orders.id }).from(orders).where(eq(orders.customerEmail, email)).get()?.id ?? 0;
}

const handOver = (s: TestSite, question: string) =>
  s.request("/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json", ...visitor(9) },
    body: JSON.stringify({ messages: [{ role: "user", content: question }], locale: "en" }),
  });

/** The owner signs in to the console once, in English: their e-mails without a browser follow. */
async function ownerSignsIn(s: TestSite, language: string): Promise<string> {
  const [code] = await recoveryCodes(s);
  const response = await signInWithCode(s, code ?? "", { "accept-language": language });
  expect(response.status).toBe(303);
  return cookieOf(response);
}

const digestsReceived = () => smtp.received.filter((m) => m.to.includes(OWNER) && digestRows.has(m.mail.messageId ?? ""));
const digestRows = new Set<string>();
/** Every digest the site queued, by Message-ID, and the mail server's copies of them once the sender is done. */
async function delivered(...all: TestSite[]): Promise<ReceivedMail[]> {
  for (const s of all) {
    await s.mailer?.deliverDue();
    for (const r of s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "owner-digest")).all()) digestRows.add(r.messageId);
  }
  return digestsReceived();
}
const text = (m: ReceivedMail | undefined) => plainSpaces(m?.mail.text ?? "").replace(/\s+/g, " ");

test("with sales, visitors and a handed-over question recorded, the day's digest arrives once, with the console's figures, in the owner's language", async () => {
  const clock = clockAt("2026-11-24T09:00:00+01:00");
  const s = await shop(clock);
  const job = digestsOf(s, clock);
  // The site started this morning: the day before is no period of its.
  expect(await job.runNow()).toEqual({ status: "before-start", period: "2026-11-23" });
  await ownerSignsIn(s, "en");

  await view(s, visitor(1), "/", "www.forum.example");
  await view(s, visitor(2), "/en");
  await view(s, visitor(3), "/it");
  const first = await buy(s, visitor(1), "first@example.com");
  clock.set("2026-11-24T15:00:00+01:00");
  await buy(s, visitor(2), "second@example.com");
  expect((await handOver(s, "Do you have a student discount?")).status).toBe(200);
  clock.set("2026-11-24T18:00:00+01:00");
  const refunded = await refundOrder(
    { db: s.db, write: s.write, now: clock.now, delivery: deliverySettings(s.config), provider: () => s.checkout.provider },
    first,
  );
  expect(refunded).toBe("refunded");
  await s.analytics.flush();
  // The next morning, before the hour: a sale of the new day, which belongs to tomorrow's digest.
  clock.set("2026-11-25T06:50:00+01:00");
  expect(await job.runNow()).toEqual({ status: "not-due" });
  await buy(s, visitor(4), "early@example.com");
  await s.analytics.flush();
  // Every notice of the day sent: the digest's e-mail section reads the queue as it is.
  await s.mailer?.deliverDue();

  clock.set("2026-11-25T07:00:00+01:00");
  const run = await job.runNow();
  expect(run).toMatchObject({ status: "queued", period: "2026-11-24" });
  const [digest, ...more] = await delivered(s);
  expect(more).toHaveLength(0);
  expect(digest?.mail.subject).toBe("Tuesday, 24 November 2026: 2 sales, €29.99 net, 3 visitors");
  const body = text(digest);
  // The overview's figures for that Paris day: two paid, one of them refunded the same day.
  expect(body).toContain("Net revenue: €29.99");
  expect(body).toContain("Gross revenue: €59.98");
  expect(body).toContain("Refunded: €29.99");
  expect(body).toContain("Paid orders: 2");
  expect(body).toContain("Orders refunded: 1");
  // The Audience page's funnel for that day; the next morning's visitor is not in it.
  expect(body).toContain("Visitors: 3");
  expect(body).toMatch(/Went to pay \(page or button\): 2 \(66\.7\s?%\)/);
  expect(body).toMatch(/Checkout started: 2 \(100\s?%\)/);
  expect(body).toMatch(/Paid: 2 \(100\s?%\)/);
  expect(body).toMatch(/Visitors who bought: 66\.7\s?%/);
  expect(body).toContain("forum.example (1)");
  // The question the assistant gave to the support address, and the queue as it is.
  expect(body).toContain("“Do you have a student discount?”");
  expect(body).toContain("No e-mail has failed, and none has been waiting for more than an hour.");
  expect(body).toContain(`Open the console ${BASE}/admin`);
  expect(digest?.mail.html).toContain(`href="${BASE}/admin"`);
  expect(digest?.mail.html).toContain('lang="en"');

  // Looked at again, by this process, a second one on the same folder, and late in the day: nothing more.
  expect(await job.runNow()).toMatchObject({ status: "already", period: "2026-11-24" });
  const second = await shop(clock, {}, s.dataDir);
  const secondJob = digestsOf(second, clock);
  expect(await secondJob.runNow()).toMatchObject({ status: "already", period: "2026-11-24" });
  clock.set("2026-11-25T23:30:00+01:00");
  expect(await job.runNow()).toMatchObject({ status: "already", period: "2026-11-24" });
  expect(await delivered(s, second)).toHaveLength(1);
  expect(s.db.select().from(ownerDigests).all()).toEqual([
    {
      period: "2026-11-24",
      frequency: "daily",
      mailId: expect.any(Number),
      queuedAt: new Date("2026-11-25T07:00:00+01:00"),
      byHand: false,
    },
  ]);

  // Down on the 26th, back on the 27th after the hour: the 26th's digest, not a backlog with the 25th's.
  clock.set("2026-11-27T10:15:00+01:00");
  expect(await secondJob.runNow()).toMatchObject({ status: "queued", period: "2026-11-26" });
  expect(await job.runNow()).toMatchObject({ status: "already", period: "2026-11-26" });
  const all = await delivered(s, second);
  expect(all.map((m) => m.mail.subject)).toEqual([
    "Tuesday, 24 November 2026: 2 sales, €29.99 net, 3 visitors",
    "Thursday, 26 November 2026: no sale, €0.00 net, 0 visitors",
  ]);
  expect(text(all[1])).toContain("Unanswered questions None in this period.");
  expect(warnings).toEqual([]);
}, 60_000);

test("weekly: last week's digest goes on the chosen weekday at the hour, and on no other day", async () => {
  const clock = clockAt("2026-11-17T10:00:00+01:00");
  const s = await shop(clock, { DIGEST: "weekly", DIGEST_WEEKDAY: "Wednesday", DIGEST_HOUR: "8" });
  const job = digestsOf(s, clock);
  await job.runNow();
  clock.set("2026-11-19T11:00:00+01:00");
  await buy(s, visitor(1), "thursday@example.com");
  await s.analytics.flush();
  for (const at of ["2026-11-23T09:00:00+01:00", "2026-11-24T09:00:00+01:00", "2026-11-25T07:59:00+01:00"]) {
    clock.set(at);
    expect(await job.runNow()).toEqual({ status: "not-due" });
  }
  clock.set("2026-11-25T08:00:00+01:00");
  expect(await job.runNow()).toMatchObject({ status: "queued", period: "2026-W47" });
  for (const at of ["2026-11-25T20:00:00+01:00", "2026-11-26T09:00:00+01:00", "2026-11-30T09:00:00+01:00"]) {
    clock.set(at);
    expect((await job.runNow()).status).not.toBe("queued");
  }
  const received = await delivered(s);
  expect(received).toHaveLength(1);
  // No owner has signed in to the console: French, as the console speaks by default.
  expect(received[0]?.mail.subject).toMatch(/^Semaine 47 \(16.+22 nov\. 2026\) : 1 vente, 29,99\s€ net, 1 visiteur$/);
  expect(text(received[0])).toContain("Envoyé à OWNER_EMAIL chaque mercredi à 08:00 (heure de Paris).");
}, 60_000);

test("DIGEST=off sends nothing, and the console's overview says it is off", async () => {
  const clock = clockAt("2026-11-24T09:00:00+01:00");
  const s = await shop(clock, { DIGEST: "off" });
  const job = digestsOf(s, clock);
  await buy(s, visitor(1), "buyer@example.com");
  clock.set("2026-11-25T09:00:00+01:00");
  expect(await job.runNow()).toEqual({ status: "off" });
  expect(await delivered(s)).toHaveLength(0);
  expect(s.db.select().from(ownerDigests).all()).toHaveLength(0);
  const cookie = await ownerSignsIn(s, "en");
  const page = await (await s.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
  expect(page).toContain("Digest e-mail: off (DIGEST=off).");
});

test("without OWNER_EMAIL nothing is queued and nothing fails; the overview and the command say why", async () => {
  const clock = clockAt("2026-11-24T09:00:00+01:00");
  const s = await shop(clock, { OWNER_EMAIL: "" });
  const job = digestsOf(s, clock);
  clock.set("2026-11-25T09:00:00+01:00");
  expect(await job.runNow()).toEqual({ status: "off" });
  expect(s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "owner-digest")).all()).toHaveLength(0);
  expect(warnings).toEqual([]);
  const cookie = await ownerSignsIn(s, "en");
  const page = await (await s.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
  expect(page).toContain("Digest e-mail: not sent, OWNER_EMAIL is not set.");
  const errors: string[] = [];
  const code = await runCommand(
    ["digest", "send"],
    s.config,
    () => {},
    (line) => errors.push(line),
    { now: clock.now },
  );
  expect(code).toBe(1);
  expect(errors.join("\n")).toContain("OWNER_EMAIL is not set");
});

test("by hand: `digest preview` prints a period's digest and queues nothing; `digest send` queues it once, and the server's own look then sends nothing", async () => {
  const clock = clockAt("2026-11-24T09:00:00+01:00");
  const s = await shop(clock);
  // The server's digests began when it started (a look before the hour queues nothing).
  const job = digestsOf(s, clock);
  expect(await job.runNow()).toEqual({ status: "before-start", period: "2026-11-23" });
  await buy(s, visitor(1), "buyer@example.com");
  await s.analytics.flush();
  clock.set("2026-11-24T20:00:00+01:00");
  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(
      ["digest", ...args],
      s.config,
      (l) => out.push(l),
      (l) => err.push(l),
      { now: clock.now },
    );
    return { code, out: plainSpaces(out.join("")), err: err.join("\n") };
  };
  // The day is not over yet.
  expect(await cli("send", "--date", "2026-11-24")).toMatchObject({ code: 2, err: expect.stringContaining("has not ended yet") });
  expect((await cli("send", "--date", "2026-02-30")).code).toBe(2);

  clock.set("2026-11-25T06:00:00+01:00");
  const preview = await cli("preview");
  expect(preview.code).toBe(0);
  expect(preview.out).toContain(`To: ${OWNER}`);
  expect(preview.out).toContain("Subject: mardi 24 novembre 2026 : 1 vente, 29,99 € net, 1 visiteur");
  expect(preview.out).toContain("Revenu net : 29,99 €");
  expect(s.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "owner-digest")).all()).toHaveLength(0);

  const sent = await cli("send");
  expect(sent).toMatchObject({ code: 0, out: expect.stringContaining("Digest of 2026-11-24 queued to owner@shop.example") });
  expect(await cli("send", "--date", "2026-11-24")).toMatchObject({ code: 1, err: expect.stringContaining("queued already") });
  expect(s.db.select({ action: ownerActivity.action, detail: ownerActivity.detail }).from(ownerActivity).all()).toContainEqual({
    action: "digest-sent",
    detail: "2026-11-24",
  });
  clock.set("2026-11-25T07:05:00+01:00");
  expect(await job.runNow()).toMatchObject({ status: "already", period: "2026-11-24" });
  const received = await delivered(s);
  expect(received).toHaveLength(1);
  expect(s.db.select().from(ownerDigests).get()?.byHand).toBe(true);
}, 60_000);

test("an e-mail the mail server refused is in the next digest, with its address and the reason", async () => {
  const clock = clockAt("2026-11-24T09:00:00+01:00");
  const s = await shop(clock);
  const job = digestsOf(s, clock);
  await job.runNow();
  smtp.reject.add("typo@example.com");
  await buy(s, visitor(1), "typo@example.com");
  await s.mailer?.deliverDue();
  clock.set("2026-11-25T07:30:00+01:00");
  expect(await job.runNow()).toMatchObject({ status: "queued", period: "2026-11-24" });
  const [digest] = await delivered(s);
  const body = text(digest);
  expect(body).toContain("Emails en attente ou en échec");
  expect(body).toMatch(/1 email a échoué : relancez-le depuis la page Emails/);
  expect(body).toMatch(/accès à typo@example\.com, mis en file le 24 nov\. 2026, 09:00 — .*550/);
  expect(body).not.toContain("Aucun email n'a échoué");
});

test("the real server: a start after the hour sends the day's missed digest once, and a restart sends nothing more", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-digest-"));
  try {
    // A site that has been running for days: its digests began before yesterday.
    const db = openDb(join(dataDir, "site.db"), { synchronous: "FULL" });
    const began = Date.now() - 3 * 24 * 60 * 60 * 1000;
    db.$client.query("INSERT INTO site_settings (key, value, created_at) VALUES ('digest_started_at', ?, ?)").run(String(began), began);
    db.$client.close();
    // Hour 0: whenever the test runs, yesterday's digest is due.
    // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
    const env = { SMTP_URL: smtp.url, OWNER_EMAIL: OWNER, DIGEST_HOUR: "0", LOG_LEVEL: "debug", WORKERS: "1" };
    const yesterday = dateIn("Europe/Paris", new Date(Date.now() - 24 * 60 * 60 * 1000));
    const first = await startServer({ dataDir, env });
    try {
      await smtp.waitFor(1);
      // Recorded as sent before it ends: a restart would otherwise send it again, as after any crash
      // mid-send (send-once.system.test.ts). How it stops is not under test (a SIGTERM drains for a second).
      await until("the digest recorded as sent", () => {
        const db = new Database(join(dataDir, "site.db"), { readonly: true });
        try {
          return (
            db.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'owner-digest' AND status = 'sent'").get()
              ?.n === 1
          );
        } finally {
          db.close();
        }
      });
    } finally {
      await endServer(first);
    }
    const second = await startServer({ dataDir, env });
    try {
      // The restart's digest check has run (and found the day's digest queued already).
      await until("the restarted server looked for the digest", () =>
        second.output.some((line) => line.includes("digest: looked") && line.includes('"already"')),
      );
    } finally {
      await endServer(second);
    }
    const received = mailsTo(smtp, OWNER);
    expect(received).toHaveLength(1);
    // French (no owner signed in yet), yesterday's Paris date, and the lists read when it was written.
    const day = new Intl.DateTimeFormat("fr-FR", { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${yesterday}T12:00:00Z`));
    expect(plainSpaces(received[0]?.mail.subject)).toBe(`${day} : aucune vente, 0,00 € net, 0 visiteur`);
    expect(text(received[0])).toContain("Questions sans réponse Aucune sur cette période.");
    const check = new Database(join(dataDir, "site.db"), { readonly: true });
    const rows = check.query<{ period: string }, []>("SELECT period FROM owner_digests").all();
    check.close();
    expect(rows).toEqual([{ period: yesterday }]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);
