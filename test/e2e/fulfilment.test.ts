import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { mailsTo, startSmtp, type TestSmtp } from "../support/smtp";
import { until } from "../support/wait";
import { type RunningServer, startServer, watchConsole } from "./harness";
import { useBrowser } from "./shared-browser";

// The promise of every page, kept end to end: the real server process, a real SMTP server on
// loopback, a real browser paying with 4242 on the test checkout. Then the server is killed with
// SIGKILL between the payment and the e-mail, and the e-mail still arrives exactly once.

const OWNER = "owner@shop.example";
let smtp: TestSmtp;
let server: RunningServer;
const shared = useBrowser();

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url, OWNER_EMAIL: OWNER } });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

function query<T>(dataDir: string, sql: string): T[] {
  const db = new Database(join(dataDir, "site.db"), { readonly: true });
  try {
    return db.query<T, []>(sql).all();
  } finally {
    db.close();
  }
}
/** E-mails still to be sent or being sent. */
const unsettledMail = (dataDir: string) =>
  query<{ n: number }>(dataDir, "SELECT count(*) AS n FROM mail_outbox WHERE status IN ('pending', 'sending')")[0]!.n;
const keyOfLatestOrder = (dataDir: string) =>
  query<{ key: string; email: string }>(
    dataDir,
    "SELECT l.key, o.customer_email AS email FROM licenses l JOIN orders o ON o.id = l.order_id ORDER BY o.id DESC LIMIT 1",
  )[0]!;

async function payWithCard(
  page: Page,
  path: string,
  labels: Record<"email" | "name" | "city" | "card" | "expiry" | "cvc", string>,
  buyer: string,
) {
  await page.goto(path);
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid="pay-button"]');
    return button !== null && Object.keys(button).some((k) => k.startsWith("__reactProps"));
  });
  await page.getByTestId("consent-box").check();
  await page.getByTestId("pay-button").click();
  await page.waitForURL("**/checkout/test/**");
  await page.getByLabel(labels.email).fill(buyer);
  await page.getByLabel(labels.name).fill("Camille Durand");
  await page.getByLabel(labels.city).fill("Lyon");
  await page.getByLabel(labels.card).fill("4242 4242 4242 4242");
  await page.getByLabel(labels.expiry).fill("12/34");
  await page.getByLabel(labels.cvc).fill("123");
  await page.getByTestId("pay-button").or(page.locator('form button[type="submit"]')).first().click();
  await page.waitForURL("**/payment-success?session_id=*");
}

const FR = { email: "Email", name: "Nom complet", city: "Ville", card: "Numéro de carte", expiry: "Expiration (MM/AA)", cvc: "CVC" };
const EN = { email: "E-mail", name: "Full name", city: "City", card: "Card number", expiry: "Expiry (MM/YY)", cvc: "CVC" };

for (const [locale, path, labels, subject, sentText] of [
  [
    "fr",
    "/paiement",
    FR,
    "Votre clé de licence Lifetime Stream et votre reçu",
    /Votre clé de licence et le guide d'installation (ont été envoyés à|partent vers) acheteur-fr@example\.com/,
  ],
  [
    "en",
    "/en/paiement",
    EN,
    "Your Lifetime Stream licence key and receipt",
    /Your licence key and the installation guide (were sent to|are on their way to) buyer-en@example\.com/,
  ],
] as const) {
  test(`${locale}: paying with 4242 sends exactly one access e-mail in ${locale} with the key stored for the order, and one owner notice`, async () => {
    const buyer = locale === "fr" ? "acheteur-fr@example.com" : "buyer-en@example.com";
    const ownerBefore = mailsTo(smtp, OWNER).length;
    const before = smtp.received.length;
    const context = await shared.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    const consoleLog = watchConsole(page);
    await payWithCard(page, path, labels, buyer);
    expect(await page.locator("main p").first().textContent()).toMatch(sentText);

    await smtp.waitFor(before + 2);
    // Once no e-mail is queued or being sent, none can arrive any more: the count below is final.
    await until("every queued e-mail settled", () => unsettledMail(server.dataDir) === 0);
    const access = mailsTo(smtp, buyer);
    expect(access).toHaveLength(1);
    expect(access[0]!.mail.subject).toBe(subject);
    const stored = keyOfLatestOrder(server.dataDir);
    expect(stored.email).toBe(buyer);
    expect(access[0]!.mail.text).toContain(stored.key);
    expect(mailsTo(smtp, OWNER).length - ownerBefore).toBe(1);
    expect(mailsTo(smtp, OWNER).at(-1)!.mail.text).toContain(stored.key);
    // Reloaded, the success page now knows the e-mail was accepted.
    await page.reload();
    expect(await page.locator("main p").first().textContent()).toMatch(locale === "fr" ? /ont été envoyés à/ : /were sent to/);
    expect(consoleLog.errors).toEqual([]);
    await context.close();
  });
}

/** A payment through the test checkout without a browser (a form post, as without JavaScript). */
async function payByForm(baseUrl: string, buyer: string) {
  const start = await fetch(`${baseUrl}/api/payment`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "locale=fr&acceptTerms=yes",
    redirect: "manual",
  });
  const cardPage = new URL(start.headers.get("location")!, baseUrl).href;
  const body = new URLSearchParams({
    email: buyer,
    name: "Kim",
    city: "Nantes",
    card: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
  }).toString();
  const paid = await fetch(cardPage, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
}

for (const moment of ["while the mail server is unreachable", "in the middle of the SMTP conversation"] as const) {
  test(`killed with SIGKILL after the payment committed, ${moment}: after a restart the access e-mail arrives exactly once`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "site-kill-"));
    const mailServer = await startSmtp();
    try {
      if (moment === "while the mail server is unreachable") await mailServer.stop();
      else mailServer.stall = true;
      const first = await startServer({ dataDir, env: { SMTP_URL: mailServer.url } });
      await payByForm(first.baseUrl, "killed@example.com");
      const state = () => query<{ status: string; attempts: number }>(dataDir, "SELECT status, attempts FROM mail_outbox")[0];
      // The payment is committed and the sender has tried (and failed, or is stuck mid-send).
      await until("a first delivery attempt", () => (state()?.attempts ?? 0) >= 1);
      expect(query<{ status: string }>(dataDir, "SELECT status FROM orders")[0]!.status).toBe("paid");
      expect(mailServer.received).toHaveLength(0);
      await first.stop("SIGKILL");

      if (moment === "while the mail server is unreachable") await mailServer.start();
      else mailServer.stall = false;
      const second = await startServer({ dataDir, env: { SMTP_URL: mailServer.url } });
      try {
        await mailServer.waitFor(1);
        // Marked sent only after the mail server took it: nothing else is left to send.
        await until("the row marked sent", () => state()?.status === "sent");
        expect(mailsTo(mailServer, "killed@example.com")).toHaveLength(1);
        const key = keyOfLatestOrder(dataDir).key;
        expect(mailServer.received[0]!.mail.text).toContain(key);
      } finally {
        await second.stop();
      }
    } finally {
      await mailServer.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

test("'Lost your access e-mail?' works with JavaScript (in place) and without (form post and redirect), and mails the buyer again", async () => {
  await payByForm(server.baseUrl, "forgetful@example.com");
  await until("the first access e-mail", () => mailsTo(smtp, "forgetful@example.com").length === 1);

  // With JavaScript, on the English access page: the answer appears in place.
  const context = await shared.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  const consoleLog = watchConsole(page);
  await page.goto("/en/access");
  await page.waitForFunction(() => {
    const form = document.querySelector("form.access-form");
    return form !== null && Object.keys(form).some((k) => k.startsWith("__reactProps"));
  });
  await page.getByLabel("E-mail address used to pay").fill("forgetful@example.com");
  await page.getByRole("button", { name: "Send it again" }).click();
  await page.getByTestId("access-sent").waitFor({ state: "visible" });
  expect(await page.getByTestId("access-sent").textContent()).toContain("If this address bought access, the e-mail is on its way");
  expect(new URL(page.url()).pathname).toBe("/en/access");
  await until("the access e-mail sent again", () => mailsTo(smtp, "forgetful@example.com").length === 2);
  expect(consoleLog.errors).toEqual([]);
  await context.close();

  // Without JavaScript, from the French FAQ answer on the landing page.
  const plain = await shared.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false });
  const noJs = await plain.newPage();
  await noJs.goto("/");
  await noJs.locator("#faq summary").nth(2).click();
  const faqForm = noJs.locator("#faq form.access-form");
  await faqForm.getByLabel("Adresse email utilisée pour payer").fill("forgetful@example.com");
  await faqForm.getByRole("button", { name: "Me le renvoyer" }).click();
  await noJs.waitForURL("**/access?status=sent*");
  expect(await noJs.locator("main").textContent()).toContain("Si cette adresse a acheté un accès, l'email est en route");
  await until("a third copy", () => mailsTo(smtp, "forgetful@example.com").length === 3);
  await plain.close();
});
