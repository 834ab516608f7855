// The e-mail outbox (server/shop/mail/): (1) messages delivered per second from the outbox, over SMTP to a
// real SMTP server on loopback and as .eml files, with where the time of one message goes (React
// Email rendering, the commit per message, SMTP alone); (2) time from a payment through the test
// checkout to the SMTP server's acceptance of that buyer's access e-mail: one buyer at a time on an
// idle sender, buyers back to back, and 10 at once (the last two queue faster than the sender
// delivers, so they measure the backlog); (3) the same time for buyers paying after one access e-mail the
// SMTP server never answers. Exits non-zero when a message is missing. The SMTP server (smtp-server, counting messages and stamping each acceptance, no
// parsing) runs as its own process, like a mail provider, so it does not share the sender's thread.
// Data on the site's disk with the default SQLITE_SYNCHRONOUS=FULL. Nothing leaves 127.0.0.1.
// Run: ./node_modules/.bin/bun run bench/mail.ts [messages] [payments] [scenarios, e.g. 1,2,3 (all) or 3]

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { render, toPlainText } from "@react-email/render";
import { count, inArray } from "drizzle-orm";
import { createElement } from "react";
import { SMTPServer } from "smtp-server";
import { type Db, openDb } from "../db/client";
import { mailOutbox, orders } from "../db/schema";
import { createWriter } from "../db/writer";
import type { Config } from "../server/platform/config";
import { createLogger } from "../server/platform/log";
import { deliverPaidOrder, deliverySettings } from "../server/shop/checkout/delivery";
import { composeMail, mailContext } from "../server/shop/mail/compose";
import { type OutboxRow, readPayload, recordOutcome } from "../server/shop/mail/outbox";
import { createMailSender } from "../server/shop/mail/sender";
import { AccessMail } from "../server/shop/mail/templates/messages";
import {
  createFileTransport,
  createSmtpTransport,
  type MailTransport,
  type OutgoingMail,
  SMTP_TIMEOUTS,
} from "../server/shop/mail/transport";
import { LOCALES } from "../shared/locales";
import { pathFor } from "../shared/routes";
import { createTestSite } from "../test/support/app";
import { testConfig } from "../test/support/config";
import { testContent } from "../test/support/content";

/** Wall-clock milliseconds with sub-millisecond precision, comparable across the two processes. */
const wallMs = () => performance.timeOrigin + performance.now();

type Accepted = { to: string[]; at: number };
type Sink = { url: string; accepted: Accepted[]; waitFor(total: number, timeoutMs: number): Promise<boolean>; stop(): void };

/** `stall`: a recipient whose message the sink reads whole and never answers (a server stalling after DATA). */
async function startSink(stall = ""): Promise<Sink> {
  const child = Bun.spawn([process.execPath, "run", import.meta.path], {
    env: { ...process.env, MAIL_BENCH_SINK: "1", MAIL_BENCH_STALL: stall },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const accepted: Accepted[] = [];
  let port = 0;
  let resolvePort: () => void = () => {};
  const listening = new Promise<void>((resolve) => (resolvePort = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    const reader = child.stdout.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as { port?: number } & Partial<Accepted>;
        buffered = buffered.slice(newline + 1);
        if (line.port !== undefined) {
          port = line.port;
          resolvePort();
        } else if (line.to !== undefined && line.at !== undefined) accepted.push({ to: line.to, at: line.at });
      }
    }
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    listening,
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("SMTP sink did not start")), 30_000))),
  ]);
  clearTimeout(timer);
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    async waitFor(total, timeoutMs) {
      const until = performance.now() + timeoutMs;
      while (accepted.length < total) {
        if (performance.now() > until) return false;
        await Bun.sleep(5);
      }
      return true;
    },
    stop() {
      void child.stdin.end();
      child.kill();
    },
  };
}

// ---------------------------------------------------------------------------------------------

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const quiet = () => createLogger("info", () => {});

/** A fresh data folder with `n` paid orders, each with its licence and its access e-mail queued (one transaction). */
function seedPaidOrders(dir: string, n: number): { db: Db; config: Config } {
  const config = testConfig({ PUBLIC_BASE_URL: "https://shop.example" }, dir);
  const db = openDb(config.dbPath, { synchronous: config.sqliteSynchronous });
  const settings = deliverySettings(config);
  const now = new Date();
  db.transaction(
    (tx) => {
      for (let i = 0; i < n; i++) {
        const [order] = tx
          .insert(orders)
          .values({
            provider: "test",
            checkoutId: `cs_bench_${i}`,
            status: "paid",
            amount: 2999,
            currency: "EUR",
            locale: LOCALES[i % LOCALES.length]!,
            customerEmail: `buyer${i}@example.com`,
            firstName: "Camille",
            city: "Lyon",
            createdAt: now,
            updatedAt: now,
            paidAt: now,
          })
          .returning({ id: orders.id })
          .all();
        // The same call as the paid transition: licence key + access e-mail (no OWNER_EMAIL here).
        deliverPaidOrder(tx, order!.id, settings, now);
      }
    },
    { behavior: "immediate" },
  );
  return { db, config };
}

const statusCounts = (db: Db) =>
  Object.fromEntries(
    db
      .select({ status: mailOutbox.status, n: count() })
      .from(mailOutbox)
      .groupBy(mailOutbox.status)
      .all()
      .map((r) => [r.status, r.n]),
  );

type Throughput = { label: string; perSecond: number; seconds: number; cpuMs: number; ok: boolean; detail: string };

async function main() {
  const root = join(import.meta.dir, "..");
  const MESSAGES = Number(process.argv[2] ?? 2000);
  const PAYMENTS = Number(process.argv[3] ?? 200);
  const scenarios = new Set((process.argv[4] ?? "1,2,3").split(","));
  const BUYERS = 10;
  // On the same disk as the site's data (not a tmpfs), or the commit per message would cost nothing.
  const benchRoot = join(root, "data");
  mkdirSync(benchRoot, { recursive: true });
  // Not os.cpus(): it takes half a second here (it samples every core's times too).
  const cpu = (() => {
    try {
      return /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? "unknown CPU";
    } catch {
      return "unknown CPU";
    }
  })();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  console.log(
    `Mail outbox bench: ${availableParallelism()} cores (${cpu}), Bun ${Bun.version}, ${process.platform}/${process.arch}, load average ${load()}, data on ${benchRoot}, SQLITE_SYNCHRONOUS=FULL`,
  );

  const sink = await startSink();
  let failed = false;
  const dirs: string[] = [];
  const newDir = (what: string) => {
    const dir = mkdtempSync(join(benchRoot, `bench-mail-${what}-`));
    dirs.push(dir);
    return dir;
  };

  try {
    if (scenarios.has("1")) {
      // ---- 1. Throughput: the outbox drained by sender.deliverDue() ---------------------------------
      console.log(
        `\n1. Throughput: ${MESSAGES} access e-mails (fr/en/it/es) queued in one transaction, then sender.deliverDue() (4 at a time, one per SMTP connection)`,
      );
      const transports: {
        label: string;
        make: (dir: string) => MailTransport;
        check: (dir: string, before: number) => Promise<string | null>;
      }[] = [
        {
          label: "SMTP to loopback smtp-server",
          make: () => createSmtpTransport(sink.url),
          check: async (_dir, before) => {
            await sink.waitFor(before + MESSAGES, 10_000);
            const got = sink.accepted.length - before;
            return got === MESSAGES ? null : `sink accepted ${got}`;
          },
        },
        {
          label: ".eml files (file transport)",
          make: (dir) => createFileTransport(join(dir, "mail")),
          check: async (dir) => {
            const files = readdirSync(join(dir, "mail")).filter((f) => f.endsWith(".eml")).length;
            return files === MESSAGES ? null : `${files} .eml files`;
          },
        },
        {
          // What the sender costs without any delivery: claim, compose (React Email), mark sent.
          label: "no delivery (transport that does nothing)",
          make: () => ({ describe: "nothing", send: async () => {}, discard: () => ({ deleted: 0, failed: [] }), close: () => {} }),
          check: async () => null,
        },
      ];
      const results: Throughput[] = [];
      for (const t of transports) {
        const dir = newDir("throughput");
        const { db, config } = seedPaidOrders(dir, MESSAGES);
        const sender = createMailSender({
          db,
          write: createWriter(db, { waitMs: config.dbBusyWaitMs }),
          config,
          log: quiet(),
          transport: t.make(dir),
          now: () => new Date(),
          content: testContent(config),
        });
        const before = sink.accepted.length;
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const handled = await sender.deliverDue();
        const seconds = (performance.now() - started) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000 / MESSAGES;
        await sender.stop();
        const statuses = statusCounts(db);
        const problem = await t.check(dir, before);
        const ok = handled === MESSAGES && statuses.sent === MESSAGES && problem === null;
        failed ||= !ok;
        results.push({
          label: t.label,
          perSecond: MESSAGES / seconds,
          seconds,
          cpuMs,
          ok,
          detail: `handled ${handled}, rows ${JSON.stringify(statuses)}${problem === null ? "" : `, ${problem}`}`,
        });
        db.$client.close();
      }
      const width = Math.max(...results.map((r) => r.label.length));
      for (const r of results)
        console.log(
          `  ${r.label.padEnd(width)}  ${r.perSecond.toFixed(0).padStart(5)} messages/s  (${r.seconds.toFixed(2)} s, sender's CPU ${ms(r.cpuMs)} ms/message)  ${r.ok ? "OK" : "MISMATCH"}: ${r.detail}`,
        );
      const smtp = results[0]!;
      console.log(
        `  check: every row sent and the SMTP server accepted exactly ${MESSAGES} messages -> ${smtp.ok ? "OK" : "MISMATCH"}; .eml files ${results[1]!.ok ? "OK" : "MISMATCH"}`,
      );

      // ---- Where the time of one message goes ----------------------------------------------------------
      console.log(`\n   Where the time of one message goes (one at a time unless said, 400 messages):`);
      {
        const dir = newDir("parts");
        const { db, config } = seedPaidOrders(dir, 400);
        const rows = db.select().from(mailOutbox).all();
        // Warm-up: the first renders compile the templates' code paths.
        for (const row of rows.slice(0, 20)) await composeMail(row, config, testContent(config).current());

        let t0 = performance.now();
        const composed: OutgoingMail[] = [];
        for (const row of rows) composed.push((await composeMail(row, config, testContent(config).current()))!);
        const composeMs = (performance.now() - t0) / rows.length;

        // composeMail renders the template twice (HTML, then again for the plain-text part): each alone.
        // The per-message context (site facts, translator, Intl formatters), built anew for every message.
        t0 = performance.now();
        for (const row of rows) mailContext(config, testContent(config).current(), LOCALES.find((l) => l === row.locale) ?? "fr");
        const contextMs = (performance.now() - t0) / rows.length;
        const elements = rows.map((row) => accessElement(row, config));
        t0 = performance.now();
        for (const element of elements) await render(element);
        const htmlMs = (performance.now() - t0) / rows.length;
        t0 = performance.now();
        for (const element of elements) await render(element, { plainText: true });
        const textMs = (performance.now() - t0) / rows.length;
        const htmls = composed.map((m) => m.html);
        t0 = performance.now();
        for (const html of htmls) toPlainText(html);
        const convertMs = (performance.now() - t0) / rows.length;

        // The commit per message: marking it sent is its own transaction, so one fsync each with FULL.
        const write = createWriter(db, { waitMs: config.dbBusyWaitMs });
        t0 = performance.now();
        for (const row of rows) await recordOutcome(write, row.id, { status: "sent", at: new Date() });
        const markMs = (performance.now() - t0) / rows.length;
        // For comparison only (not what the sender does): the marks of a batch of 20 in one transaction.
        t0 = performance.now();
        for (let i = 0; i < rows.length; i += 20) {
          const ids = rows.slice(i, i + 20).map((row) => row.id);
          await write((tx) =>
            tx
              .update(mailOutbox)
              .set({ status: "sent", leaseOwner: null, sentAt: new Date(), lastError: null })
              .where(inArray(mailOutbox.id, ids))
              .run(),
          );
        }
        const markBatchMs = (performance.now() - t0) / rows.length;

        // SMTP alone: the same composed messages, 20 at a time like the sender's batches, pool of 3.
        const transport = createSmtpTransport(sink.url);
        await transport.send(composed[0]!); // opens a connection
        const before = sink.accepted.length;
        let cpu0 = process.cpuUsage();
        t0 = performance.now();
        for (let i = 0; i < composed.length; i += 20) await Promise.all(composed.slice(i, i + 20).map((m) => transport.send(m)));
        const smtpSeconds = (performance.now() - t0) / 1000;
        const smtpCpu = process.cpuUsage(cpu0);
        transport.close();
        const sent = sink.accepted.length - before;

        // The .eml file alone (nodemailer's composition + write + rename), one at a time.
        const files = createFileTransport(join(dir, "mail"));
        cpu0 = process.cpuUsage();
        t0 = performance.now();
        for (const m of composed) await files.send(m);
        const fileMs = (performance.now() - t0) / composed.length;
        const fileCpu = process.cpuUsage(cpu0);
        const cpuPer = (c: NodeJS.CpuUsage, n: number) => ms((c.user + c.system) / 1000 / n);
        files.close();
        db.$client.close();

        const bytes = composed.reduce((n, m) => n + m.html.length + m.text.length, 0) / composed.length;
        console.log(
          `  composeMail (React Email HTML + plain text)   ${ms(composeMs)} ms/message -> at most ${(1000 / composeMs).toFixed(0)} messages/s on one thread (html ${(bytes / 1024).toFixed(1)} KB + text, avg)`,
        );
        console.log(
          `    mailContext() alone ${ms(contextMs)} ms; render(html) alone ${ms(htmlMs)} ms; render(plainText) alone ${ms(textMs)} ms, of which toPlainText(html) (html-to-text) ${ms(convertMs)} ms`,
        );
        console.log(
          `  mark sent (own commit = one WAL fsync, FULL)  ${ms(markMs)} ms/message, blocking the thread (bun:sqlite is synchronous)`,
        );
        console.log(`    for comparison, 20 marks in one transaction ${ms(markBatchMs)} ms/message (not what the sender does)`);
        console.log(
          `  SMTP alone, pre-composed, 20 in flight        ${(sent / smtpSeconds).toFixed(0)} messages/s (${ms((smtpSeconds * 1000) / sent)} ms/message, CPU here ${cpuPer(smtpCpu, sent)} ms/message, ${sent} accepted)`,
        );
        console.log(
          `  .eml file alone (nodemailer build + write)    ${ms(fileMs)} ms/message (CPU ${cpuPer(fileCpu, composed.length)} ms)`,
        );
      }
    }
    if (scenarios.has("2")) {
      // ---- 2. Latency: payment committed -> access e-mail accepted by the SMTP server ------------------
      console.log(
        `\n2. Latency from payment to SMTP acceptance: test checkout through app.handle (POST /api/payment, POST the card form), OWNER_EMAIL set (2 e-mails per payment), SMTP to the loopback sink`,
      );
      const site = await createTestSite({
        env: { TRUST_PROXY: "true", OWNER_EMAIL: "owner@shop.example", PUBLIC_BASE_URL: "https://shop.example" },
        transport: createSmtpTransport(sink.url),
        log: quiet(),
      });
      try {
        const FORM = { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" };
        let ipCounter = 0;
        /** One buyer: payment form, card form; resolves with the wall time the card POST returned. */
        const buy = async (email: string): Promise<{ committed: number; requestMs: number }> => {
          const n = ++ipCounter; // each buyer from its own address: the payment rate limit is per address
          const headers = { ...FORM, "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
          const start = await site.request("/api/payment", { method: "POST", headers, body: "locale=fr&acceptTerms=yes" });
          const cardPage = start.headers.get("location") ?? "";
          if (start.status !== 303 || !cardPage.startsWith("/checkout/test/"))
            throw new Error(`POST /api/payment: ${start.status} ${cardPage}`);
          const body = new URLSearchParams({
            email,
            name: "Camille Durand",
            city: "Lyon",
            card: "4242 4242 4242 4242",
            expiry: "12/34",
            cvc: "123",
            terms: "yes",
          }).toString();
          const t0 = wallMs();
          const paid = await site.request(cardPage, { method: "POST", headers, body });
          const committed = wallMs();
          await paid.arrayBuffer();
          if (paid.status !== 303) throw new Error(`POST ${cardPage}: ${paid.status}`);
          return { committed, requestMs: committed - t0 };
        };

        /** Runs `payments` buyers with `concurrency` at once; latency of each buyer's own access e-mail. */
        const run = async (name: string, payments: number, concurrency: number, waitEach = false) => {
          const before = sink.accepted.length;
          const committed = new Map<string, number>();
          const requestMs: number[] = [];
          let next = 0;
          const started = performance.now();
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (next < payments) {
                const email = `${name}-${next++}@example.com`;
                const r = await buy(email);
                committed.set(email, r.committed);
                requestMs.push(r.requestMs);
                // Idle system: the next buyer pays once this one's two e-mails were accepted.
                if (waitEach) await sink.waitFor(before + 2 * requestMs.length, 10_000);
              }
            }),
          );
          const paySeconds = (performance.now() - started) / 1000;
          const complete = await sink.waitFor(before + 2 * payments, 60_000);
          const drainSeconds = (performance.now() - started) / 1000;
          const latencies: number[] = [];
          let negative = 0;
          for (const a of sink.accepted.slice(before)) {
            for (const to of a.to) {
              const at = committed.get(to);
              if (at === undefined) continue;
              committed.delete(to); // the first acceptance for that buyer
              if (a.at < at) negative++;
              latencies.push(a.at - at);
            }
          }
          latencies.sort((a, b) => a - b);
          requestMs.sort((a, b) => a - b);
          const missing = committed.size;
          return { name, payments, concurrency, latencies, requestMs, paySeconds, drainSeconds, missing, negative, complete };
        };

        await run("warmup", 10, 1);
        const rows = [
          { label: `one at a time, next after the e-mails (${PAYMENTS})`, r: await run("idle", PAYMENTS, 1, true) },
          { label: `one buyer after the other (${PAYMENTS})`, r: await run("seq", PAYMENTS, 1) },
          { label: `${BUYERS} concurrent buyers (${PAYMENTS})`, r: await run("conc", PAYMENTS, BUYERS) },
        ];
        const w = Math.max(...rows.map((x) => x.label.length));
        console.log(
          `  ${"".padEnd(w)}  ${"p50".padStart(7)} ${"p90".padStart(7)} ${"p99".padStart(7)} ${"max".padStart(7)}  ms, card POST returned -> access e-mail accepted`,
        );
        for (const { label, r } of rows) {
          const l = r.latencies;
          console.log(
            `  ${label.padEnd(w)}  ${ms(pct(l, 50)).padStart(7)} ${ms(pct(l, 90)).padStart(7)} ${ms(pct(l, 99)).padStart(7)} ${ms(l.at(-1) ?? NaN).padStart(7)}`,
          );
        }
        for (const { label, r } of rows) {
          console.log(
            `  ${label.padEnd(w)}  payments at ${(r.payments / r.paySeconds).toFixed(0)}/s (card POST p50 ${ms(pct(r.requestMs, 50))} ms, p99 ${ms(pct(r.requestMs, 99))} ms); all ${2 * r.payments} e-mails accepted ${r.drainSeconds.toFixed(2)} s after the first payment`,
          );
          if (!r.complete || r.missing > 0) {
            failed = true;
            console.log(`    MISMATCH: ${r.missing} buyers without an access e-mail`);
          }
          if (r.negative > 0) console.log(`    note: ${r.negative} e-mails accepted before their card POST had returned`);
        }
        await site.mailer?.deliverDue(); // the last marks: the sink answers 250 before the row is updated
        const statuses = statusCounts(site.db);
        const expected = 2 * (10 + 3 * PAYMENTS);
        const ok = statuses.sent === expected && Object.keys(statuses).length === 1;
        failed ||= !ok;
        console.log(
          `  check: every buyer got an access e-mail, outbox ${JSON.stringify(statuses)} of ${expected} -> ${ok ? "OK" : "MISMATCH"}`,
        );
      } finally {
        await site.close();
      }
    }
    if (scenarios.has("3")) {
      // ---- 3. Latency with one message the mail server never answers ------------------------------
      console.log(
        `\n3. Latency from payment to SMTP acceptance with one access e-mail stalled: the server reads it whole and never answers (the sender waits its socket timeout, ${SMTP_TIMEOUTS.socketTimeout / 1000} s), then ${PAYMENTS} buyers, each paying once the previous one's e-mail was accepted`,
      );
      const stalling = await startSink("stalled@example.com");
      const stalledSite = await createTestSite({
        env: { TRUST_PROXY: "true", PUBLIC_BASE_URL: "https://shop.example" },
        transport: createSmtpTransport(stalling.url),
        log: quiet(),
      });
      try {
        const FORM = { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" };
        let n = 0;
        const pay = async (email: string): Promise<number> => {
          n++;
          const headers = { ...FORM, "x-forwarded-for": `10.200.${(n >> 8) & 255}.${n & 255}` };
          const start = await stalledSite.request("/api/payment", { method: "POST", headers, body: "locale=fr&acceptTerms=yes" });
          const cardPage = start.headers.get("location") ?? "";
          const body = new URLSearchParams({
            email,
            name: "Camille",
            city: "Lyon",
            card: "4242 4242 4242 4242",
            expiry: "12/34",
            cvc: "123",
          });
          const paid = await stalledSite.request(cardPage, { method: "POST", headers, body: body.toString() });
          const committed = wallMs();
          if (paid.status !== 303) throw new Error(`POST ${cardPage}: ${paid.status}`);
          return committed;
        };
        await pay("stalled@example.com");
        const committed = new Map<string, number>();
        const started = performance.now();
        for (let i = 0; i < PAYMENTS; i++) {
          const email = `behind-${i}@example.com`;
          committed.set(email, await pay(email));
          // One buyer at a time, the next once this one's e-mail is accepted: the figure is the wait
          // the stalled message adds, not a backlog's.
          await stalling.waitFor(i + 1, 60_000);
        }
        const complete = await stalling.waitFor(PAYMENTS, 60_000);
        const seconds = (performance.now() - started) / 1000;
        const latencies: number[] = [];
        for (const a of stalling.accepted)
          for (const to of a.to) {
            const at = committed.get(to);
            if (at !== undefined) latencies.push(a.at - at);
          }
        latencies.sort((a, b) => a - b);
        const stalledRow = stalledSite.db.select().from(mailOutbox).all()[0];
        const ok = complete && latencies.length === PAYMENTS && stalledRow?.status === "sending";
        failed ||= !ok;
        console.log(
          `  ${PAYMENTS} access e-mails behind the stalled one: p50 ${ms(pct(latencies, 50))} ms, p90 ${ms(pct(latencies, 90))} ms, p99 ${ms(pct(latencies, 99))} ms, max ${ms(latencies.at(-1) ?? NaN)} ms (card POST returned -> accepted); all accepted ${seconds.toFixed(2)} s after the first payment`,
        );
        console.log(
          `  check: ${latencies.length}/${PAYMENTS} accepted while the stalled message was still "${stalledRow?.status}" -> ${ok ? "OK" : "MISMATCH"}`,
        );
      } finally {
        await stalledSite.close();
        stalling.stop();
      }
    }
  } finally {
    sink.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nload average at the end: ${load()} (other processes on these ${availableParallelism()} cores skew every figure above)`);
  if (failed) process.exitCode = 1;
}

/** The access e-mail's React element for a row, built as composeMail builds it. */
function accessElement(row: OutboxRow, config: Config) {
  const locale = LOCALES.find((l) => l === row.locale) ?? "fr";
  const c = mailContext(config, testContent(config).current(), locale);
  const p = readPayload("access", row.payload)!;
  return createElement(AccessMail, { c, p, guideUrl: c.link(pathFor("guide", locale)), papers: null });
}

// ---------------------------------------------------------------------------------------------
// The SMTP sink: this same file started again with MAIL_BENCH_SINK=1. One JSON line per event on
// stdout: {"port"} once listening, then {"to","at"} as each message is accepted (250 after DATA).
if (process.env.MAIL_BENCH_SINK === "1") {
  const stalled = process.env.MAIL_BENCH_STALL ?? "";
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        // Read whole, never answered: the sender gives up at its socket timeout.
        if (stalled !== "" && session.envelope.rcptTo.some((r) => r.address === stalled)) return;
        const at = wallMs();
        process.stdout.write(`${JSON.stringify({ to: session.envelope.rcptTo.map((r) => r.address), at })}\n`);
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 })}\n`);
  });
  // The parent closes our stdin when it is done (or dies): leave then, whatever is still open.
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  await main();
}
