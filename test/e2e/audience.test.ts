import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { Page, Request } from "playwright-core";
import { openDb } from "../../db/client";
import { createWriter } from "../../db/writer";
import { issueRecoveryCodes } from "../../server/owner/console/recovery-codes";
import { until } from "../support/wait";
import { axeViolations } from "./axe";
import { useSite } from "./harness";
import { keptProblems } from "./kept";

// The browser reaches the server from 127.0.0.1, the trusted proxy: each visitor's address comes in
// X-Forwarded-For, as a reverse proxy would send it. Three visitors from three sources; one of them
// buys with the test card and the app activates the key; the owner's Audience page shows the
// funnel and the sale's source.
const site = useSite({ env: { TRUST_PROXY: "127.0.0.1", WORKERS: "1" } });
const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

const beaconsOf = (page: Page) => {
  const sent: Record<string, unknown>[] = [];
  page.on("request", (r: Request) => {
    if (new URL(r.url()).pathname === "/api/beacon") sent.push(JSON.parse(r.postData() ?? "null"));
  });
  return sent;
};

/** No cookie, and only the "already shown" flags in the browser's storage (kept.ts). */
async function expectNothingKept(page: Page) {
  expect(await keptProblems(page, page.url())).toEqual([]);
}

function query<T>(sql: string): T[] {
  const db = new Database(join(site.server.dataDir, "site.db"), { readonly: true });
  try {
    return db.query<T, []>(sql).all();
  } finally {
    db.close();
  }
}

const plain = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

test("three visitors from three sources, one buys with the test card and activates: the console shows 3 visitors, the sources, the funnel to 1 paid and 1 activated, and the sale's source; no cookie, no identifier kept", async () => {
  const visits = [
    { ip: "198.51.100.1", path: "/?utm_source=Newsletter&utm_medium=email&utm_campaign=spring", referer: undefined },
    { ip: "198.51.100.2", path: "/en", referer: "https://www.forum.example/thread/42" },
    { ip: "198.51.100.3", path: "/it", referer: undefined },
  ];
  const pages: Page[] = [];
  const sent: Record<string, unknown>[][] = [];
  for (const visit of visits) {
    const context = await site.newContext({
      userAgent: PHONE,
      viewport: { width: 360, height: 740 },
      extraHTTPHeaders: { "x-forwarded-for": visit.ip },
    });
    const page = await context.newPage();
    sent.push(beaconsOf(page));
    const beacon = page.waitForRequest((r) => r.url().endsWith("/api/beacon"));
    await page.goto(visit.path, { waitUntil: "load", referer: visit.referer });
    await beacon;
    await expectNothingKept(page);
    pages.push(page);
  }
  // What each page view sent: the page, the device class, and where the visitor came from; nothing else.
  expect(sent[0]?.[0]).toEqual({
    kind: "pageview",
    path: "/",
    device: "mobile",
    utmSource: "Newsletter",
    utmMedium: "email",
    utmCampaign: "spring",
  });
  expect(sent[1]?.[0]).toEqual({ kind: "pageview", path: "/en", device: "mobile", referrer: "www.forum.example" });
  expect(sent[2]?.[0]).toEqual({ kind: "pageview", path: "/it", device: "mobile" });

  // The newsletter's reader opens the demo, then the chat, and sends the demo form: one beacon each.
  const reader = pages[0] as Page;
  const kinds = (n: number) => (sent[n] ?? []).map((b) => b.kind);
  await reader.locator("[data-demo-button]").first().click();
  const demo = reader.getByRole("dialog");
  await demo.waitFor({ state: "visible" });
  await until("the demo_opened beacon", () => kinds(0).includes("demo_opened"));
  await reader.keyboard.press("Escape");
  await demo.waitFor({ state: "hidden" });
  // On a phone the support button comes in once the visitor scrolls.
  await reader.mouse.wheel(0, 1200);
  await reader.getByRole("button", { name: "Support" }).click();
  await reader.getByRole("menuitem", { name: "Support par chat" }).click();
  const chat = reader.getByRole("dialog");
  await chat.waitFor({ state: "visible" });
  await until("the chat_opened beacon", () => kinds(0).includes("chat_opened"));
  await reader.keyboard.press("Escape");
  await chat.waitFor({ state: "hidden" });
  // The form's island comes to life once seen; sent before that, it would be a plain post and a new page view.
  await reader.locator("form.lead-form").first().scrollIntoViewIfNeeded();
  await reader.waitForFunction(
    () => document.querySelector("form.lead-form")?.closest<HTMLElement>("[data-island]")?.dataset.islandState === "hydrated",
  );
  await reader.locator("form.lead-form input[type=email]").first().fill("reader@example.com");
  await reader.locator("form.lead-form").first().locator("button[type=submit]").click();
  await until("the lead_sent beacon", () => kinds(0).includes("lead_sent"));
  expect(
    kinds(0)
      .filter((k) => k !== "vital")
      .sort(),
  ).toEqual(["chat_opened", "demo_opened", "lead_sent", "pageview"]);
  // Real-user speed, measured by web-vitals in the page: a measure, its page and device, nothing else.
  for (const vital of (sent[0] ?? []).filter((b) => b.kind === "vital"))
    expect(vital).toEqual({
      kind: "vital",
      path: "/",
      device: "mobile",
      metric: expect.stringMatching(/^(LCP|INP|CLS)$/),
      value: expect.any(Number),
    });

  // The forum's visitor buys: the payment page, the pay button, the test card.
  const buyer = pages[1] as Page;
  await buyer.getByRole("link", { name: "Get access", exact: true }).first().click();
  await buyer.waitForURL("**/en/paiement");
  await buyer.waitForFunction(() => {
    const button = document.querySelector('[data-testid="pay-button"]');
    return button !== null && Object.keys(button).some((k) => k.startsWith("__reactProps"));
  });
  await buyer.getByTestId("consent-box").check();
  await buyer.getByRole("button", { name: /Pay €29.99/ }).click();
  await buyer.waitForURL("**/checkout/test/**");
  await buyer.waitForFunction(() => {
    const form = document.querySelector("form.test-checkout__form");
    return form !== null && Object.keys(form).some((k) => k.startsWith("__reactProps"));
  });
  await buyer.getByLabel("E-mail").fill("forum-reader@example.com");
  await buyer.getByLabel("Full name").fill("Sam Taylor");
  await buyer.getByLabel("City").fill("Leeds");
  await buyer.getByLabel("Card number").fill("4242424242424242");
  await buyer.getByLabel("Expiry (MM/YY)").fill("12/34");
  await buyer.getByLabel("CVC").fill("123");
  await buyer.getByRole("button", { name: /Pay €29.99/ }).click();
  await buyer.waitForURL("**/en/payment-success?session_id=*");
  expect(kinds(1)).toContain("pay_clicked");
  await expectNothingKept(buyer);
  for (const page of pages) await page.context().close();

  // The app activates the key.
  const [license] = query<{ key: string }>("SELECT key FROM licenses");
  const activated = await fetch(`${site.server.baseUrl}/api/licenses/activate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: license?.key, instanceName: "Living-room TV" }),
  });
  expect(activated.status).toBe(201);

  // The beacons are written within a second; the database holds no address and no browser name.
  await until("the payment page's view stored", () => query("SELECT 1 FROM analytics_events WHERE page = 'payment'").length > 0);
  const pageviews = query<{ visitor: string; source: string }>("SELECT visitor, source FROM analytics_events WHERE kind = 'pageview'");
  expect(new Set(pageviews.map((r) => r.visitor)).size).toBe(3);
  const tables = query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  for (const { name } of tables) {
    const dump = JSON.stringify(query(`SELECT * FROM "${name}"`));
    for (const visit of visits) expect({ name, ip: dump.includes(visit.ip) }).toEqual({ name, ip: false });
    expect({ name, ua: dump.includes("Pixel 8") }).toEqual({ name, ua: false });
  }

  // The owner signs in with a recovery code and opens the Audience page.
  const db = openDb(join(site.server.dataDir, "site.db"));
  const [code] = await createWriter(db, { waitMs: 5_000 })((tx) => issueRecoveryCodes(tx, new Date()));
  db.$client.close();
  const owner = await site.newContext({ locale: "en-GB" });
  const page = await owner.newPage();
  await page.goto("/admin/sign-in");
  await page.getByRole("textbox", { name: "Recovery code" }).fill(code ?? "");
  await page.getByRole("button", { name: "Sign in with this code" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/admin/sign-in"));
  await page.goto("/admin/audience");
  const cells = async (id: string) =>
    (await page.locator(`table:has(caption#${id}) tbody tr`).allInnerTexts()).map((row) => plain(row).trim());
  // All traffic: 3 visitors → 1 on the payment page → 1 checkout → 1 paid → 1 activated within 7 days.
  expect(await cells("funnel-all")).toEqual([expect.stringMatching(/^All 3 1 \(33\.3 ?%\) 1 \(100 ?%\) 1 \(100 ?%\) 1 \(100 ?%\)$/)]);
  const bySource = await cells("funnel-source");
  expect(bySource).toContainEqual(expect.stringMatching(/^forum\.example 1 1 \(100 ?%\) 1 \(100 ?%\) 1 \(100 ?%\) 1 \(100 ?%\)$/));
  expect(bySource).toContainEqual(expect.stringMatching(/^newsletter 1 0 \(0 ?%\) 0/));
  expect(bySource).toContainEqual(expect.stringMatching(/^Direct 1 0 \(0 ?%\) 0/));
  expect(await cells("funnel-locale")).toContainEqual(expect.stringMatching(/^en 1 1 \(100 ?%\) 1 \(100 ?%\) 1 \(100 ?%\) 1 \(100 ?%\)$/));
  // The sale is the forum's.
  // No discount code on that sale: a dash in the code column.
  expect(await cells("revenue-source")).toEqual(["forum.example — 1 €29.99"]);
  expect(await cells("top-campaigns")).toContainEqual(expect.stringMatching(/^spring 1/));
  expect((await cells("top-events")).sort()).toEqual(["Chat opened 1 1", "Demo form sent 1 1", "Demo opened 1 1", "Pay button 1 1"]);

  // A phone's layout shift of 0.01 on the English page, then the same page in French: numbers,
  // dates and every label the French way, and each table's caption for screen readers only (the
  // heading above it, or its first column, says it on screen).
  const shifted = await fetch(`${site.server.baseUrl}/api/beacon`, {
    method: "POST",
    headers: { "content-type": "text/plain", "x-forwarded-for": "198.51.100.9", "user-agent": PHONE },
    body: JSON.stringify({ kind: "vital", path: "/en", device: "mobile", metric: "CLS", value: 0.01 }),
  });
  expect(shifted.status).toBe(204);
  await until(
    "the CLS reading stored",
    () => query("SELECT 1 FROM analytics_events WHERE kind = 'vital' AND metric = 'CLS' AND value = 0.01").length > 0,
  );
  const french = await site.newContext({ locale: "fr-FR", bypassCSP: true, storageState: await owner.storageState() });
  const fr = await french.newPage();
  // The console redoes today's totals when it shows them and they are more than 5 s old: a reading
  // stored within 5 s of the English page's load shows on a load after that.
  const vitalsNow = async () => (await fr.locator("table:has(caption#vitals) tbody tr").allInnerTexts()).map((row) => plain(row));
  const CLS_ROW = /^landing Téléphone .* 0,\d\d \(bon\)/;
  await until(
    "the layout shift in the French page's vitals",
    async () => {
      await fr.goto("/admin/audience");
      return (await vitalsNow()).some((row) => CLS_ROW.test(row));
    },
    { everyMs: 1_000 },
  ).catch(() => undefined);
  const head = async (id: string) => (await fr.locator(`table:has(caption#${id}) thead th`).allInnerTexts()).join(" | ");
  expect(await head("top-events")).toBe("Actions | Visiteurs | Nombre d'actions");
  const vitals = await vitalsNow();
  expect(vitals).toContainEqual(expect.stringMatching(CLS_ROW));
  expect(vitals.join(" ")).not.toMatch(/\b0\.\d/);
  for (const caption of await fr.locator("caption").all()) expect((await caption.boundingBox())?.height ?? 0).toBeLessThanOrEqual(1);
  // The chart's legend: the day under the cursor as the overview writes it ("28 oct."), in French.
  await fr.locator("#audience-chart canvas").waitFor();
  const over = fr.locator("#audience-chart .u-over");
  const box = await over.boundingBox();
  await fr.mouse.move((box?.x ?? 0) + (box?.width ?? 0) - 2, (box?.y ?? 0) + 10);
  const legend = plain((await fr.locator("#audience-chart .u-legend").allInnerTexts()).join(" "));
  expect(legend).not.toContain("Time");
  expect(legend).toMatch(/^Date ?\d{1,2} [a-zéû]+\.?/);
  expect(legend).not.toMatch(/\d+\/\d+/);
  expect(await axeViolations(fr, "/admin/audience in French")).toEqual([]);
  await french.close();
  await owner.close();
});

// That no page keeps a cookie or an identifier with JavaScript on is read on every page in every
// language by the every-page sweep (test/e2e/sweep.ts); here, that without it nothing is sent.
test("without JavaScript no beacon is sent", async () => {
  const plainContext = await site.newContext({ javaScriptEnabled: false });
  const noScript = await plainContext.newPage();
  const sent = beaconsOf(noScript);
  for (const path of ["/", "/en/paiement", "/it"]) await noScript.goto(path, { waitUntil: "load" });
  expect(sent).toEqual([]);
  await plainContext.close();
});
