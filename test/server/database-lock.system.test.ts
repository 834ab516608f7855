import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { runCommand } from "../../server/owner/cli";
import { checkoutSession, event, signed } from "../checkout/stripe-events";
import { type RunningServer, startServer } from "../e2e/harness";
import { createTestSite, type TestSite } from "../support/app";
import { type HeldLock, holdDbLock } from "../support/db-lock";
import { endServer } from "../support/end-server";
import { logEntries } from "../support/logs";
import { payWithTestCard } from "../support/purchase";
import { until } from "../support/wait";

// The owner (or another program) holds the database's write lock, as `BEGIN
// IMMEDIATE` in the sqlite3 CLI does. Pages keep answering while it is held; a write waits for it
// without holding up anything else, then either goes through once the lock is let go, or answers
// 503 with Retry-After and writes nothing; never a 500. The lock is held by another process.

/** How long the server below lets a write wait (DB_BUSY_WAIT_MS): room for pages to answer first on a loaded machine. */
const WAIT_MS = 4000;

let server: RunningServer;
beforeAll(async () => {
  // WORKERS=1: a worker is not under test here (processes.system.test.ts), and costs a second of CPU.
  server = await startServer({ env: { DB_BUSY_WAIT_MS: String(WAIT_MS), WORKERS: "1" } });
});
afterAll(() => endServer(server));

let lock: HeldLock | null = null;
let site: TestSite | null = null;
afterEach(async () => {
  await lock?.release();
  lock = null;
  await site?.close();
  site = null;
});

const lockServerDb = async () => (lock = await holdDbLock(join(server.dataDir, "site.db")));
const letGo = async () => {
  await lock?.release();
  lock = null;
};

/** Reads the server's database from outside, as the owner's `sqlite3 -readonly` would (a lock does not stop it). */
function count(sql: string, ...params: string[]): number {
  const db = new Database(join(server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<{ n: number }, string[]>(sql).get(...params)?.n ?? -1;
  } finally {
    db.close();
  }
}
const leadsOf = (email: string) => count("SELECT count(*) AS n FROM email_leads WHERE email = ?", email);

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_BODY = { "content-type": "application/json" };
const post = (path: string, headers: Record<string, string>, body: string) =>
  fetch(`${server.baseUrl}${path}`, { method: "POST", headers, body, redirect: "manual" });
const postLead = (email: string) =>
  post("/api/leads", JSON_BODY, JSON.stringify({ email, source: "exit_popup", ip_hash: null, locale: "fr" }));

const cardForm = (email: string) =>
  new URLSearchParams({ email, name: "Camille Durand", city: "Lyon", card: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" }).toString();

/** A purchase through the test checkout without JavaScript; resolves with its card page. */
async function buy(email: string): Promise<string> {
  const start = await post("/api/payment", FORM, "locale=en&acceptTerms=yes");
  const cardPage = start.headers.get("location");
  if (cardPage === null) throw new Error(`no checkout: ${start.status}`);
  expect((await post(cardPage, FORM, cardForm(email))).status).toBe(303);
  return cardPage;
}

/** Resolves `promise`, remembering whether it has settled yet. */
function watch<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

function expectBusy(response: Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
}

const errorLines = () => logEntries(server.output).filter((e) => e.level === "error" || e.status === 500);

test("while another process holds the write lock, pages and /healthz answer while a lead waits for it; the lead is stored once the lock is let go", async () => {
  // The pages made first, as a production server makes them at start (this one makes each at its
  // first request): on a loaded machine a first render could outlast the lead's wait.
  for (const path of ["/", "/en/paiement"]) expect((await fetch(`${server.baseUrl}${path}`)).status).toBe(200);
  await lockServerDb();
  const lead = watch(postLead("waits@example.com"));
  // Time for the lead to reach its write and start waiting. SQLite's own busy wait would hold the
  // whole server from here on, and the pages below would only answer after the lead did.
  await Bun.sleep(300);
  const health = await fetch(`${server.baseUrl}/healthz`);
  const home = await fetch(`${server.baseUrl}/`);
  const english = await fetch(`${server.baseUrl}/en/paiement`);
  expect([health.status, home.status, english.status]).toEqual([200, 200, 200]);
  expect(await health.json()).toMatchObject({ ok: true });
  expect(await home.text()).toContain('<html lang="fr"');
  expect(lead.settled).toBe(false);

  await letGo();
  const answer = await lead.promise;
  expect(answer.status).toBe(201);
  expect(leadsOf("waits@example.com")).toBe(1);
  expect(count("SELECT count(*) AS n FROM mail_outbox WHERE recipient = ?", "waits@example.com")).toBe(1);
  expect(errorLines()).toEqual([]);
});

// Every write that outlives the server's wait (WAIT_MS) during one lock, side by side as visitors'
// would be: one wait paid for all of them rather than one per kind of write.
test("while the lock outlives their wait, every write answers 503 with Retry-After and changes nothing (lead, test payment, checkout, unsubscribe, chat, licence activation); each works once it is gone", async () => {
  // What the writes below need, made before the lock: a lead to unsubscribe, a licence to
  // activate, and an open test checkout to pay.
  expect((await postLead("leaving@example.com")).status).toBe(201);
  const ownerSession = (await buy("app-owner@example.com")).split("/").at(-1)!;
  const db = new Database(join(server.dataDir, "site.db"), { readonly: true });
  const token = db.query<{ t: string }, []>("SELECT unsubscribe_token AS t FROM email_leads WHERE email = 'leaving@example.com'").get()!.t;
  const key = db
    .query<{ k: string }, [string]>("SELECT l.key AS k FROM licenses l JOIN orders o ON o.id = l.order_id WHERE o.checkout_id = ?")
    .get(ownerSession)?.k;
  db.close();
  expect(key).toBeString();
  const chat = () =>
    post("/api/chat", JSON_BODY, JSON.stringify({ messages: [{ role: "user", content: "Quel est le prix ?" }], locale: "fr" }));
  const activate = () => post("/api/licenses/activate", JSON_BODY, JSON.stringify({ key, instanceName: "Salon TV" }));
  const start = await post("/api/payment", FORM, "locale=en&acceptTerms=yes");
  const cardPage = start.headers.get("location")!;
  expect(cardPage).toStartWith("/checkout/test/");
  const sessionId = cardPage.split("/").at(-1)!;
  const card = cardForm("locked-buyer@example.com");

  await lockServerDb();
  // The card page itself is only read: it answers while the lock is held.
  expect((await fetch(`${server.baseUrl}${cardPage}`)).status).toBe(200);
  const [json, form, refused, another, link, chatAnswer, activation] = await Promise.all([
    postLead("too-late@example.com"),
    post("/api/leads", FORM, new URLSearchParams({ email: "too-late-form@example.com", source: "exit_popup", locale: "en" }).toString()),
    // The card form and (needing its pending order written) the start of another checkout, JSON for the script.
    post(cardPage, FORM, card),
    post("/api/payment", JSON_BODY, JSON.stringify({ locale: "en", acceptTerms: true })),
    fetch(`${server.baseUrl}/unsubscribe?token=${token}`),
    chat(),
    activate(),
  ]);
  for (const response of [json, form, refused, another, link, chatAnswer, activation]) expectBusy(response);
  // A lead: JSON for the script, or the error page in the form's language.
  expect((await json.json()).error).toContain("try again");
  const page = await form.text();
  expect(page).toContain('<html lang="en"');
  expect(page).toContain("Please try again in a moment");
  expect(page).toContain("nothing was changed");
  // The test payment is never a 500: the card page says to retry, with what was typed kept.
  const cardAnswer = await refused.text();
  expect(cardAnswer).toContain("Your payment could not be recorded just now, and nothing was charged.");
  expect(cardAnswer).toContain('value="locked-buyer@example.com"');
  // The unsubscribe link is opened in a browser: the site's page, not JSON.
  expect(await link.text()).toContain("Réessayez dans un instant");
  expect((await chatAnswer.json()).error).toContain("try again");
  await letGo();

  // Nothing stored, nothing half-written: no lead, the session still open, no order paid, no key,
  // no e-mail, nobody unsubscribed, no chat message, no activation.
  expect(leadsOf("too-late@example.com")).toBe(0);
  expect(leadsOf("too-late-form@example.com")).toBe(0);
  expect(count("SELECT count(*) AS n FROM mail_outbox WHERE recipient LIKE 'too-late%'")).toBe(0);
  expect(count("SELECT count(*) AS n FROM test_checkout_sessions WHERE id = ? AND status = 'open'", sessionId)).toBe(1);
  expect(count("SELECT count(*) AS n FROM orders WHERE checkout_id = ? AND status = 'pending'", sessionId)).toBe(1);
  expect(count("SELECT count(*) AS n FROM licenses l JOIN orders o ON o.id = l.order_id WHERE o.checkout_id = ?", sessionId)).toBe(0);
  expect(count("SELECT count(*) AS n FROM mail_outbox WHERE recipient = ?", "locked-buyer@example.com")).toBe(0);
  expect(count("SELECT count(*) AS n FROM email_leads WHERE email = 'leaving@example.com' AND unsubscribed_at IS NOT NULL")).toBe(0);
  expect(count("SELECT count(*) AS n FROM chat_messages")).toBe(0);
  expect(count("SELECT count(*) AS n FROM license_activations")).toBe(0);
  // Logged as a warning: the database was busy, the site did nothing wrong.
  expect(errorLines()).toEqual([]);
  // (The server's log comes through its output, a moment after its answer.)
  await until("the busy warning in the log", () =>
    logEntries(server.output).some((e) => e.level === "warn" && String(e.msg).includes("database busy")),
  );

  // Tried again afterwards, each works.
  expect((await postLead("too-late@example.com")).status).toBe(201);
  expect((await fetch(`${server.baseUrl}/unsubscribe?token=${token}`)).status).toBe(200);
  expect((await chat()).status).toBe(200);
  expect((await activate()).status).toBe(201);

  // Paying again while the lock is held, and it is let go within the wait: paid.
  await lockServerDb();
  const paying = watch(post(cardPage, FORM, card));
  // Time for the payment to reach its write (as in the first test); it must not have settled meanwhile.
  await Bun.sleep(300);
  expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  expect(paying.settled).toBe(false);
  await letGo();
  const paid = await paying.promise;
  expect(paid.status).toBe(303);
  expect(paid.headers.get("location")).toBe(`/en/payment-success?session_id=${sessionId}`);
  expect(count("SELECT count(*) AS n FROM orders WHERE checkout_id = ? AND status = 'paid'", sessionId)).toBe(1);
  expect(count("SELECT count(*) AS n FROM mail_outbox WHERE recipient = ? AND kind = 'access'", "locked-buyer@example.com")).toBe(1);
  expect(errorLines()).toEqual([]);
});

test("a Stripe webhook during the lock answers 503 (Stripe retries) and the retried delivery is applied", async () => {
  const secret = "whsec_database_lock";
  site = await createTestSite({
    env: {
      STRIPE_SECRET_KEY: "sk_test_lock",
      STRIPE_WEBHOOK_SECRET: secret,
      PUBLIC_BASE_URL: "https://shop.example",
      DB_BUSY_WAIT_MS: "500",
    },
  });
  const payload = JSON.stringify(
    event("checkout.session.completed", checkoutSession({ id: "cs_during_lock", email: "stripe-buyer@example.com" })),
  );
  const deliver = async () =>
    site!.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await signed(payload, secret) },
      body: payload,
    });

  lock = await holdDbLock(site.config.dbPath);
  const refused = await deliver();
  expectBusy(refused);
  await letGo();
  expect(site.db.$client.query("SELECT count(*) AS n FROM orders").get()).toEqual({ n: 0 });
  expect(site.db.$client.query("SELECT count(*) AS n FROM processed_events").get()).toEqual({ n: 0 });

  const retried = await deliver();
  expect(retried.status).toBe(200);
  expect(await retried.json()).toEqual({ received: true, duplicate: false });
  expect(site.db.$client.query("SELECT status FROM orders WHERE checkout_id = 'cs_during_lock'").get()).toEqual({ status: "paid" });
  expect(site.db.$client.query("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'access'").get()).toEqual({ n: 1 });
});

test("an owner command waits for the lock with a message, and gives up with a clear one (no stack trace), changing nothing", async () => {
  site = await createTestSite();
  await payWithTestCard(site, { locale: "fr", email: "cli-buyer@example.com" });
  const key = site.db.$client.query<{ key: string }, []>("SELECT key FROM licenses").get()!.key;
  const run = async (busyWaitMs: number) => {
    const lines: string[] = [];
    const code = await runCommand(
      ["licenses", "disable", key],
      site!.config,
      (l) => lines.push(l),
      (l) => lines.push(l),
      { busyWaitMs },
    );
    return { code, text: lines.join("\n") };
  };

  lock = await holdDbLock(site.config.dbPath);
  const gaveUp = await run(400);
  expect(gaveUp.code).toBe(1);
  expect(gaveUp.text).toContain("is locked by another program");
  expect(gaveUp.text).toContain("Nothing was changed");
  expect(gaveUp.text).not.toContain("    at ");
  expect(site.db.$client.query("SELECT status FROM licenses").get()).toEqual({ status: "active" });

  const waiting = run(20_000);
  // Time for the command to reach its write and start its wait; it must not end meanwhile.
  await Bun.sleep(300);
  await letGo();
  const done = await waiting;
  expect(done.code).toBe(0);
  expect(done.text).toContain("waiting up to 20 s");
  expect(done.text).toContain(`${key} disabled.`);
  expect(site.db.$client.query("SELECT status FROM licenses").get()).toEqual({ status: "disabled" });
});

test("the mail sender under a lock: it never crashes, and a message sent while the lock is held is recorded as sent once it goes, not sent twice", async () => {
  const sent: string[] = [];
  let holder: Promise<HeldLock> | null = null;
  site = await createTestSite({
    env: { DB_BUSY_WAIT_MS: "300" },
    transport: {
      describe: "lock-taking transport",
      // The owner takes the lock while the mail server accepts the message; it outlasts the
      // site's wait (300 ms) but not the message's lease.
      async send(mail) {
        holder = holdDbLock(site!.config.dbPath);
        lock = await holder;
        sent.push(mail.to);
        setTimeout(() => void letGo(), 1500);
      },
      discard: () => ({ deleted: 0, failed: [] }),
      close() {},
    },
  });
  await site.mailer!.stop();
  await site.request("/api/leads", {
    method: "POST",
    headers: JSON_BODY,
    body: JSON.stringify({ email: "demo@example.com", source: "exit_popup", ip_hash: null, locale: "fr" }),
  });

  expect(await site.mailer!.deliverDue()).toBe(1);
  expect(holder).not.toBeNull();
  expect(sent).toEqual(["demo@example.com"]);
  expect(site.db.$client.query("SELECT status, attempts FROM mail_outbox").get()).toEqual({ status: "sent", attempts: 1 });

  // With the lock held past the wait, a round of the sender ends quietly and leaves the mail due.
  await site.request("/api/leads", {
    method: "POST",
    headers: JSON_BODY,
    body: JSON.stringify({ email: "later@example.com", source: "exit_popup", ip_hash: null, locale: "fr" }),
  });
  lock = await holdDbLock(site.config.dbPath);
  expect(await site.mailer!.deliverDue()).toBe(0);
  await letGo();
  expect(site.db.$client.query("SELECT status FROM mail_outbox WHERE recipient = 'later@example.com'").get()).toEqual({
    status: "pending",
  });
  expect(
    logEntries(site.logs)
      .filter((e) => e.msg === "mail waits for the database")
      .map((e) => e.level),
  ).toEqual(["warn"]);
});
