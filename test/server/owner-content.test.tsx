import { afterAll, expect, test } from "bun:test";
import { publish, readPublished } from "../../server/site/content/store";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { buildSiteFacts } from "../../shared/site-facts";
import { createTestSite, type TestSite } from "../support/app";
import { testConfig } from "../support/config";
import { testSite } from "../support/content";
import { useDom } from "../support/dom";
import { serverHtml } from "../support/islands";
import { makePageData } from "../support/page-data";
import { PRODUCTION_READY_ENV } from "../support/production-env";

// Claims true in production: no review but buyers' published ones, no user count but the site's own
// (from the owner's threshold), no struck-through 99 € but against a price really charged.
// Development shows its sample reviews, marked as such, and the sample reference price.
// The launch offer goes with the reference price: the price is the same once the offer ends, so
// without a reference there is nothing it offers, and no end date to announce.

useDom();
// Loaded before the tests run: it registers its own hooks.
await import("@testing-library/react");
const { LandingPage } = await import("../../client/pages/landing");

const sites: TestSite[] = [];
afterAll(async () => {
  for (const site of sites) await site.close();
});
async function site(env: Record<string, string>) {
  const s = await createTestSite({ env });
  sites.push(s);
  return s;
}

const READY = { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" };
/** Every page of the route table in every language, as served. */
async function everyPage(s: TestSite) {
  const pages: { path: string; html: string }[] = [];
  for (const locale of LOCALES)
    for (const id of PAGE_IDS) {
      const path = pathFor(id, locale);
      const response = await s.request(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      pages.push({ path, html: await response.text() });
    }
  return pages;
}

/** The launch offer's name in each language (the badge, the pricing card's label). */
const LAUNCH_OFFER = /Offre de lancement|Launch offer|Offerta di lancio|Oferta de lanzamiento/i;

/** What each page shows of the claims. */
const claimsOf = (html: string) => ({
  testimonials: html.includes('data-testid="review"') || html.includes('id="reviews"'),
  userCount: html.includes('data-testid="user-count"') || /2[\s\u00a0\u202f.,]?847/.test(html),
  struckPrice: html.includes("<del") || /[^\d,.]99[\s\u00a0\u202f]?€|€99\b/.test(html),
  launchOffer: LAUNCH_OFFER.test(html),
});

test("in production with no owner content, no page in any language shows a testimonial, a user count, a struck-through price or a launch offer", async () => {
  const pages = await everyPage(await site(READY));
  for (const { path, html } of pages) {
    expect({ path, ...claimsOf(html) }).toEqual({ path, testimonials: false, userCount: false, struckPrice: false, launchOffer: false });
  }
  // The layout stays whole: the landing page still has its offer, its price and its other sections.
  const landing = pages.find((p) => p.path === "/")?.html ?? "";
  for (const part of [
    'id="features"',
    'id="why"',
    'id="pricing"',
    'data-testid="price"',
    'data-testid="hero-badge"',
    'class="hero__price"',
  ])
    expect({ part, present: landing.includes(part) }).toEqual({ part, present: true });
});

test("in production, a CLAIMED_USERS figure is never shown, and a reduction against the price charged before is, in each language's format", async () => {
  // The shop charged 59 € for forty days, then the owner lowered the price to 29,99 € and chose to
  // show the reduction until the end of the year: 59 € is the lowest price of the 30 days before
  // it, so it is the reference.
  let at = new Date("2026-10-01T10:00:00Z");
  const s = await createTestSite({ env: { ...READY, CLAIMED_USERS: "1200", PRICE: "59" }, now: () => at });
  sites.push(s);
  at = new Date("2026-11-11T10:00:00Z");
  const opened = readPublished(s.db);
  await publish(s.write, {
    document: { ...opened.document, offer: { ...opened.document.offer, priceMinor: 2999, showReference: true, endsOn: "2026-12-31" } },
    openedVersion: opened.version,
    by: "test",
    now: at,
  });
  s.content.refresh();
  const pages = await everyPage(s);
  const landing = (path: string) => pages.find((p) => p.path === path)?.html ?? "";
  // A number typed by the owner is no evidence: the figure shown is the site's own count (docs/reviews.md).
  expect(landing("/")).not.toContain('data-testid="user-count"');
  expect(landing("/")).not.toMatch(/1[\u00a0\u202f ]200/);
  expect(landing("/")).toMatch(/<del[^>]*data-testid="old-price"/);
  expect(landing("/en")).toContain("€59");
  for (const locale of LOCALES)
    expect({ locale, launchOffer: LAUNCH_OFFER.test(landing(pathFor("landing", locale))) }).toEqual({ locale, launchOffer: true });
  expect(landing(pathFor("payment", "es"))).toMatch(/59[\u00a0 ]€/);
});

test("in production, buyers' published reviews are shown, not the samples", () => {
  const config = testConfig(READY);
  const site = testSite(config);
  const proof = {
    stamp: "1",
    count: 1,
    ratingSum: 5,
    latest: [
      {
        id: 1,
        rating: 5,
        text: "Très bien, installé en deux minutes.",
        name: "Inès B.",
        city: "Nantes",
        publishedAt: Date.UTC(2026, 10, 2),
        locale: "fr" as const,
        reply: null,
      },
    ],
    figure: null,
  };
  const facts = buildSiteFacts({ ...site, proof }, "fr");
  const data = makePageData();
  const html = serverHtml({ ...data, facts }, <LandingPage />);
  expect([...html.querySelectorAll("[data-testid=review]")].map((card) => card.textContent)).toEqual([expect.stringContaining("Inès B.")]);
  expect(html.querySelector("[data-testid=review-sample]")).toBeNull();
});

test("in development the sample reviews show, marked as examples, and no invented user count", async () => {
  const landing = await (await (await site({})).request("/")).text();
  expect(claimsOf(landing)).toEqual({ testimonials: true, userCount: false, struckPrice: true, launchOffer: true });
  expect(landing).toContain('data-testid="review-sample"');
});
