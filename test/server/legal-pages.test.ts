import { afterEach, expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// Seller identity and legal pages: /mentions-legales, /cgv and /confidentialite in four
// languages, filled from configuration and from what the running site does, linked from every
// footer; while the owner's identity is unset (development) a marked placeholder, never a blank.

let site: TestSite | undefined;
afterEach(() => site?.close());

const IDENTITY = {
  SELLER_NAME: "Stream Shop SAS",
  SELLER_ADDRESS: "12 rue de la Paix, 75002 Paris, France",
  SELLER_REGISTRATION: "RCS Paris 912 345 678",
  HOSTING_PROVIDER: "Hébergeur SAS, 1 avenue du Serveur, 59100 Roubaix",
  MEDIATOR_NAME: "Médiateur Exemple",
  MEDIATOR_URL: "https://mediateur.stream-shop.fr",
  SUPPORT_EMAIL: "aide@stream-shop.fr",
};
const LEGAL_PAGES = ["legal-notice", "terms", "privacy"] as const;

const get = async (path: string) => {
  const response = await site!.request(path);
  return { status: response.status, html: await response.text() };
};
/** The document's text as a visitor reads it, entities decoded, without the page data script. */
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

test("the three legal pages answer at the same segment in every language, with lang, canonical and their own title", async () => {
  site = await createTestSite({ env: IDENTITY });
  expect(LOCALES.map((l) => pathFor("terms", l))).toEqual(["/cgv", "/en/cgv", "/it/cgv", "/es/cgv"]);
  expect(pathFor("legal-notice", "en")).toBe("/en/mentions-legales");
  expect(pathFor("privacy", "es")).toBe("/es/confidentialite");
  const titles = {
    "legal-notice": "Legal notice — Lifetime Stream",
    terms: "Terms of sale — Lifetime Stream",
    privacy: "Privacy policy — Lifetime Stream",
  };
  for (const page of LEGAL_PAGES) {
    for (const locale of LOCALES) {
      const path = pathFor(page, locale);
      const { status, html } = await get(path);
      expect({ path, status }).toEqual({ path, status: 200 });
      expect(html).toContain(`<html lang="${locale}"`);
      expect(html).toContain(`<link rel="canonical" href="http://localhost:3000${path}"/>`);
      expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    }
    expect(/<title>(.*?)<\/title>/.exec((await get(pathFor(page, "en"))).html)?.[1]).toBe(titles[page]);
  }
});

test("every page's footer links to the three legal pages in the page's language", async () => {
  site = await createTestSite({ env: IDENTITY });
  for (const locale of LOCALES) {
    for (const page of PAGE_IDS) {
      const path = pathFor(page, locale);
      const footer = /<footer class="site-footer">([\s\S]*)<\/footer>/.exec((await get(path)).html)?.[1] ?? "";
      for (const legal of LEGAL_PAGES)
        expect({ path, legal, linked: footer.includes(`href="${pathFor(legal, locale)}"`) }).toEqual({ path, legal, linked: true });
    }
  }
  const fr = /<footer class="site-footer">([\s\S]*)<\/footer>/.exec((await get("/")).html)?.[1] ?? "";
  expect(fr).toContain(">Mentions légales</a>");
  expect(fr).toContain(">Conditions générales de vente</a>");
  expect(fr).toContain(">Confidentialité</a>");
});

test("the legal notice names the seller, the register, the contact, the director and the host from configuration", async () => {
  site = await createTestSite({
    env: { ...IDENTITY, SELLER_VAT_ID: "FR12912345678", SELLER_PHONE: "+33 1 23 45 67 89", PUBLICATION_DIRECTOR: "Camille Durand" },
  });
  const page = text((await get("/mentions-legales")).html);
  for (const value of [
    "Stream Shop SAS",
    "12 rue de la Paix, 75002 Paris, France",
    "RCS Paris 912 345 678",
    "FR12912345678",
    "+33 1 23 45 67 89",
    "aide@stream-shop.fr",
    "Camille Durand",
    "Hébergeur SAS, 1 avenue du Serveur, 59100 Roubaix",
  ]) {
    expect({ value, shown: page.includes(value) }).toEqual({ value, shown: true });
  }
  expect(page).toContain("Directeur de la publication Camille Durand");
  expect(page.includes("à compléter")).toBe(false);
});

test("optional identity stays out when unset: no VAT line, no phone, and the seller directs the publication", async () => {
  site = await createTestSite({ env: IDENTITY });
  const notice = text((await get("/en/mentions-legales")).html);
  expect(notice.includes("VAT number")).toBe(false);
  expect(notice.includes("Phone")).toBe(false);
  expect(notice).toContain("Director of publication Stream Shop SAS");
  expect(text((await get("/en/cgv")).html).includes("VAT number")).toBe(false);
});

test("the terms state the product, price with VAT, payment, e-mail delivery, licence limit, guarantee, withdrawal waiver, mediator and law", async () => {
  site = await createTestSite({ env: { ...IDENTITY, LICENSE_ACTIVATION_LIMIT: "3", SELLER_VAT_ID: "FR12912345678" } });
  const { html } = await get("/en/cgv");
  const page = text(html);
  for (const heading of [
    "Seller",
    "Product",
    "Price",
    "Payment",
    "Delivery",
    "Licence",
    "Right of withdrawal",
    "7-day money-back guarantee",
    "Legal guarantee of conformity",
    "Complaints and mediation",
    "Applicable law",
  ]) {
    expect({ heading, found: new RegExp(`<h2 id="[a-z-]+-title">${heading}</h2>`).test(html) }).toEqual({ heading, found: true });
  }
  expect(page).toContain(
    "Lifetime Stream is sold by Stream Shop SAS, 12 rue de la Paix, 75002 Paris, France, registration: RCS Paris 912 345 678. Contact: aide@stream-shop.fr. VAT number: FR12912345678.",
  );
  expect(page).toContain("The price is €29.99, all taxes included, paid once.");
  expect(page).toContain("This site currently runs a test checkout: no card is charged");
  expect(page).toContain("One key may be active on up to 3 devices at the same time");
  expect(page).toContain("Directive 2011/83/EU, art. 16(m)");
  expect(page).toContain("within 7 days of your purchase");
  expect(page).toContain("Médiateur Exemple");
  expect(html).toContain('<a href="https://mediateur.stream-shop.fr">https://mediateur.stream-shop.fr</a>');
  expect(page).toContain("governed by French law");
  expect(html).toContain('<a href="/en/access">have it sent again</a>');
  expect(html).toContain('<a href="/en/confidentialite">privacy policy</a>');
  expect(page).toContain("Version of 28 November 2026");
});

test("with Stripe the terms and the privacy policy name Stripe as the card payment provider", async () => {
  site = await createTestSite({ env: { ...IDENTITY, STRIPE_SECRET_KEY: "sk_test_legal", STRIPE_WEBHOOK_SECRET: "whsec_legal" } });
  expect(text((await get("/en/cgv")).html)).toContain("You pay by card on the secure page of our payment provider, Stripe.");
  const privacy = text((await get("/en/confidentialite")).html);
  expect(privacy).toContain("Your card details go straight to Stripe");
  expect(privacy.includes("test checkout")).toBe(false);
});

test("the privacy policy states what is stored, the retention from configuration, the chat assistant in use, and no tracking cookies", async () => {
  site = await createTestSite({ env: { ...IDENTITY, LEAD_RETENTION_DAYS: "200", CHAT_RETENTION_DAYS: "30" } });
  const { html } = await get("/en/confidentialite");
  const page = text(html);
  expect(page).toContain("The controller of your data is Stream Shop SAS, 12 rue de la Paix, 75002 Paris, France.");
  expect(page).toContain("For how long: 200 days, then deleted automatically");
  expect(page).toContain("For how long: 30 days, then deleted automatically.");
  expect(page).toContain("a keyed hash of your IP address (never the address itself)");
  expect(page).toContain("The answers are written by a program running on our own server");
  expect(page.includes("Anthropic")).toBe(false);
  expect(page.includes("e-mail provider")).toBe(false);
  // No OWNER_EMAIL here: no digest e-mail carries the unanswered questions.
  expect(page.includes("summary e-mail")).toBe(false);
  expect(page).toContain("The site sets no cookies");
  expect(page).toContain("aide@stream-shop.fr");
  expect(page).toContain("Our host stores the site and its database: Hébergeur SAS, 1 avenue du Serveur, 59100 Roubaix.");
  // Headings in order: h1, then h2, with h3 only inside the "what we store" section.
  const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
  expect(levels[0]).toBe(1);
  for (let i = 1; i < levels.length; i++) expect(levels[i]! - levels[i - 1]!).toBeLessThanOrEqual(1);

  await site.close();
  site = await createTestSite({
    env: {
      ...IDENTITY,
      ANTHROPIC_API_KEY: "sk-ant-test-key",
      SMTP_URL: "smtp://mail.stream-shop.fr:587",
      OWNER_EMAIL: "owner@stream-shop.fr",
    },
  });
  const other = text((await get("/en/confidentialite")).html);
  expect(other).toContain("The questions the assistant could not answer are also sent to us in a summary e-mail");
  expect(other).toContain("The answers are written by Claude, a service of Anthropic (United States)");
  expect(other).toContain("E-mails are handed to our e-mail provider for delivery.");
  expect(other).toContain("For how long: 365 days");
  expect(other).toContain("For how long: 90 days");
});

test("in development, unset identity shows as a marked placeholder and the page says it is incomplete", async () => {
  site = await createTestSite();
  for (const locale of LOCALES) {
    for (const page of LEGAL_PAGES) {
      const { status, html } = await get(pathFor(page, locale));
      expect(status).toBe(200);
      expect(html).toContain('data-testid="legal-incomplete"');
    }
  }
  const notice = text((await get("/mentions-legales")).html);
  expect(notice).toContain("[à compléter par le propriétaire du site : Nom ou raison sociale]");
  expect(notice).toContain("[à compléter par le propriétaire du site : Hébergeur (nom, adresse, téléphone)]");
  expect(text((await get("/en/cgv")).html)).toContain(
    "is sold by [to be completed by the owner: Name], [to be completed by the owner: Address]",
  );
  expect(text((await get("/es/cgv")).html)).toContain("[a completar por el titular del sitio: Mediador de consumo]");
  // Production with the identity set: no placeholder anywhere.
  await site.close();
  site = await createTestSite({ env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" } });
  for (const page of LEGAL_PAGES) {
    const { html } = await get(pathFor(page, "en"));
    expect(text(html).includes("to be completed by the owner")).toBe(false);
    expect(html.includes('data-testid="legal-incomplete"')).toBe(false);
  }
});

test("with backups on, the privacy policy says where the copy of the database is kept and how long deleted data stays in it", async () => {
  site = await createTestSite({
    env: {
      ...IDENTITY,
      BACKUP_URL: "s3://shop-backups/site",
      BACKUP_S3_ENDPOINT: "https://s3.fr-par.scw.cloud",
      BACKUP_S3_ACCESS_KEY_ID: "backup-key-id",
      BACKUP_S3_SECRET_ACCESS_KEY: "backup-secret",
    },
  });
  const storage = text((await get("/en/confidentialite")).html);
  expect(storage).toContain("a continuous copy of the database is kept by an online storage service (s3.fr-par.scw.cloud)");
  expect(storage).toContain("within 8 days");
  expect(storage.includes("shop-backups")).toBe(false);
  expect(storage.includes("backup-key-id")).toBe(false);
  expect(text((await get("/confidentialite")).html)).toContain("service de stockage en ligne (s3.fr-par.scw.cloud)");

  await site.close();
  site = await createTestSite({ env: { ...IDENTITY, BACKUP_URL: "file:///mnt/other-disk/site" } });
  expect(text((await get("/en/confidentialite")).html)).toContain("kept on a second disk");

  await site.close();
  site = await createTestSite({ env: IDENTITY });
  expect(text((await get("/en/confidentialite")).html).includes("continuous copy")).toBe(false);
});
