import { afterAll, expect, test } from "bun:test";
import { checkContent } from "../../server/site/content/check";
import { referencePrice } from "../../server/site/content/price-reference";
import {
  listVersions,
  NothingToPublishError,
  publish,
  publishDraft,
  readDraft,
  readPriceHistory,
  readPublished,
  restoreVersion,
  StaleContentError,
  saveDraft,
} from "../../server/site/content/store";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { CONTENT_SECTIONS, type ContentDocument, defaultContent, textFamily, textLimit } from "../../shared/content";
import { LOCALES } from "../../shared/locales";
import { createTestSite, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// The owner's content (docs/content.md): published versions kept with the shop's data, what the
// pages show after a publish, restore, the texts' fallbacks and checks, the price history's
// reference, and the environment's values seeding the content once.

const sites: TestSite[] = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});
async function site(options: Parameters<typeof createTestSite>[0] = {}) {
  const s = await createTestSite(options);
  sites.push(s);
  return s;
}

const edited = (document: ContentDocument, change: (d: ContentDocument) => void): ContentDocument => {
  const copy = structuredClone(document);
  change(copy);
  return copy;
};

const page = async (s: TestSite, path: string) => {
  const response = await s.request(path);
  return { status: response.status, etag: response.headers.get("etag"), html: await response.text() };
};

test("a publish changes what every page says at once, with new bytes and ETag; restoring the earlier version brings the old bytes back", async () => {
  const s = await site();
  const before = { fr: await page(s, "/"), en: await page(s, "/en"), it: await page(s, "/it") };
  expect(before.fr.html).toContain("Tous les films et séries. Un seul paiement. À vie.");

  const opened = readPublished(s.db);
  expect(opened.version).toBe(0);
  const document = edited(opened.document, (d) => {
    d.texts.heroTitle = { fr: "Votre cinéma, pour toujours.", en: "Your cinema, for good." };
    d.faq.push({
      id: "catalogue",
      shown: true,
      builtIn: null,
      question: { fr: "Que contient le catalogue ?" },
      answer: { fr: "Des films du domaine public." },
    });
  });
  await publish(s.write, { document, openedVersion: 0, by: "Anna (passkey)", now: new Date() });
  expect(s.content.refresh()).toBe(true);

  const after = { fr: await page(s, "/"), en: await page(s, "/en"), it: await page(s, "/it") };
  expect(after.fr.html).toContain("Votre cinéma, pour toujours.");
  expect(after.fr.etag).not.toBe(before.fr.etag);
  expect(after.fr.html).toMatch(/Que contient le catalogue.\?/);
  expect(after.en.html).toContain("Your cinema, for good.");
  // An owner's entry written in French only is left out of the other languages.
  expect(after.en.html).not.toContain("Que contient le catalogue");
  expect(after.en.html).not.toContain("catalogue ?");
  // A language without the owner's text shows its own default, never another language's.
  expect(after.it.html).toContain("Tutti i film e le serie");
  expect(after.it.html).not.toContain("Votre cinéma");
  // The five built-in entries stay, in every language.
  expect(after.en.html.match(/data-testid="faq-item"/g)).toHaveLength(5);
  expect(after.fr.html.match(/data-testid="faq-item"/g)).toHaveLength(6);

  // The history says who published, when and what changed.
  const [latest] = listVersions(s.db);
  expect(latest).toMatchObject({ version: 1, publishedBy: "Anna (passkey)", changes: ["texts.heroTitle.fr", "texts.heroTitle.en", "faq"] });

  await restoreVersion(s.write, { version: 0, by: "Anna (passkey)", now: new Date() });
  s.content.refresh();
  const restored = await page(s, "/");
  expect(restored.html).toBe(before.fr.html);
  expect(restored.etag).toBe(before.fr.etag);
  expect(readPublished(s.db)).toMatchObject({ version: 2, restoredFrom: 0 });
});

test("a second owner publishing from a page opened before another publish is told so, and nothing is lost", async () => {
  const s = await site();
  const draft = readDraft(s.db);
  // Owner A saves and publishes; owner B's page still shows the draft as A found it.
  const a = await saveDraft(s.write, {
    openedRevision: draft.revision,
    document: edited(draft.document, (d) => {
      d.texts.heroTitle = { fr: "Titre d'Anna" };
    }),
    by: "Anna",
    now: new Date(),
  });
  await expect(
    saveDraft(s.write, {
      openedRevision: draft.revision,
      document: edited(draft.document, (d) => {
        d.texts.heroTitle = { fr: "Titre de Bruno" };
      }),
      by: "Bruno",
      now: new Date(),
    }),
  ).rejects.toBeInstanceOf(StaleContentError);
  await publishDraft(s.write, { openedRevision: a.revision, by: "Anna", now: new Date() });
  // A stale publish from B's page: refused, Anna's version stays.
  await expect(publishDraft(s.write, { openedRevision: a.revision, by: "Bruno", now: new Date() })).rejects.toBeInstanceOf(
    StaleContentError,
  );
  expect(readPublished(s.db).document.texts.heroTitle).toEqual({ fr: "Titre d'Anna" });
  // Publishing what is already published changes nothing.
  const now = readPublished(s.db);
  await expect(
    publish(s.write, { document: now.document, openedVersion: now.version, by: "Anna", now: new Date() }),
  ).rejects.toBeInstanceOf(NothingToPublishError);
});

test("a text that breaks its placeholders, or is HTML, is refused with the field named; an empty text is a missing one", () => {
  const refused = checkContent(
    edited(defaultContent(), (d) => {
      d.texts.heroSubtitle = { fr: "Payez {prix} une fois." };
    }),
  );
  expect(refused).toMatchObject({ ok: false, problems: [{ path: "texts.heroSubtitle.fr", message: expect.stringContaining("{prix}") }] });
  const broken = checkContent(
    edited(defaultContent(), (d) => {
      d.texts["hero.priceNote"] = { en: "{price once" };
    }),
  );
  expect(broken).toMatchObject({
    ok: false,
    problems: [{ path: "texts.hero.priceNote.en", message: expect.stringContaining("placeholder") }],
  });
  const html = checkContent(
    edited(defaultContent(), (d) => {
      d.faq.push({ id: "x", shown: true, builtIn: null, question: { en: "Why?" }, answer: { en: "<b>Because</b>" } });
    }),
  );
  expect(html).toMatchObject({ ok: false, problems: [{ path: "faq[5].answer.en", message: expect.stringContaining("HTML") }] });
  const unknownKey = checkContent({ ...defaultContent(), texts: { "admin.title": { fr: "x" } } });
  expect(unknownKey).toMatchObject({ ok: false, problems: [{ path: expect.stringContaining("texts") }] });
  const empty = checkContent({ ...defaultContent(), texts: { heroTitle: { fr: "", en: "  " } } });
  expect(empty.ok && empty.document.texts.heroTitle).toEqual({});
  // The site's own values are allowed where the default uses them.
  expect(
    checkContent(edited(defaultContent(), (d) => (d.texts.heroSubtitle = { fr: "Payez {price}, une fois pour {siteName}." }))).ok,
  ).toBe(true);
});

test("every built-in text fits the length its family allows, in every language, so the limits refuse only an owner's overlong text", () => {
  const over: string[] = [];
  for (const section of CONTENT_SECTIONS)
    for (const key of section.keys)
      for (const locale of LOCALES) {
        const text = SOURCE_MESSAGES[locale][key];
        if (text.length > textLimit(key)) over.push(`${key} (${locale}): ${text.length} > ${textLimit(key)} (${textFamily(key)})`);
      }
  expect(over).toEqual([]);
  expect([textFamily("hero.getAccess"), textFamily("heroTitle"), textFamily("meta.description"), textFamily("feature1Desc")]).toEqual([
    "label",
    "title",
    "description",
    "paragraph",
  ]);
  // An older export's typed user count is read no more, and does not stop the file importing.
  const older = checkContent({ ...defaultContent(), offer: { ...defaultContent().offer, claimedUsers: 5000 } });
  expect(older.ok && older.document.offer).toEqual(defaultContent().offer);
  // The same limits hold for an import.
  const imported = checkContent({ ...defaultContent(), texts: { "cta.getAccess": { en: "x".repeat(61) } } });
  expect(imported).toMatchObject({
    ok: false,
    problems: [{ path: "texts.cta.getAccess.en", message: expect.stringContaining("at most 60") }],
  });
});

test("the reference price is the lowest price charged in the 30 days before the reduction began, and none on a new shop", () => {
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 24 * 60 * 60 * 1000);
  const eur = (priceMinor: number, n: number) => ({ priceMinor, currency: "EUR", since: day(n) });
  // A new shop: one price, nothing before it.
  expect(referencePrice([eur(2999, 0)], day(3))).toBeNull();
  // 59 € for forty days, then 29,99 €: 59 € was charged over the whole 30 days before.
  expect(referencePrice([eur(5900, 0), eur(2999, 40)], day(42))).toBe(5900);
  // A price live for ten days only (a shop younger than 30 days): no lowest price of 30 days to show.
  expect(referencePrice([eur(5900, 0), eur(2999, 10)], day(12))).toBeNull();
  // A price live for minutes is no reference either.
  expect(referencePrice([eur(5900, 0), { ...eur(2999, 0), since: new Date(day(0).getTime() + 3 * 60_000) }], day(1))).toBeNull();
  // 59 € until day 5, 49 € from day 5 to 50, then 29,99 €: within the 30 days before day 50 only 49 € was charged.
  expect(referencePrice([eur(5900, 0), eur(4900, 5), eur(2999, 50)], day(51))).toBe(4900);
  // A price that went up shows no reduction.
  expect(referencePrice([eur(1999, 0), eur(2999, 40)], day(42))).toBeNull();
  // Another currency is not a reference, and one charged inside the 30 days leaves none in this one.
  expect(referencePrice([{ priceMinor: 9900, currency: "USD", since: day(0) }, eur(2999, 40)], day(42))).toBeNull();
  expect(referencePrice([{ priceMinor: 9900, currency: "USD", since: day(0) }, eur(5900, 25), eur(2999, 40)], day(42))).toBeNull();
  expect(referencePrice([{ priceMinor: 9900, currency: "USD", since: day(0) }, eur(5900, 5), eur(2999, 40)], day(42))).toBe(5900);
});

test("the price history records what the site charged, with the test clock; production shows a struck price only against it", async () => {
  let at = new Date("2026-11-01T10:00:00Z");
  const s = await site({ env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true", OFFER_ENDS_AT: "2026-12-31" }, now: () => at });
  // A new shop in production: no struck-through price, no launch offer.
  expect((await page(s, "/en")).html).not.toContain('data-testid="old-price"');
  expect(readPublished(s.db).document.offer.showReference).toBe(false);
  // A reduction 19 days after the first start, even with the reference asked for: 29,99 € was not
  // charged over the whole 30 days before it, so nothing is struck through.
  at = new Date("2026-11-20T10:00:00Z");
  let opened = readPublished(s.db);
  await publish(s.write, {
    document: edited(opened.document, (d) => {
      d.offer.priceMinor = 2499;
      d.offer.showReference = true;
    }),
    openedVersion: opened.version,
    by: "test",
    now: at,
  });
  s.content.refresh();
  expect((await page(s, "/en")).html).not.toContain('data-testid="old-price"');
  // Back to 29,99 €, then 19,99 € 31 days later: 29,99 € is the lowest price of the 30 days before.
  at = new Date("2026-11-21T10:00:00Z");
  opened = readPublished(s.db);
  await publish(s.write, {
    document: edited(opened.document, (d) => (d.offer.priceMinor = 2999)),
    openedVersion: opened.version,
    by: "test",
    now: at,
  });
  at = new Date("2026-12-22T10:00:00Z");
  opened = readPublished(s.db);
  await publish(s.write, {
    document: edited(opened.document, (d) => (d.offer.priceMinor = 1999)),
    openedVersion: opened.version,
    by: "test",
    now: at,
  });
  s.content.refresh();
  expect(readPriceHistory(s.db).map((p) => p.priceMinor)).toEqual([2999, 2499, 2999, 1999]);
  const en = (await page(s, "/en")).html;
  expect(en).toMatch(/<del[^>]*data-testid="old-price"[^>]*>.*?€29.99/);
  expect(en).toContain("€19.99");
});

test("the environment's content variables seed the content once; afterwards they are ignored and the log says where to change them", async () => {
  const first = await site({ env: { PRICE: "19", SITE_NAME: "Ciné Maison" } });
  expect(readPublished(first.db)).toMatchObject({ version: 1, publishedBy: "environment" });
  expect(readPublished(first.db).document.offer).toMatchObject({ priceMinor: 1900, productName: "Ciné Maison" });
  expect((await page(first, "/")).html).toContain("Ciné Maison");
  const again = await site({ env: { PRICE: "25" }, dataDir: first.dataDir });
  expect(again.content.current().site.priceMinor).toBe(1900);
  expect(again.logs.join("\n")).toContain("PRICE is set in the environment but no longer read");
  // A typed user count seeds nothing, even at the first start: the figure is the site's count.
  const counted = await site({ env: { CLAIMED_USERS: "5000" } });
  expect(readPublished(counted.db).version).toBe(0);
  expect(counted.logs.join("\n")).toContain("CLAIMED_USERS is never used: the home page's figure is counted by the site");
});
