import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { emailLeads, mailOutbox, orders, ownerActivity } from "../../db/schema";
import { issueRecoveryCodes } from "../../server/owner/console/recovery-codes";
import { findSession, markVerified } from "../../server/owner/console/sessions";
import { createTestSite, type TestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { confirmWithPasskey, ownerCookie } from "./owner";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const EN = { "accept-language": "en" };

const lead = (site: TestSite, email: string) =>
  site.request("/api/leads", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, locale: "it", source: "exit_popup", ip_hash: null }),
  });
const actions = (site: TestSite) =>
  site.db.select({ action: ownerActivity.action, detail: ownerActivity.detail }).from(ownerActivity).all();

test("leads are listed with language, origin and demo e-mail; export and erasure need a passkey check, then do what the CLI does", async () => {
  const site = await createTestSite();
  try {
    expect((await lead(site, "gina@example.com")).status).toBe(201);
    expect((await lead(site, "hugo@example.com")).status).toBe(201);
    const cookie = await ownerCookie(site);
    const get = (path: string) => site.request(path, { headers: { cookie, ...EN } });
    const page = await (await get("/admin/leads")).text();
    expect(page).toContain("gina@example.com");
    expect(page).toContain("exit popup");
    expect(page).toContain("waiting");
    expect(page).toContain("first confirm with your passkey");

    expect((await get("/admin/leads.csv")).status).toBe(403);
    const refused = await site.request("/admin/leads/erase", {
      method: "POST",
      headers: { cookie, ...FORM },
      body: "email=gina%40example.com",
    });
    expect(refused.status).toBe(403);
    expect(site.db.select().from(emailLeads).all()).toHaveLength(2);

    await confirmWithPasskey(site, cookie);
    const csv = await get("/admin/leads.csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("cache-control")).toBe("no-store");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toStartWith("id,email,source,locale");
    expect(text).toContain("hugo@example.com");

    expect(
      (await site.request("/admin/leads/erase", { method: "POST", headers: { cookie, ...FORM }, body: "email=not-an-address" })).status,
    ).toBe(400);
    const erased = await site.request("/admin/leads/erase", {
      method: "POST",
      headers: { cookie, ...FORM },
      body: "email=GINA%40example.com",
    });
    expect(erased.status).toBe(303);
    expect(site.db.select({ email: emailLeads.email }).from(emailLeads).all()).toEqual([{ email: "hugo@example.com" }]);
    expect(site.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, "gina@example.com")).all()).toHaveLength(0);
    const log = actions(site);
    expect(log.map((a) => a.action)).toEqual(["sign-in-recovery", "export", "erasure"]);
    expect(log.at(-1)?.detail).not.toContain("gina@example.com");
  } finally {
    await site.close();
  }
});

test("the support page lists conversations and the questions the assistant handed over to the support address", async () => {
  const site = await createTestSite();
  try {
    const ask = (content: string) =>
      site.request("/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content }], locale: "en" }),
      });
    expect((await ask("How much does it cost?")).status).toBe(200);
    expect((await ask("Do you ship vinyl records to Norway by boat?")).status).toBe(200);
    const cookie = await ownerCookie(site);
    const page = await (await site.request("/admin/support", { headers: { cookie, ...EN } })).text();
    const [handOvers, conversations] = page.split('id="conversations"');
    expect(handOvers).toContain("Do you ship vinyl records to Norway by boat?");
    expect(handOvers).not.toContain("How much does it cost?");
    expect(conversations).toContain("How much does it cost?");
    expect(conversations).toContain("Do you ship vinyl records");
  } finally {
    await site.close();
  }
});

test("the e-mail page shows failed messages with their reason, and retry puts one back in the queue", async () => {
  const site = await createTestSite();
  try {
    await payWithTestCard(site, { locale: "fr", email: "ines@example.com" });
    await site.write((tx) => tx.update(mailOutbox).set({ status: "failed", attempts: 8, lastError: "550 mailbox unavailable" }).run());
    const cookie = await ownerCookie(site);
    const page = await (await site.request("/admin/mail", { headers: { cookie, ...EN } })).text();
    expect(page).toContain("550 mailbox unavailable");
    expect(page).toContain("ines@example.com");
    const id = /action="\/admin\/mail\/(\d+)\/retry"/.exec(page)?.[1];
    const retried = await site.request(`/admin/mail/${id}/retry`, { method: "POST", headers: { cookie } });
    expect(retried.status).toBe(303);
    expect(
      site.db
        .select({ status: mailOutbox.status })
        .from(mailOutbox)
        .where(eq(mailOutbox.id, Number(id)))
        .get()?.status,
    ).toBe("pending");
    expect((await site.request("/admin/mail/99999/retry", { method: "POST", headers: { cookie } })).status).toBe(409);
    expect(actions(site).map((a) => a.action)).toContain("mail-retry");
  } finally {
    await site.close();
  }
});

test("a passkey check counts for 5 minutes: just before, the export goes through; at 5 minutes export, erasure and refund are refused until a new check", async () => {
  let at = Date.parse("2026-11-24T09:00:00Z");
  const site = await createTestSite({ now: () => new Date(at) });
  try {
    await payWithTestCard(site, { locale: "fr", email: "olga@example.com" });
    expect((await lead(site, "paul@example.com")).status).toBe(201);
    const [code] = await site.write((tx) => issueRecoveryCodes(tx, new Date(at)));
    const signedIn = await site.request("/admin/sign-in/recovery", { method: "POST", headers: FORM, body: `code=${code}` });
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const session = findSession(site.db, cookie.split("=")[1] ?? "", new Date(at));
    // The passkey check, as the console's confirm ceremony records it, at the site's clock.
    await site.write((tx) => markVerified(tx, session?.id ?? 0, new Date(at)));
    const exportLeads = () => site.request("/admin/leads.csv", { headers: { cookie, ...EN } });

    at += 5 * 60 * 1000 - 1000;
    expect((await exportLeads()).status).toBe(200);
    at += 1000;
    expect((await exportLeads()).status).toBe(403);
    const erase = await site.request("/admin/leads/erase", {
      method: "POST",
      headers: { cookie, ...FORM },
      body: "email=paul%40example.com",
    });
    expect(erase.status).toBe(403);
    const refund = await site.request("/admin/orders/1/refund", { method: "POST", headers: { cookie, ...FORM }, body: "confirm=yes" });
    expect(refund.status).toBe(403);
    expect(site.db.select().from(emailLeads).all()).toHaveLength(1);
    expect(site.db.select({ status: orders.status }).from(orders).get()?.status).toBe("paid");

    await site.write((tx) => markVerified(tx, session?.id ?? 0, new Date(at)));
    expect((await exportLeads()).status).toBe(200);
  } finally {
    await site.close();
  }
});
