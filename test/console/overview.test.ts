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

    const figures = overview(site.db, site.config, new Date(), site.content.current().site).figures;
    for (const period of ["today", "week", "month", "all"] as const) {
      expect(figures[period]).toEqual({ gross: 5998, refunded: 2999, net: 2999, paidOrders: 2, refundedOrders: 1 });
    }
    const fr = await (await site.request("/admin", { headers: { cookie, "accept-language": "fr-FR" } })).text();
    expect(fr).toContain("29,99\u00a0€");
    expect(fr).toContain("59,98\u00a0€");
    expect(fr).toContain("50\u00a0%");
    // The VAT scheme in force (VAT_SCHEME, fr in development) said in words, not as the setting's value.
    expect(fr).toContain("TVA : française : 20 % sur les ventes dans l&#x27;UE, aucune hors de l&#x27;UE ni en autoliquidation");
    const en = await (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
    expect(en).toContain("€29.99");
    expect(en).toContain("Refund rate");
    expect(en).toContain("VAT: French: 20% on sales in the EU, none outside the EU or on reverse charge");
  } finally {
    await site.close();
  }
});

test("the overview says the VAT each sale was invoiced, not 20 % on every sale: per rate, and the sales without any", async () => {
  const site = await createTestSite({ env: { VAT_SCHEME: "fr" } });
  try {
    const cookie = await ownerCookie(site);
    const en = async () =>
      (await (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text()).replace(/\u00a0/g, " ");
    // No sale yet: nothing invoiced to speak of.
    expect(await en()).not.toContain('data-testid="vat-charged"');
    await payWithTestCard(site, { locale: "fr", email: "fr@example.com", country: "FR" });
    await payWithTestCard(site, { locale: "en", email: "us@example.com", country: "US" });
    await payWithTestCard(site, { locale: "en", email: "ca@example.com", country: "CA" });
    const page = await en();
    expect(page).toContain("VAT invoiced so far: no VAT on 2 sales; 20% (FR) on 1 sale, €5.00");
    const fr = await (await site.request("/admin", { headers: { cookie, "accept-language": "fr-FR" } })).text();
    expect(fr.replace(/[\u00a0\u202f]/g, " ")).toContain(
      "TVA facturée jusqu&#x27;ici : sans TVA sur 2 ventes ; 20 % (FR) sur 1 vente, 5,00 €",
    );
  } finally {
    await site.close();
  }
});

test("the chart holds the last 30 Paris days, today's net revenue in the last one", async () => {
  const site = await createTestSite();
  try {
    await payWithTestCard(site, { locale: "fr", email: "c@example.com" });
    const now = new Date();
    const { chart } = overview(site.db, site.config, now, site.content.current().site);
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
      SELLER_REGISTRATION: "RCS Paris 123 456 789",
      MEDIATOR_URL: "https://www.cm2c.net",
      VAT_SCHEME: "fr",
      CLAIMED_USERS: "120",
    },
  });
  try {
    const state = (site: typeof bare) =>
      Object.fromEntries(overview(site.db, site.config, new Date(), site.content.current().site).checklist.map((i) => [i.id, i.ok]));
    expect(state(bare)).toEqual({
      seller: false,
      // Nothing to do about a struck-through price: the item only says none is shown yet, and why.
      placeholders: true,
      payments: false,
      smtp: false,
      ownerEmail: false,
      backups: false,
      https: false,
    });
    expect(state(ready)).toEqual({
      seller: true,
      placeholders: true,
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

test("the checklist's seller item names every variable production refuses to start without, and the missing ones; the placeholders item says where the reference price is set", async () => {
  const env = {
    SELLER_NAME: "Jeanne Martin EI",
    SELLER_ADDRESS: "1 rue de la Paix, 75002 Paris",
    HOSTING_PROVIDER: "Hetzner Online GmbH",
    MEDIATOR_NAME: "CM2C",
  };
  const site = await createTestSite({ env });
  try {
    expect(overview(site.db, site.config, new Date(), site.content.current().site).checklist.find((i) => i.id === "seller")?.ok).toBe(
      false,
    );
    const cookie = await ownerCookie(site);
    const html = await (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
    const seller = html
      .slice(html.indexOf("seller identity"), html.indexOf("</li>", html.indexOf("seller identity")))
      .replace(/<[^>]+>/g, "");
    // What a production start refuses without (test/server/production-start.system.test.ts lists them).
    for (const variable of [
      "SELLER_NAME",
      "SELLER_ADDRESS",
      "SELLER_REGISTRATION",
      "HOSTING_PROVIDER",
      "MEDIATOR_NAME",
      "MEDIATOR_URL",
      "VAT_SCHEME",
    ]) {
      expect(seller).toContain(variable);
    }
    expect(seller).toContain("missing: SELLER_REGISTRATION, MEDIATOR_URL, VAT_SCHEME");
    // ORIGINAL_PRICE is no longer read: the reference comes from the price history, shown in the
    // Content area. A new shop is told that none is shown and why, not asked to set one.
    expect(html).toContain(
      '<span class="note">Good to know:</span> no struck-through price is shown, and none is needed to sell. One can be shown only after a price has been charged for 30 days',
    );
    expect(html).not.toContain("reference price set");
    expect(html).not.toContain("ORIGINAL_PRICE");
  } finally {
    await site.close();
  }
});

test("the checklist's backups item says when the last replication happened and what went wrong, in the owner's language", async () => {
  const site = await createTestSite({ env: { BACKUP_URL: "file:///mnt/other-disk/site" } });
  try {
    const cookie = await ownerCookie(site);
    const page = async () => (await site.request("/admin", { headers: { cookie, "accept-language": "en" } })).text();
    // Set, but nothing replicated yet: still to do.
    expect(overview(site.db, site.config, new Date(), site.content.current().site).checklist.find((i) => i.id === "backups")?.ok).toBe(
      false,
    );
    expect(await page()).toContain("no replication yet");

    const at = new Date("2026-05-01T10:00:00Z");
    const status = {
      enabled: true,
      target: "file:///mnt/other-disk/site",
      running: true,
      lastReplicatedAt: at,
      lastError: null,
      restarts: 0,
    };
    writeReplicationStatus(site.dataDir, status);
    expect(overview(site.db, site.config, new Date(), site.content.current().site).checklist.find((i) => i.id === "backups")?.ok).toBe(
      true,
    );
    const fine = await page();
    expect(fine).toContain("continuous backups off the machine");
    expect(fine).toContain("last replication: ");
    expect(fine).not.toContain("this version makes none");

    writeReplicationStatus(site.dataDir, { ...status, running: false, lastError: "litestream exited with code 1" });
    expect(overview(site.db, site.config, new Date(), site.content.current().site).checklist.find((i) => i.id === "backups")?.ok).toBe(
      false,
    );
    const fr = await (await site.request("/admin", { headers: { cookie, "accept-language": "fr" } })).text();
    expect(fr).toContain("dernier problème");
    expect(fr).toContain("litestream exited with code 1");
  } finally {
    await site.close();
  }
});
