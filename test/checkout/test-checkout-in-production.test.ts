import { afterAll, beforeAll, expect, test } from "bun:test";
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };
import fr from "../../locales/fr.json" with { type: "json" };
import it from "../../locales/it.json" with { type: "json" };
import { overview } from "../../server/owner/console/overview";
import { dayPeriod } from "../../server/owner/digest/period";
import { digestPayload } from "../../server/owner/digest/service";
import { startupWarnings, TEST_CHECKOUT_WARNING } from "../../server/platform/production-readiness";
import { createSmtpTransport } from "../../server/shop/mail/transport";
import { recentPurchases } from "../../server/shop/social-proof/service";
import { LOCALES } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";
import { testConfig } from "../support/config";
import { PRODUCTION_READY_ENV } from "../support/production-env";
import { payWithTestCard } from "../support/purchase";
import { startSmtp, type TestSmtp } from "../support/smtp";

// A production site allowed to take orders with the built-in test checkout (ALLOW_TEST_CHECKOUT,
// no Stripe) says TEST everywhere a buyer or the owner could take an order for a real one.

const TEXTS = { fr, en, it, es };
const OWNER = "owner@stream-shop.fr";
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.stop());

const shop = (env: Record<string, string>) =>
  createTestSite({ env: { OWNER_EMAIL: OWNER, ...env }, transport: createSmtpTransport(smtp.url) });

/** The text of a page without its tags, spaces made single (the banner's words are split by tags). */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

const sales = (site: TestSite) => overview(site.db, site.config, new Date(), site.content.current().site).figures.all;

test("with the test checkout in production: a TEST banner on every page that leads to payment, in each language, the success page and e-mails marked, the orders out of revenue, digest and notice", async () => {
  const site = await shop({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" });
  try {
    expect(startupWarnings(site.config)[0]).toBe(TEST_CHECKOUT_WARNING);
    // No SMTP_URL in these settings: start-up says that no e-mail would leave the machine; with one, not.
    const mailWarning = (env: Record<string, string>) =>
      startupWarnings(testConfig({ ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", ...env })).filter((w) =>
        w.includes("no e-mail leaves this machine"),
      );
    expect(mailWarning({})).toHaveLength(1);
    expect(mailWarning({ SMTP_URL: "smtp://mail.example.com:587" })).toEqual([]);
    for (const locale of LOCALES) {
      for (const page of ["landing", "payment", "guide", "demo", "access"] as const) {
        const html = await (await site.request(pathFor(page, locale))).text();
        expect({ page, locale, banner: visible(html).includes(`TEST ${TEXTS[locale]["testCheckout.banner"]}`) }).toEqual({
          page,
          locale,
          banner: true,
        });
      }
    }

    const before = smtp.received.length;
    const { successPath } = await payWithTestCard(site, { locale: "it", email: "buyer@example.net" });
    const success = await (await site.request(successPath)).text();
    expect(visible(success)).toContain(`TEST ${it["testCheckout.banner"]}`);

    // The buyer's access e-mail and the owner's notice of the order: both say TEST, in the subject and above the text.
    const mails = (await smtp.waitFor(before + 2)).slice(before);
    for (const { mail, to } of mails) {
      // The owner's notice in the owner's language (the site's default), the buyer's in theirs.
      const texts = to.includes(OWNER) ? fr : it;
      expect({ to, subject: mail.subject?.startsWith("[TEST] ") && !mail.subject.startsWith("[TEST] [TEST]") }).toEqual({
        to,
        subject: true,
      });
      expect(mail.text?.startsWith(texts["mail.testMark"])).toBe(true);
      expect(mail.html || "").toContain(texts["mail.testMark"].replace(/'/g, "&#x27;").slice(0, 20));
    }

    // Paid with the test card, and counted nowhere as a sale.
    expect(sales(site)).toEqual({ gross: 0, refunded: 0, net: 0, paidOrders: 0, refundedOrders: 0 });
    const today = new Date().toISOString().slice(0, 10);
    const digest = await digestPayload({ db: site.db, write: site.write, config: site.config, now: () => new Date() }, dayPeriod(today));
    expect(digest.sales.paidOrders).toBe(0);
    expect(recentPurchases(site.db, new Date(), site.config, new Set(), new Set())).toEqual([]);
  } finally {
    await site.close();
  }
}, 60_000);

test("while trying the site out (not production) the test checkout is not marked and its orders count", async () => {
  const site = await shop({});
  try {
    expect(startupWarnings(site.config)).not.toContain(TEST_CHECKOUT_WARNING);
    const landing = await (await site.request("/en")).text();
    expect(landing).not.toContain("test-banner");
    const before = smtp.received.length;
    const { successPath } = await payWithTestCard(site, { locale: "en", email: "buyer@example.net" });
    expect(await (await site.request(successPath)).text()).not.toContain("test-banner");
    const mails = (await smtp.waitFor(before + 2)).slice(before);
    // The buyer's access e-mail is not marked (the owner's notice of a test order always said so).
    const access = mails.find(({ to }) => to.includes("buyer@example.net"))?.mail;
    expect(access?.subject?.startsWith("[TEST]")).toBe(false);
    expect(access?.text?.startsWith(en["mail.testMark"])).toBe(false);
    expect(sales(site).paidOrders).toBe(1);
  } finally {
    await site.close();
  }
}, 60_000);
