import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { spawnSync } from "bun";
import type { BrowserContext, Page } from "playwright-core";
import { payWithTestCard } from "../support/purchase";
import { axeViolations } from "./axe";
import { type RunningServer, startServer, watchConsole } from "./harness";
import { addPasskeyAuthenticator } from "./passkey";
import { useBrowser } from "./shared-browser";

// The owner's whole first day, in Chromium with a virtual authenticator (the DevTools protocol's
// WebAuthn domain, user verification on): `site owner invite` → register a passkey → the recovery
// codes once → sign out → sign in with the passkey → find a test order by e-mail → refund it → the
// licence verifies as disabled and the buyer's refund notice is in the queue. At 360 px, with axe.

// A fixed port: a passkey is bound to the host name, and PUBLIC_BASE_URL must be the address the browser opens.
const PORT = 4637;
const BASE = `http://localhost:${PORT}`;
const ROOT = join(import.meta.dir, "..", "..");

let server: RunningServer;
const shared = useBrowser();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer({ env: { PORT: String(PORT), PUBLIC_BASE_URL: BASE, WORKERS: "1" } });
  context = await shared.newContext({ viewport: { width: 360, height: 740 }, locale: "en-GB", bypassCSP: true });
  page = await context.newPage();
  await addPasskeyAuthenticator(context, page);
});
afterAll(async () => {
  await context?.close();
  await server?.stop();
});

function query<T>(sql: string): T[] {
  const db = new Database(join(server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<T, []>(sql).all();
  } finally {
    db.close();
  }
}

async function noAxeViolation(label: string) {
  expect(await axeViolations(page, label)).toEqual([]);
}

test("invite → passkey → recovery codes → sign out → sign in → find an order by e-mail → refund: licence disabled, refund notice queued", async () => {
  const errors = watchConsole(page).errors;
  const site = { request: (path: string, init?: RequestInit) => fetch(`${BASE}${path}`, { ...init, redirect: "manual" }) };
  await payWithTestCard(site, { locale: "fr", email: "journey.buyer@example.com" });
  await payWithTestCard(site, { locale: "en", email: "someone.else@example.com" });

  const invite = spawnSync({
    cmd: [process.execPath, "run", join(ROOT, "server/main.ts"), "owner", "invite"],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, PUBLIC_BASE_URL: BASE, PORT: String(PORT) },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(invite.exitCode).toBe(0);
  const link = /http:\/\/localhost:\d+\/admin\/invite\/\S+/.exec(invite.stdout.toString())?.[0] ?? "";
  expect(link).not.toBe("");

  // Register the passkey; the ten recovery codes are shown once.
  await page.goto(link);
  await noAxeViolation("invite");
  await page.getByLabel("Name of this passkey (optional)").fill("Test phone");
  await page.getByRole("button", { name: "Create the passkey" }).click();
  await page.locator("#recovery-codes").waitFor({ state: "visible" });
  // The passkey is made: the message says so, and nothing offers to make it again.
  expect(await page.locator("#console-status").textContent()).toBe("Passkey checked.");
  expect(await page.locator("button[data-passkey=register]").isVisible()).toBe(false);
  expect(await page.locator("#passkey-name").isVisible()).toBe(false);
  expect(await page.locator("label[for=passkey-name]").isVisible()).toBe(false);
  const codes = await page.locator("#recovery-code-list li").allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
  await noAxeViolation("recovery codes");
  await page.getByRole("link", { name: "I have written them down, continue" }).click();
  await page.waitForURL(`${BASE}/admin`);
  await noAxeViolation("overview");

  // The invite is used up.
  expect((await fetch(link)).status).toBe(403);

  // Sign out, then in again with the passkey, from the keyboard.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${BASE}/admin/sign-in?notice=signed-out`);
  await noAxeViolation("sign-in");
  const signIn = page.getByRole("button", { name: "Sign in with a passkey" });
  await signIn.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`${BASE}/admin`);

  // Find the order by the buyer's address.
  await page.getByRole("navigation").getByRole("link", { name: "Orders" }).click();
  await page.getByLabel("Search orders").fill("journey.buyer@");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await noAxeViolation("orders");
  const rows = page.locator("tbody tr");
  expect(await rows.count()).toBe(1);
  await rows.first().getByRole("link").click();
  await noAxeViolation("order");

  // Refund it: signed in with a passkey a moment ago, so no second check is asked.
  await page.getByLabel(/I confirm the refund of/).check();
  await page.getByRole("button", { name: /^Refund / }).click();
  await page.getByText("Order refunded: licence disabled, the buyer is told.").waitFor();
  await noAxeViolation("order refunded");

  const [order] = query<{ id: number; status: string; key: string }>(
    "SELECT o.id, o.status, l.key FROM orders o JOIN licenses l ON l.order_id = o.id WHERE o.customer_email = 'journey.buyer@example.com'",
  );
  expect(order?.status).toBe("refunded");
  const verified = await (
    await fetch(`${BASE}/api/licenses/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: order?.key }),
    })
  ).json();
  expect(verified).toMatchObject({ valid: false, status: "disabled" });
  const notices = query<{ kind: string; recipient: string }>(
    `SELECT kind, recipient FROM mail_outbox WHERE order_id = ${order?.id} AND kind = 'refund'`,
  );
  expect(notices).toEqual([{ kind: "refund", recipient: "journey.buyer@example.com" }]);
  const actions = query<{ action: string }>("SELECT action FROM owner_activity ORDER BY id").map((a) => a.action);
  expect(actions).toEqual(["invite-created", "passkey-added", "sign-out", "sign-in", "refund"]);

  // Something in each list: a lead, and an e-mail that failed (a row with its retry button).
  const lead = await fetch(`${BASE}/api/leads`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "curious.visitor@example.com", locale: "fr", source: "exit_popup", ip_hash: null }),
  });
  expect(lead.status).toBe(201);
  const db = new Database(join(server.dataDir, "site.db"));
  try {
    db.run(
      "UPDATE mail_outbox SET status = 'failed', attempts = 8, last_error = '550 5.1.1 mailbox unavailable' WHERE recipient = 'someone.else@example.com'",
    );
  } finally {
    db.close();
  }

  // The other pages, each without an axe violation and nothing wider than the phone at 360 px,
  // then every page at 1280 px; the overview's chart is drawn.
  const others = [
    "/admin/audience",
    "/admin/codes",
    "/admin/partners",
    "/admin/leads",
    "/admin/support",
    "/admin/mail",
    "/admin/activity",
    "/admin/security",
  ];
  const fitsThePhone = async (label: string) =>
    expect({ label, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ label, width: 360 });
  for (const path of others) {
    await page.goto(`${BASE}${path}`);
    await noAxeViolation(path);
    await fitsThePhone(path);
  }
  expect(await page.goto(`${BASE}/admin/mail`).then(() => page.getByRole("button", { name: /^Retry/ }).count())).toBe(1);
  // In French too, the site's default language: the same session in a browser set to French.
  const french = await shared.newContext({
    viewport: { width: 360, height: 740 },
    locale: "fr-FR",
    bypassCSP: true,
    storageState: await context.storageState(),
  });
  try {
    const frenchPage = await french.newPage();
    for (const path of ["/admin", "/admin/orders", `/admin/orders/${order?.id}`, ...others]) {
      await frenchPage.goto(`${BASE}${path}`);
      expect({ path, lang: await frenchPage.getAttribute("html", "lang") }).toEqual({ path, lang: "fr-FR" });
      expect(await axeViolations(frenchPage, `${path} in French`)).toEqual([]);
      expect({ path, width: await frenchPage.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 360 });
    }
  } finally {
    await french.close();
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const path of ["/admin/orders", `/admin/orders/${order?.id}`, ...others]) {
    await page.goto(`${BASE}${path}`);
    await noAxeViolation(`${path} at 1280 px`);
  }
  await page.goto(`${BASE}/admin`);
  await page.locator("#revenue-chart canvas").waitFor();
  await noAxeViolation("/admin at 1280 px");
  expect(errors).toEqual([]);

  // The pages that only say something, at both widths: an unknown page, a refused action, a used
  // invite link. Their status (404, 403) is all the browser reports.
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ["/admin/no-such-page", "/admin/orders/999999", new URL(link).pathname]) {
      await page.goto(`${BASE}${path}`);
      await noAxeViolation(`${path} at ${width} px`);
    }
  }
  expect(errors.filter((e) => !/status of 40[34]/.test(e))).toEqual([]);
}, 240_000);
