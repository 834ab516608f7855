import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { eq, ne } from "drizzle-orm";
import { accessResends, chatMessages, emailLeads, mailOutbox, orders, reviews } from "../../db/schema";
import { createLogger } from "../../server/platform/log";
import { recordChatMessage } from "../../server/shop/chat/transcripts";
import { mailFilePath, removeMailFiles } from "../../server/shop/mail/mail-files";
import { createFileTransport } from "../../server/shop/mail/transport";
import { eraseByEmail } from "../../server/shop/privacy/erase";
import { deleteExpiredData, startRetention } from "../../server/shop/privacy/retention";
import { startServer } from "../e2e/harness";
import { createTestSite } from "../support/app";
import { endServer } from "../support/end-server";
import { payWithTestCard } from "../support/purchase";
import { until } from "../support/wait";

// The owner erases a person's data on request (`site leads erase EMAIL`), and leads, chat
// transcripts and access-resend requests are deleted when their retention is over, by the server
// itself (at start-up and hourly).

const main = join(import.meta.dir, "..", "..", "server", "main.ts");
const DAY = 24 * 60 * 60 * 1000;
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const count = (db: Database, table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
/** The recipients of the .eml files in a mail folder, one per file, sorted. */
const fileRecipients = (dir: string) =>
  readdirSync(dir)
    .map((name) => /^To: (.+)$/m.exec(readFileSync(join(dir, name), "utf8"))?.[1] ?? `? ${name}`)
    .sort();

test("`leads erase EMAIL` deletes the person's lead, its e-mails (rows and .eml files), the chats that mention the address and their resend requests, keeps their order, and says so", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-erase-"));
  const mailDir = join(dataDir, "mail");
  try {
    // The default mail mode: every e-mail becomes DATA_DIR/mail/<outbox id>.eml.
    const site = await createTestSite({ dataDir, transport: createFileTransport(mailDir) });
    const at = new Date();
    expect(
      (await site.request("/api/leads", json({ email: "ana@example.com", source: "exit_popup", ip_hash: null, locale: "fr" }))).status,
    ).toBeLessThan(300);
    expect(
      (await site.request("/api/leads", json({ email: "other@example.com", source: "exit_popup", ip_hash: null, locale: "fr" }))).status,
    ).toBeLessThan(300);
    await recordChatMessage(site.write, {
      conversationId: "conv-ana",
      role: "user",
      content: "Bonjour, je suis Ana@Example.com, où est ma clé ?",
      locale: "fr",
      at,
    });
    await recordChatMessage(site.write, {
      conversationId: "conv-ana",
      role: "assistant",
      content: "Regardez dans vos spams.",
      locale: "fr",
      at,
    });
    await recordChatMessage(site.write, { conversationId: "conv-other", role: "user", content: "Combien ça coûte ?", locale: "fr", at });
    await payWithTestCard(site, { locale: "fr", email: "ana@example.com" });
    site.db.insert(accessResends).values({ email: "ana@example.com", createdAt: at }).run();
    expect(
      site.db
        .select()
        .from(mailOutbox)
        .all()
        .filter((m) => m.kind === "demo"),
    ).toHaveLength(2);
    await site.mailer?.deliverDue();
    // Two demo e-mails and Ana's access e-mail.
    expect(fileRecipients(mailDir)).toEqual(["ana@example.com", "ana@example.com", "other@example.com"]);
    // Ana's published review of her order: her text and name, erased with the rest.
    const anaOrder = site.db.select().from(orders).get();
    if (anaOrder === undefined) throw new Error("no order");
    site.db
      .insert(reviews)
      .values({
        orderId: anaOrder.id,
        locale: "fr",
        rating: 5,
        text: "Installée en cinq minutes sur la télé du salon.",
        displayName: "Ana L.",
        nameStyle: "first-initial",
        status: "published",
        consentAt: at,
        createdAt: at,
        updatedAt: at,
        publishedAt: at,
      })
      .run();
    await site.close();

    const result = spawnSync({
      cmd: [process.execPath, "run", main, "leads", "erase", " Ana@Example.com "],
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(result.stderr.toString()).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toBe(
      [
        "Erased for ana@example.com:",
        "  1 demo request(s) (email_leads)",
        "  1 e-mail(s) of the outbox (0 not yet sent, 1 sent, 0 failed or cancelled)",
        `  1 e-mail file(s) in ${mailDir}`,
        "  1 chat conversation(s) mentioning the address (2 message(s))",
        "  1 access-resend request(s)",
        "  1 review(s) of their orders (published, waiting or refused)",
        "Kept: 1 order(s) paid with this address (accounting records; the licence check reads them).",
        "",
      ].join("\n"),
    );

    const db = new Database(join(dataDir, "site.db"), { readonly: true });
    try {
      expect(db.query<{ email: string }, []>("SELECT email FROM email_leads").all()).toEqual([{ email: "other@example.com" }]);
      expect(db.query<{ recipient: string }, []>("SELECT recipient FROM mail_outbox WHERE kind = 'demo'").all()).toEqual([
        { recipient: "other@example.com" },
      ]);
      expect(db.query<{ c: string }, []>("SELECT DISTINCT conversation_id AS c FROM chat_messages").all()).toEqual([{ c: "conv-other" }]);
      expect(count(db, "access_resends")).toBe(0);
      expect(count(db, "orders")).toBe(1);
      expect(count(db, "reviews")).toBe(0);
      // Left on disk: the other person's demo e-mail and the access e-mail kept with Ana's order.
      const files = db
        .query<{ id: number; recipient: string }, []>(
          "SELECT id, recipient FROM mail_outbox WHERE kind IN ('demo', 'access') ORDER BY recipient",
        )
        .all();
      expect(files.map((f) => existsSync(mailFilePath(mailDir, f.id)))).toEqual([true, true]);
      expect(fileRecipients(mailDir)).toEqual(["ana@example.com", "other@example.com"]);
    } finally {
      db.close();
    }

    // A bad address changes nothing and says how to call the command.
    const bad = spawnSync({
      cmd: [process.execPath, "run", main, "leads", "erase", "nobody"],
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.toString()).toContain("leads erase needs an e-mail address");
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("retention deletes leads (with their e-mails, rows and .eml files), chat messages, resend requests and reviews older than their period, and nothing newer", async () => {
  const now = new Date("2027-06-01T12:00:00Z");
  const site = await createTestSite({ env: { LEAD_RETENTION_DAYS: "30", CHAT_RETENTION_DAYS: "7" }, now: () => now });
  try {
    const mailDir = site.config.mail.dir;
    mkdirSync(mailDir, { recursive: true });
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const lead = (email: string, days: number) => {
      const [row] = site.db
        .insert(emailLeads)
        .values({ email, source: "exit_popup", locale: "en", createdAt: ago(days), unsubscribeToken: email })
        .returning({ id: emailLeads.id })
        .all();
      const [mail] = site.db
        .insert(mailOutbox)
        .values({
          kind: "demo",
          recipient: email,
          locale: "en",
          payload: "{}",
          messageId: `<${email}>`,
          status: "sent",
          nextAttemptAt: ago(days),
          leadId: row!.id,
          createdAt: ago(days),
        })
        .returning({ id: mailOutbox.id })
        .all();
      // As the file transport left it when it sent the demo e-mail.
      writeFileSync(mailFilePath(mailDir, mail!.id), `To: ${email}\r\nSubject: Your demo\r\n\r\nHello\r\n`);
    };
    lead("old@example.com", 31);
    lead("recent@example.com", 29);
    await recordChatMessage(site.write, { conversationId: "c1", role: "user", content: "old question", locale: "en", at: ago(8) });
    await recordChatMessage(site.write, { conversationId: "c1", role: "user", content: "new question", locale: "en", at: ago(6) });
    site.db
      .insert(accessResends)
      .values([
        { email: "a@example.com", createdAt: ago(2) },
        { email: "b@example.com", createdAt: new Date(now.getTime() - 3600_000) },
      ])
      .run();
    // Reviews stay five years at most (the /avis page says so): one written 5 years and 2 days ago, one 4 years ago.
    await payWithTestCard(site, { locale: "fr", email: "old-review@example.com" });
    await payWithTestCard(site, { locale: "fr", email: "new-review@example.com" });
    for (const [email, days] of [
      ["old-review@example.com", 5 * 365 + 2],
      ["new-review@example.com", 4 * 365],
    ] as const) {
      const order = site.db.select().from(orders).where(eq(orders.customerEmail, email)).get();
      if (order === undefined) throw new Error("no order");
      site.db
        .insert(reviews)
        .values({
          orderId: order.id,
          locale: "fr",
          rating: 4,
          text: `Avis de ${email}, écrit il y a ${days} jours.`,
          displayName: "Ana L.",
          nameStyle: "first-initial",
          status: "published",
          consentAt: ago(days),
          createdAt: ago(days),
          updatedAt: ago(days),
          publishedAt: ago(days),
        })
        .run();
    }
    // The purchases' access e-mails are not leads': out of this test's outbox count.
    site.db.delete(mailOutbox).where(ne(mailOutbox.kind, "demo")).run();

    const none = { deleted: 0, failed: [] };
    expect(await deleteExpiredData(site.write, site.config.retention, mailDir, now)).toEqual({
      leads: 1,
      leadMails: 1,
      leadMailFiles: { deleted: 1, failed: [] },
      chatMessages: 1,
      accessResends: 1,
      reviews: 1,
    });
    expect(site.db.select({ text: reviews.text }).from(reviews).all()).toEqual([
      { text: `Avis de new-review@example.com, écrit il y a ${4 * 365} jours.` },
    ]);
    expect(site.db.select({ email: emailLeads.email }).from(emailLeads).all()).toEqual([{ email: "recent@example.com" }]);
    expect(site.db.select({ recipient: mailOutbox.recipient }).from(mailOutbox).all()).toEqual([{ recipient: "recent@example.com" }]);
    expect(fileRecipients(mailDir)).toEqual(["recent@example.com"]);
    expect(site.db.select({ content: chatMessages.content }).from(chatMessages).all()).toEqual([{ content: "new question" }]);
    expect(site.db.select({ email: accessResends.email }).from(accessResends).all()).toEqual([{ email: "b@example.com" }]);
    // Run again: nothing more is due.
    expect(await deleteExpiredData(site.write, site.config.retention, mailDir, now)).toEqual({
      leads: 0,
      leadMails: 0,
      leadMailFiles: none,
      chatMessages: 0,
      accessResends: 0,
      reviews: 0,
    });

    // The job runs at once and then on its interval, on the injected clock; orders are never touched.
    await payWithTestCard(site, { locale: "en", email: "buyer@example.com" });
    let clock = now;
    const logs: string[] = [];
    const job = await startRetention(
      { write: site.write, config: site.config, log: createLogger("info", (l) => logs.push(l)), now: () => clock },
      20,
    );
    clock = new Date(now.getTime() + 40 * DAY);
    // Its next turn (every 20 ms) sees the new date: wait for what it does.
    await until("the retention job's run on the moved clock", () => logs.some((l) => l.includes("retention: expired data deleted")));
    job.stop();
    expect(site.db.select().from(emailLeads).all()).toHaveLength(0);
    expect(site.db.select().from(chatMessages).all()).toHaveLength(0);
    expect(site.db.select().from(orders).all()).toHaveLength(3); // The two reviewed orders above and this one.
    expect(logs.some((l) => l.includes("retention: expired data deleted"))).toBe(true);
  } finally {
    await site.close();
  }
});

test("the server deletes expired data when it starts", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-retention-"));
  try {
    const site = await createTestSite({ dataDir });
    const old = new Date(Date.now() - 400 * DAY);
    site.db
      .insert(emailLeads)
      .values({ email: "stale@example.com", source: "exit_popup", locale: "fr", createdAt: old, unsubscribeToken: "t1" })
      .run();
    site.db
      .insert(emailLeads)
      .values({ email: "fresh@example.com", source: "exit_popup", locale: "fr", createdAt: new Date(), unsubscribeToken: "t2" })
      .run();
    await recordChatMessage(site.write, { conversationId: "c-old", role: "user", content: "old", locale: "fr", at: old });
    await site.close();

    // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
    const server = await startServer({ dataDir, env: { WORKERS: "1" } });
    try {
      const db = new Database(join(dataDir, "site.db"), { readonly: true });
      try {
        expect(db.query<{ email: string }, []>("SELECT email FROM email_leads").all()).toEqual([{ email: "fresh@example.com" }]);
        expect(count(db, "chat_messages")).toBe(0);
      } finally {
        db.close();
      }
      expect(server.output.some((line) => line.includes("retention: expired data deleted"))).toBe(true);
    } finally {
      await endServer(server);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("removing an outbox row's mail files: its .eml and a half-written copy go, other rows' files stay, a missing file or folder is no error", () => {
  const dir = mkdtempSync(join(tmpdir(), "site-mailfiles-"));
  try {
    for (const name of ["7.eml", "7.eml.4242.tmp", "17.eml", "70.eml", "notes.txt"])
      writeFileSync(join(dir, name), "To: someone@example.com\r\n");
    expect(removeMailFiles(dir, [7, 8])).toEqual({ deleted: 2, failed: [] });
    expect(readdirSync(dir).sort()).toEqual(["17.eml", "70.eml", "notes.txt"]);
    expect(removeMailFiles(dir, [7])).toEqual({ deleted: 0, failed: [] });
    expect(removeMailFiles(join(dir, "never-made"), [17])).toEqual({ deleted: 0, failed: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an e-mail erased while it is being sent leaves no .eml file behind", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-erase-race-"));
  const mailDir = join(dataDir, "mail");
  try {
    const files = createFileTransport(mailDir);
    let site: Awaited<ReturnType<typeof createTestSite>> | null = null;
    // The owner's erasure commits after the sender took the message and before the file is written.
    const erasingFirst = {
      ...files,
      send: async (mail: Parameters<typeof files.send>[0]) => {
        const erased = await eraseByEmail(site!.write, mail.to, mailDir);
        expect(erased.mails.pending).toBe(1);
        await files.send(mail);
      },
    };
    site = await createTestSite({ dataDir, transport: erasingFirst });
    try {
      expect(
        (await site.request("/api/leads", json({ email: "late@example.com", source: "exit_popup", ip_hash: null, locale: "en" }))).status,
      ).toBeLessThan(300);
      await site.mailer?.deliverDue();
      expect(site.db.select().from(mailOutbox).all()).toEqual([]);
      expect(existsSync(mailDir) ? readdirSync(mailDir) : []).toEqual([]);
    } finally {
      await site.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
