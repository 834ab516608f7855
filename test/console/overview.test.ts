import { expect, test } from "bun:test";
import { overview, parisDayStart } from "../../server/owner/console/overview";
import { writeReplicationStatus } from "../../server/platform/backup/status";
import { createTestSite } from "../support/app";
import { payWithTestCard } from "../support/purchase";
import { confirmWithPasskey, ownerCookie } from "./owner";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

test("the overview counts paid orders and revenue gross, refunded and net, in the owner's language", async () => {
  const site = await createTestSite();
  try {
    await payWithTestCard(site, { locale: "fr", email: "a@example.com" });
    await payWithTestCard(site, { locale: "fr", email: "b@example.com" });
    // An abandoned checkout is not revenue.
    await site.request("/api/payment", { method: "POST", headers: FORM, body: "locale=fr&acceptTerms=yes" });
    const cookie = await ownerCookie(site);
    await confirmWithPasskey(site, cookie);
    await site.request("/admin/orders/2/refund", { method: "POST", headers: { cookie, ...FORM }, body: "confirm=yes" });

    const figures = overview(site.db, site.config, new Date()).figures;
    for (const period of ["today", "week", "month", "all"] as const) {
      expect(figures[period]).toEqual({ gross: 5998, refunded: 2999, net: 2999, paidOrders: 2, refundedOrders: 1 });
    }
    const fr = await (await site.request("/admin", { headers: { cookie, "accept-language": "fr-FR" } })).text();
    expect(fr).toContain("29,99\u00a0€");
    expect(fr).toContain("59,98\u00a0€");
    expect(fr).toContain("50\u00a0%");
    const en = await (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
    expect(en).toContain("€29.99");
    expect(en).toContain("Refund rate");
  } finally {
    await site.close();
  }
});

test("the chart holds the last 30 Paris days, today's net revenue in the last one", async () => {
  const site = await createTestSite();
  try {
    await payWithTestCard(site, { locale: "fr", email: "c@example.com" });
    const now = new Date();
    const { chart } = overview(site.db, site.config, now);
    expect(chart).toHaveLength(30);
    expect(chart.at(-1)).toEqual([parisDayStart(now).getTime() / 1000, 2999]);
    expect(chart.slice(0, -1).every(([, net]) => net === 0)).toBe(true);
  } finally {
    await site.close();
  }
});

test("the ready-to-sell checklist reads the real configuration", async () => {
  const bare = await createTestSite();
  const ready = await createTestSite({
    env: {
      SMTP_URL: "smtp://mail.example.net:587",
      OWNER_EMAIL: "owner@shop.example",
      PUBLIC_BASE_URL: "https://shop.example",
      SELLER_NAME: "Jeanne Martin EI",
      SELLER_ADDRESS: "1 rue de la Paix, 75002 Paris",
      HOSTING_PROVIDER: "Hetzner Online GmbH",
      MEDIATOR_NAME: "CM2C",
      CLAIMED_USERS: "120",
    },
  });
  try {
    const state = (site: typeof bare) => Object.fromEntries(overview(site.db, site.config, new Date()).checklist.map((i) => [i.id, i.ok]));
    expect(state(bare)).toEqual({
      seller: false,
      placeholders: false,
      payments: false,
      smtp: false,
      ownerEmail: false,
      backups: false,
      https: false,
    });
    // The testimonials are still the specification's, so placeholders stay to do.
    expect(state(ready)).toEqual({
      seller: true,
      placeholders: false,
      payments: false,
      smtp: true,
      ownerEmail: true,
      backups: false,
      https: true,
    });
  } finally {
    await bare.close();
    await ready.close();
  }
});

test("with BACKUP_URL the checklist says when the replica last received the database, and a replication error leaves it to do", async () => {
  const site = await createTestSite({ env: { BACKUP_URL: "file:///mnt/other-disk/site" } });
  try {
    const cookie = await ownerCookie(site);
    const page = async () => (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
    const backups = async () => overview(site.db, site.config, new Date()).checklist.find((i) => i.id === "backups")?.ok;
    expect(await backups()).toBe(true);
    expect(await page()).toContain("no copy made yet");
    const status = { enabled: true, target: "file", running: true, lastError: null, restarts: 0 };
    writeReplicationStatus(site.dataDir, { ...status, lastReplicatedAt: new Date("2026-03-02T09:15:00Z") });
    expect(await page()).toContain("last copy 2 Mar 2026, 10:15");
    writeReplicationStatus(site.dataDir, { ...status, lastReplicatedAt: null, lastError: "permission denied" });
    expect(await backups()).toBe(false);
    expect(await page()).toContain("Last error: permission denied");
  } finally {
    await site.close();
  }
});
