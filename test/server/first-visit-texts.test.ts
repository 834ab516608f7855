import { afterAll, expect, test } from "bun:test";
import { Window } from "happy-dom";
import { SOURCE_MESSAGES } from "../../server/site/locales";
import { LOCALES, type Locale } from "../../shared/locales";
import { endOfDayIn, SELLER_TIME_ZONE } from "../../shared/offer";
import { pathFor } from "../../shared/routes";
import { createTestSite, type TestSite } from "../support/app";

// What a first-time visitor reads on the landing page, the guide and the footer, in each language.

const sites: TestSite[] = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});

async function siteWithOfferEndingOn(day: string) {
  // The offer is running: the site's clock is a week before its end.
  const end = endOfDayIn(SELLER_TIME_ZONE, day);
  const site = await createTestSite({ env: { OFFER_ENDS_AT: day }, now: () => new Date(end.getTime() - 7 * 24 * 3600 * 1000) });
  sites.push(site);
  return site;
}

const defaultSite = await siteWithOfferEndingOn("2026-12-08");

async function documentOf(site: TestSite, path: string) {
  const response = await site.request(path);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  const window = new Window({ url: "http://localhost/" });
  window.document.write(await response.text());
  return window.document;
}

const textOf = (element: { textContent: string | null } | null | undefined) => (element?.textContent ?? "").replace(/\s+/g, " ").trim();

test("the price card, the page's description and the demo's caption list the same devices as the features, the TV included, in every language", async () => {
  for (const locale of LOCALES) {
    const page = await documentOf(defaultSite, pathFor("landing", locale));
    const card = textOf(page.querySelector(".pricing-card"));
    // The features' card names the devices before its colon ("Phone, tablet, computer and TV: ...").
    const devices = SOURCE_MESSAGES[locale].feature2Desc.split(/\s?:/)[0] ?? "";
    // The card may list them in its own words and order ("Up to 5 devices at a time: phone, tablet…"): each one is there.
    const each = devices
      .toLowerCase()
      .split(/,\s*|\s+(?:et|and|e|y)\s+/)
      .filter(Boolean);
    expect({ locale, tv: card.includes("TV"), missing: each.filter((d) => !card.toLowerCase().includes(d)) }).toEqual({
      locale,
      tv: true,
      missing: [],
    });
    // So does the demo video's caption over its devices scene.
    const caption = SOURCE_MESSAGES[locale]["demo.caption.devices"];
    expect({ locale, caption: caption.toLowerCase().includes(devices.toLowerCase()) }).toEqual({ locale, caption: true });
    const description = page.querySelector('meta[name="description"]')?.getAttribute("content") ?? "";
    expect({ locale, description: description.toLowerCase().includes(devices.toLowerCase()) }).toEqual({ locale, description: true });
  }
});

test("in French, no line can start with a colon, a semicolon, a question or exclamation mark: the space before them does not break", async () => {
  for (const path of ["/", "/guide", "/paiement", "/access", "/confidentialite"]) {
    const html = await (await defaultSite.request(path)).text();
    const breakable = [...html.matchAll(/[^\s>] [:;!?](?=[\s<])/g)].map((m) => m[0]);
    expect({ path, breakable }).toEqual({ path, breakable: [] });
  }
});

test("Italian elides the article before a day that starts with a vowel sound: fino all'8, all'1, all'11, but fino al 6", async () => {
  const expected: [string, string][] = [
    ["2026-12-08", "fino all'8 dicembre 2026"],
    ["2027-01-01", "fino all'1 gennaio 2027"],
    ["2026-12-11", "fino all'11 dicembre 2026"],
    ["2026-12-06", "fino al 6 dicembre 2026"],
  ];
  for (const [day, badge] of expected) {
    const site = day === "2026-12-08" ? defaultSite : await siteWithOfferEndingOn(day);
    const page = await documentOf(site, "/it");
    expect(textOf(page.querySelector("[data-testid=hero-badge]"))).toBe(`Offerta di lancio ${badge}`);
    const subtitle = textOf(page.querySelector("#pricing .section-heading p"));
    expect(subtitle).toBe(
      `L'offerta di lancio termina ${badge.startsWith("fino all'") ? "l'" : "il "}${badge.replace(/^fino all?'? ?/, "")}.`,
    );
    const payment = await documentOf(site, "/it/paiement");
    expect(textOf(payment.body)).toContain(`Offerta valida ${badge}`);
  }
});

test("French writes the first day of a month as '1er'", async () => {
  const site = await siteWithOfferEndingOn("2027-01-01");
  const page = await documentOf(site, "/");
  expect(textOf(page.querySelector("[data-testid=hero-badge]"))).toBe("Offre de lancement jusqu'au 1er janvier 2027");
});

test("the buyers' figure is grouped as each language writes it: 2 847, 2,847, 2.847, 2.847", async () => {
  // The figure the minute's check records (server/shop/reviews/invites.ts), as if 2,847 buyers had paid.
  const { recordFigure } = await import("../../server/shop/reviews/store");
  await defaultSite.write((tx) => recordFigure(tx, { kind: "buyers", count: 2847 }, new Date()));
  defaultSite.content.refresh();
  const expected: Record<Locale, string> = { fr: "2 847", en: "2,847", it: "2.847", es: "2.847" };
  for (const locale of LOCALES) {
    const meta = textOf((await documentOf(defaultSite, pathFor("landing", locale))).querySelector(".hero__meta")).replace(
      /\u202f|\u00a0/g,
      " ",
    );
    expect({ locale, count: meta.includes(expected[locale]) }).toEqual({ locale, count: true });
  }
});

test("the English texts spell e-mail one way and name the offer one way", () => {
  const texts = Object.entries(SOURCE_MESSAGES.en).map(([key, text]) => ({ key, text: text.replace(/\{[^}]*\}/g, "") }));
  expect(texts.filter(({ text }) => /\bemails?\b/i.test(text.replace(/e-mail/gi, ""))).map((t) => t.key)).toEqual([]);
  expect(texts.filter(({ text }) => /early[ -]bird/i.test(text)).map((t) => t.key)).toEqual([]);
});

test("the purchase toast's sentence is in the past tense, since the sale it tells may be days old ('yesterday', '8 days ago')", () => {
  const justNow = /\bjust\b|vient d[e']|appena|acaba de/i;
  for (const locale of LOCALES)
    for (const key of ["socialProof.text", "socialProof.textNoCity"] as const) {
      expect({ locale, key, text: SOURCE_MESSAGES[locale][key] }).toEqual({ locale, key, text: expect.not.stringMatching(justNow) });
    }
});

test("the hero's second button says it opens the demo video, in every language", async () => {
  const words: Record<Locale, RegExp> = { fr: /démo/i, en: /demo/i, it: /demo/i, es: /demo/i };
  for (const locale of LOCALES) {
    const page = await documentOf(defaultSite, pathFor("landing", locale));
    const button = page.querySelector(".hero [data-demo-button]");
    expect({ locale, text: textOf(button) }).toEqual({ locale, text: expect.stringMatching(words[locale]) });
  }
});

test("the exit popup's title is a timed offer, not a 'wait, don't leave', in every language", () => {
  for (const locale of LOCALES) {
    expect({ locale, title: SOURCE_MESSAGES[locale]["exitPopup.title"] }).toEqual({
      locale,
      title: expect.not.stringMatching(/wait|attendez|aspetta|espera/i),
    });
  }
});

test("the guide's 'can't find the e-mail?' and every page's footer link to the access-recovery form", async () => {
  for (const locale of LOCALES) {
    const access = pathFor("access", locale);
    const guide = await documentOf(defaultSite, pathFor("guide", locale));
    const lost = guide.querySelector(".guide-before .muted a");
    expect({ locale, href: lost?.getAttribute("href") }).toEqual({ locale, href: access });
    for (const page of ["landing", "payment", "guide", "terms"] as const) {
      const footer = (await documentOf(defaultSite, pathFor(page, locale))).querySelector(".site-footer");
      const links = [...(footer?.querySelectorAll("a") ?? [])].map((a) => a.getAttribute("href"));
      expect({ locale, page, access: links.includes(access) }).toEqual({ locale, page, access: true });
    }
  }
});
