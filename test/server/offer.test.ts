import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db/client";
import { emailLeads, mailOutbox } from "../../db/schema";
import { createWriter } from "../../db/writer";
import { composeMail } from "../../server/shop/mail/compose";
import { SOURCE_MESSAGES as MESSAGES } from "../../server/site/locales";
import { firstStartedAt } from "../../server/site/offer";
import { LOCALES, type Locale } from "../../shared/locales";
import { defaultOfferEnd, formatOfferEnd } from "../../shared/offer";
import { formatMoney } from "../../shared/price";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

// An honest offer: the early-bird badge, the struck-through price and the end date while
// the offer runs; after OFFER_ENDS_AT none of them on any page, in the chat or in e-mails, and the
// price unchanged. By default the offer ends two weeks after the data folder's first start.

let site: TestSite | undefined;
afterEach(() => site?.close());

const NOW = new Date("2026-11-22T09:00:00Z");
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** What a visitor reads: the document without its scripts (the page data's JSON is not shown). */
const visibleText = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

/** "99 €", "€99": the struck-through price as each language writes it, not inside "29,99 €". */
function oldPricePattern(locale: Locale): RegExp {
  const formatted = formatMoney(9900, "EUR", locale).replace(/\s/g, "\\s");
  return new RegExp(`(?<![\\d.,])${formatted}(?![\\d.,])`);
}

/** The literal words of the offer's texts (before their first placeholder): "Launch offer — ends on"... */
function offerPhrases(locale: Locale): string[] {
  const m = MESSAGES[locale];
  const keys = ["heroBadge", "pricingSubtitle", "earlyBird", "offer.endsOn", "pricing.oldPrice"] as const;
  return keys.map((k) => m[k].split("{")[0]!.trim()).filter((p) => p.length >= 5);
}

async function everyPage(s: TestSite): Promise<{ locale: Locale; path: string; html: string }[]> {
  const pages: { locale: Locale; path: string; html: string }[] = [];
  for (const locale of LOCALES) {
    for (const page of PAGE_IDS) {
      const path = pathFor(page, locale);
      pages.push({ locale, path, html: await (await s.request(path)).text() });
    }
    const error = `${pathFor("payment", locale)}?error=provider`;
    pages.push({ locale, path: error, html: await (await s.request(error)).text() });
  }
  // The test card page, in French.
  const created = await s.request("/api/payment", json({ locale: "fr", acceptTerms: true }));
  const { url }: { url: string } = await created.json();
  pages.push({ locale: "fr", path: url, html: await (await s.request(url)).text() });
  return pages;
}

test("with OFFER_ENDS_AT in the past no page, chat answer or e-mail shows the struck-through price or a time-limited claim; the price is the same", async () => {
  site = await createTestSite({ env: { OFFER_ENDS_AT: "2026-01-31" }, now: () => NOW });
  const pages = await everyPage(site);
  expect(pages.length).toBe(PAGE_IDS.length * LOCALES.length + LOCALES.length + 1);
  for (const { locale, path, html } of pages) {
    expect({ path, del: html.includes("<del") }).toEqual({ path, del: false });
    expect({ path, oldPrice: oldPricePattern(locale).test(html) }).toEqual({ path, oldPrice: false });
    // Not in the visible text, nor anywhere in the page's source (its data carries no offer text).
    const text = visibleText(html);
    for (const phrase of offerPhrases(locale))
      expect({ path, phrase, shown: html.includes(phrase) }).toEqual({ path, phrase, shown: false });
    for (const stale of ["2 semaines", "2 weeks", "2 settimane", "2 semanas", 'data-testid="early-bird"', 'data-testid="offer-end"']) {
      expect({ path, stale, shown: text.includes(stale) }).toEqual({ path, stale, shown: false });
    }
    // The offer's end date is not in the page data either.
    expect({ path, date: html.includes(formatOfferEnd(new Date("2026-01-31T12:00:00Z"), locale)) }).toEqual({ path, date: false });
  }
  // Same price, said without a deadline; the meta description has no claim.
  const landing = pages.find((p) => p.path === "/en")!.html;
  expect(landing).toContain('data-testid="price">€29.99<');
  expect(landing).toContain("One payment, no subscription, nothing to renew.");
  expect(/<meta name="description" content="([^"]*)"/.exec(landing)?.[1]).toContain("€29.99");

  // The chat answers the price question without the old price or the offer.
  for (const [locale, question] of [
    ["fr", "Combien ça coûte ?"],
    ["en", "How much does it cost?"],
    ["it", "Quanto costa?"],
    ["es", "¿Cuánto cuesta?"],
  ] as const) {
    const { message }: { message: string } = await (
      await site.request("/api/chat", json({ messages: [{ role: "user", content: question }], locale }))
    ).json();
    expect(message).toContain(formatMoney(2999, "EUR", locale));
    expect({ locale, oldPrice: oldPricePattern(locale).test(message) }).toEqual({ locale, oldPrice: false });
    for (const phrase of offerPhrases(locale))
      expect({ locale, phrase, said: message.includes(phrase) }).toEqual({ locale, phrase, said: false });
  }

  // The demo e-mail a lead receives says the price, and nothing about an offer.
  const lead = await site.request("/api/leads", json({ email: "lead@example.com", source: "exit_popup", ip_hash: null, locale: "en" }));
  expect(lead.status).toBeLessThan(300);
  const row = site.db
    .select()
    .from(mailOutbox)
    .all()
    .find((m) => m.kind === "demo");
  const mail = row === undefined ? null : await composeMail(row, site.config, site.content.current());
  expect(mail?.text).toContain("€29.99");
  expect(oldPricePattern("en").test(`${mail?.html} ${mail?.text}`)).toBe(false);
  for (const phrase of offerPhrases("en")) expect(`${mail?.text}`.includes(phrase)).toBe(false);
  expect(site.db.select().from(emailLeads).all()).toHaveLength(1);
});

test("with OFFER_ENDS_AT in the future the badge, the struck-through price and the end date formatted per language appear", async () => {
  site = await createTestSite({ env: { OFFER_ENDS_AT: "2026-12-31" }, now: () => NOW });
  const expected = { fr: "31 décembre 2026", en: "31 December 2026", it: "31 dicembre 2026", es: "31 de diciembre de 2026" } as const;
  for (const locale of LOCALES) {
    const landing = await (await site.request(pathFor("landing", locale))).text();
    expect(landing).toContain('data-testid="early-bird"');
    expect(landing).toMatch(/<del class="pricing-card__old" data-testid="old-price">/);
    expect(oldPricePattern(locale).test(visibleText(landing))).toBe(true);
    const badge = /data-testid="hero-badge">([\s\S]*?)<\/p>/.exec(landing)?.[1] ?? "";
    expect({ locale, badge: badge.includes(expected[locale]) }).toEqual({ locale, badge: true });
    const payment = await (await site.request(pathFor("payment", locale))).text();
    expect(/data-testid="offer-end">([^<]*)</.exec(payment)?.[1]).toContain(expected[locale]);
    expect(payment).toContain('data-testid="old-price"');
  }
  expect(await (await site.request("/")).text()).toContain("Offre de lancement jusqu&#x27;au 31 décembre 2026");
  expect(await (await site.request("/en")).text()).toContain("The launch offer ends on 31 December 2026.");
});

test("on a new data folder the offer runs until the end of the 14th day after the first start, and a restart keeps that date", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "site-offer-"));
  try {
    site = await createTestSite({ dataDir, now: () => NOW });
    const ends = formatOfferEnd(defaultOfferEnd(NOW), "en");
    expect(ends).toBe("6 December 2026");
    const landing = await (await site.request("/en")).text();
    expect(landing).toContain("Launch offer — ends on 6 December 2026");
    expect(landing).toContain('data-testid="old-price"');
    await site.close();

    // Restarted a week later: still the same end, not two weeks from the restart.
    const later = new Date(NOW.getTime() + 7 * 24 * 3600 * 1000);
    site = await createTestSite({ dataDir, now: () => later });
    expect(await (await site.request("/en")).text()).toContain("Launch offer — ends on 6 December 2026");
    await site.close();

    // After the last day, the claims are gone.
    const after = new Date("2026-12-07T00:30:00+01:00");
    site = await createTestSite({ dataDir, now: () => after });
    const ended = visibleText(await (await site.request("/en")).text());
    expect(ended.includes("Launch offer")).toBe(false);
    expect(ended.includes("<del")).toBe(false);
  } finally {
    await site?.close();
    site = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("the offer's end takes effect on a running site without a restart", async () => {
  let clock = new Date("2026-12-31T22:30:00Z"); // 23:30 in Paris: the last hour of the offer
  site = await createTestSite({ env: { OFFER_ENDS_AT: "2026-12-31" }, now: () => clock });
  expect(await (await site.request("/en")).text()).toContain('data-testid="old-price"');
  clock = new Date("2026-12-31T23:00:01Z"); // just past midnight in Paris
  const page = await (await site.request("/en")).text();
  expect(page.includes("<del")).toBe(false);
  expect(page.includes('data-testid="early-bird"')).toBe(false);
  const { message }: { message: string } = await (
    await site.request("/api/chat", json({ messages: [{ role: "user", content: "How much does it cost?" }], locale: "en" }))
  ).json();
  expect(oldPricePattern("en").test(message)).toBe(false);
});

test("two processes starting at once on one new data folder record a single first start", async () => {
  const dir = mkdtempSync(join(tmpdir(), "site-first-start-"));
  try {
    const a = openDb(join(dir, "site.db"));
    const b = openDb(join(dir, "site.db"));
    const [first, second] = await Promise.all([
      firstStartedAt(createWriter(a, { waitMs: 5000 }), new Date("2026-11-22T09:00:00Z")),
      firstStartedAt(createWriter(b, { waitMs: 5000 }), new Date("2026-11-22T09:00:05Z")),
    ]);
    expect(second.getTime()).toBe(first.getTime());
    const later = await firstStartedAt(createWriter(a, { waitMs: 5000 }), new Date("2027-01-01T00:00:00Z"));
    expect(later.getTime()).toBe(first.getTime());
    a.$client.close();
    b.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("OFFER_ENDS_AT must be a real date; a day means the whole day in the seller's time zone", async () => {
  const { loadConfig } = await import("../../server/platform/config");
  expect(() => loadConfig({ OFFER_ENDS_AT: "next week" })).toThrow(/OFFER_ENDS_AT/);
  expect(() => loadConfig({ OFFER_ENDS_AT: "2026-02-30" })).toThrow(/OFFER_ENDS_AT/);
  expect(loadConfig({ OFFER_ENDS_AT: "2026-12-31" }).contentSeed.offerEndsAt?.toISOString()).toBe("2026-12-31T22:59:59.999Z");
  expect(loadConfig({ OFFER_ENDS_AT: "2026-07-14" }).contentSeed.offerEndsAt?.toISOString()).toBe("2026-07-14T21:59:59.999Z");
  expect(loadConfig({ OFFER_ENDS_AT: "2026-12-31T18:00:00+01:00" }).contentSeed.offerEndsAt?.toISOString()).toBe(
    "2026-12-31T17:00:00.000Z",
  );
});
