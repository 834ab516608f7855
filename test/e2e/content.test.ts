import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { spawnSync } from "bun";
import type { BrowserContext, Page } from "playwright-core";
import { pdfText } from "../paperwork/pdf-text";
import { rawRequest } from "../server/raw-http";
import { logEntries } from "../support/logs";
import { freePort } from "../support/pebble";
import { payWithTestCard } from "../support/purchase";
import { mailsTo, startSmtp, type TestSmtp } from "../support/smtp";
import { until } from "../support/wait";
import { axeViolations } from "./axe";
import { type RunningServer, startServer, watchConsole } from "./harness";
import { addPasskeyAuthenticator } from "./passkey";
import { useBrowser } from "./shared-browser";

// The owner changes what the site says from the console, in Chromium with a passkey (a virtual
// authenticator), on the real server with two processes (WORKERS=2) and a real SMTP server on
// loopback: the hero's title in French and English, an FAQ entry in French only, the price. The
// preview shows the draft to the owner and not to a visitor; after "Publish" both processes serve
// the new pages (`/` and `/en`, `/en` without the French-only entry); a new purchase's access
// e-mail and invoice carry the new price; the chat answers the new entry's question; restoring the
// earlier version brings the old bytes back. Every Content page without an axe violation.

// A passkey is bound to the host name, and PUBLIC_BASE_URL must be the address the browser opens:
// the port is chosen free before the server starts.
const PORT = freePort();
const BASE = `http://localhost:${PORT}`;
const ROOT = join(import.meta.dir, "..", "..");

let smtp: TestSmtp;
let server: RunningServer;
const shared = useBrowser();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { PORT: String(PORT), PUBLIC_BASE_URL: BASE, WORKERS: "2", SMTP_URL: smtp.url } });
  await until("the second process to listen", () => logEntries(server.output).some((e) => e.msg === "worker listening"), {
    timeoutMs: 60_000,
  });
  context = await shared.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB", bypassCSP: true });
  page = await context.newPage();
  await addPasskeyAuthenticator(context, page);
});
afterAll(async () => {
  await context?.close();
  await server?.stop();
  await smtp?.stop();
});

const HERO_FR = "Votre cinéma du domaine public, à vie.";
const HERO_EN = "Your public-domain cinema, for life.";
const QUESTION_FR = "Les films du catalogue sont-ils libres de droits ?";
const ANSWER_FR = "Oui : le catalogue ne propose que des films du domaine public, visibles légalement partout.";

/** A page's bytes over a new connection each time (so the kernel may hand it to either process), without compression. */
async function fresh(path: string): Promise<{ body: string; etag: string | undefined }> {
  const answer = await rawRequest(server.baseUrl, `GET ${path} HTTP/1.1\r\nHost: localhost:${PORT}\r\nConnection: close\r\n\r\n`);
  expect(answer.status).toBe(200);
  // The raw answer is read as Latin-1 bytes; the page is UTF-8.
  return { body: Buffer.from(answer.body, "latin1").toString("utf8"), etag: answer.headers.etag };
}

/** The processes serving this version (each logs when it takes a publish; the worker's lines name it). */
const servingIn = (version: number) =>
  new Set(
    logEntries(server.output)
      .filter((e) => e.msg === "content published" && e.version === version)
      .map((e) => (e.worker === undefined ? "first" : `worker ${String(e.worker)}`)),
  );

async function noAxeViolation(label: string) {
  expect(await axeViolations(page, label)).toEqual([]);
}

async function signIn() {
  const invite = spawnSync({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "owner", "invite"],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, PUBLIC_BASE_URL: BASE, PORT: String(PORT) },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(invite.exitCode).toBe(0);
  const link = /http:\/\/localhost:\d+\/admin\/invite\/\S+/.exec(invite.stdout.toString())?.[0] ?? "";
  await page.goto(link);
  await page.getByRole("button", { name: "Create the passkey" }).click();
  await page.locator("#recovery-codes").waitFor({ state: "visible" });
  await page.getByRole("link", { name: "I have written them down, continue" }).click();
  await page.waitForURL(`${BASE}/admin`);
}

test("texts, an FAQ entry and the price edited in the console: previewed by the owner alone, published to both processes, in mail, invoice and chat, then restored", async () => {
  const errors = watchConsole(page).errors;
  const before = { fr: await fresh("/"), en: await fresh("/en") };
  expect(before.fr.body).toContain("29,99");
  await signIn();

  // The hero's title in French and English.
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Content" }).click();
  await noAxeViolation("content home");
  await page.getByRole("navigation", { name: "Content pages" }).getByRole("link", { name: "Texts" }).click();
  await noAxeViolation("texts");
  await page.getByRole("link", { name: "Hero" }).click();
  await noAxeViolation("texts: hero");
  await page.locator("#f-texts-heroTitle-fr").fill(HERO_FR);
  await page.locator("#f-texts-heroTitle-en").fill(HERO_EN);
  await page.getByRole("button", { name: "Save the draft" }).click();
  await page.getByText("Draft saved.").waitFor();
  await page.getByText("Missing in: Italiano, Español (the built-in text shows there).").waitFor();
  await noAxeViolation("texts: hero saved");

  // An FAQ entry in French only.
  await page.getByRole("navigation", { name: "Content pages" }).getByRole("link", { name: "FAQ" }).click();
  await noAxeViolation("faq");
  await page.getByRole("link", { name: "Add an entry" }).click();
  await noAxeViolation("new faq entry");
  await page.getByLabel("Question (Français)").fill(QUESTION_FR);
  await page.getByLabel("Answer (Français)").fill(ANSWER_FR);
  await page.getByRole("button", { name: "Save the draft" }).click();
  await page.getByText("Draft saved.").waitFor();
  await page.getByText("Missing in: English, Italiano, Español").waitFor();
  await noAxeViolation("faq with the new entry");

  // The price; a price that is not one is refused with the field named, nothing saved.
  await page.getByRole("navigation", { name: "Content pages" }).getByRole("link", { name: "Offer and price" }).click();
  await noAxeViolation("offer");
  await page.getByLabel("Price", { exact: true }).fill("nineteen");
  await page.getByRole("button", { name: "Save the draft" }).click();
  await page.getByRole("link", { name: "Price", exact: true }).waitFor();
  // Focus is on the list of problems, whose links lead to the fields.
  expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("alert");
  expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("Price");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("#f-offer-priceMinor");
  await noAxeViolation("offer refused");
  await page.getByLabel("Price", { exact: true }).fill("19,99");
  await page.getByRole("button", { name: "Save the draft" }).click();
  await page.getByText("Draft saved.").waitFor();
  // A shop started minutes ago has charged 29,99 € for less than 30 days: no reference to offer.
  await page.getByText("Reference if you publish now: none").waitFor();

  // Every other page of the Content area, without an axe violation.
  for (const path of [
    "/admin/content/texts",
    "/admin/content/faq/new",
    "/admin/content/faq/faq3",
    "/admin/content/comparison",
    "/admin/content/guide",
    "/admin/content/guide/ios",
    "/admin/content/history",
  ]) {
    await page.goto(`${BASE}${path}`);
    await noAxeViolation(path);
  }

  // The preview: the owner sees the draft in any language; a visitor asking for it gets the sign-in page.
  await page.goto(`${BASE}/admin/content`);
  await page.getByText("4 unpublished changes:").waitFor();
  await page.getByLabel("Language").selectOption("fr");
  await page.getByRole("button", { name: "Show the preview" }).click();
  await page.waitForURL(`${BASE}/admin/content/preview?page=landing&lang=fr`);
  const previewFr = await page.content();
  expect(previewFr).toContain(HERO_FR);
  expect(previewFr).toContain("19,99");
  expect(previewFr).toContain("Les films du catalogue sont-ils libres de droits");
  await page.goto(`${BASE}/admin/content/preview?page=landing&lang=en`);
  const previewEn = await page.content();
  expect(previewEn).toContain(HERO_EN);
  expect(previewEn).toContain("€19.99");
  expect(previewEn).not.toContain("libres de droits");
  const anonymous = await fetch(`${BASE}/admin/content/preview?page=landing&lang=fr`, { redirect: "manual" });
  expect(anonymous.status).toBe(303);
  expect(anonymous.headers.get("location")).toBe("/admin/sign-in");
  expect(await anonymous.text()).not.toContain(HERO_FR);
  expect((await fresh("/")).body).not.toContain(HERO_FR);

  // Publish: both processes render the new version, and every new connection gets the new bytes.
  await page.goto(`${BASE}/admin/content`);
  await noAxeViolation("content home with a draft");
  const published = Date.now();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByText("Published: the site's pages show it within about a second.").waitFor();
  await until("both processes to serve version 1", () => servingIn(1).size === 2, { timeoutMs: 30_000 });
  const served = Date.now() - published;
  for (let i = 0; i < 8; i++) {
    const fr = await fresh("/");
    expect(fr.body).toContain(HERO_FR);
    expect(fr.body).toContain("Les films du catalogue sont-ils libres de droits");
    expect(fr.etag).not.toBe(before.fr.etag);
    const en = await fresh("/en");
    expect(en.body).toContain(HERO_EN);
    expect(en.body).toContain("€19.99");
    expect(en.body).not.toContain("libres de droits");
  }
  // Measured here for the record, not asserted (speed goes in bench/): from the click to both processes serving the new version.
  console.info(`publish → both processes serving the new pages: ${served} ms`);

  // A new purchase: the access e-mail and its invoice say the new price.
  const site = { request: (path: string, init?: RequestInit) => fetch(`${BASE}${path}`, { ...init, redirect: "manual" }) };
  await payWithTestCard(site, { locale: "en", email: "new.price@example.com" });
  // The server's first e-mail: it loads the e-mail and invoice code first, which a machine busy
  // with the other test files can stretch well past the usual allowance.
  const [received] = await until(
    "the access e-mail",
    () => {
      const mails = mailsTo(smtp, "new.price@example.com");
      return mails.length > 0 ? mails : null;
    },
    { timeoutMs: 30_000 },
  );
  expect(received?.mail.text).toContain("€19.99");
  const invoice = received?.mail.attachments.find((a) => a.contentType === "application/pdf");
  expect(invoice).toBeDefined();
  expect(pdfText(invoice?.content ?? new Uint8Array())).toContain("19.99");

  // The chat answers the new entry's question with the owner's answer.
  const chat = await fetch(`${BASE}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: QUESTION_FR }], locale: "fr" }),
  });
  expect((await chat.json()).message).toBe(ANSWER_FR);

  // Restoring version 0 brings the old bytes back, in both processes.
  await page.goto(`${BASE}/admin/content/history`);
  await noAxeViolation("history with a version");
  await page.getByRole("button", { name: "Restore version 0" }).click();
  await page.getByText("Version restored: it is live as a new version.").waitFor();
  await until("both processes to serve version 2", () => servingIn(2).size === 2, { timeoutMs: 30_000 });
  for (let i = 0; i < 8; i++) {
    const fr = await fresh("/");
    expect(fr.body).toBe(before.fr.body);
    expect(fr.etag).toBe(before.fr.etag);
    expect((await fresh("/en")).body).toBe(before.en.body);
  }

  // The support page's "answer as an FAQ entry" opens a new entry with the question in its language.
  await fetch(`${BASE}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Do you ship vinyl records to Norway by boat?" }], locale: "en" }),
  });
  await page.goto(`${BASE}/admin/support`);
  await noAxeViolation("support with a handed-over question");
  await page.getByRole("button", { name: "Answer as an FAQ entry: “Do you ship vinyl records to Norway by boat?”" }).click();
  expect(await page.getByLabel("Question (English)").inputValue()).toBe("Do you ship vinyl records to Norway by boat?");
  await noAxeViolation("answer once");

  // In French, at 360 px: the Content pages fit the phone and pass axe.
  const french = await shared.newContext({
    viewport: { width: 360, height: 740 },
    locale: "fr-FR",
    bypassCSP: true,
    storageState: await context.storageState(),
  });
  try {
    const phone = await french.newPage();
    for (const path of [
      "/admin/content",
      "/admin/content/offer",
      "/admin/content/texts/hero",
      "/admin/content/faq",
      "/admin/content/faq/faq3",
      "/admin/content/guide",
      "/admin/content/comparison",
      "/admin/content/history",
    ]) {
      await phone.goto(`${BASE}${path}`);
      expect(await axeViolations(phone, `${path} in French`)).toEqual([]);
      expect({ path, width: await phone.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 360 });
    }
  } finally {
    await french.close();
  }
  // The price refused on purpose above is the one error the browser reports (its status, 422).
  expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
}, 300_000);
