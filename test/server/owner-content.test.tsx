import { afterAll, expect, test } from "bun:test";
import { LOCALES } from "../../shared/locales";
import { PAGE_IDS, pathFor } from "../../shared/routes";
import { useDom } from "../support/dom";
import { createTestSite, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";
import { serverHtml } from "../support/islands";
import { makePageData } from "../support/page-data";
import { buildSiteFacts, type Testimonial } from "../../shared/site-facts";
import { testConfig } from "../support/config";
import { testSite } from "../support/content";
import { publish, readPublished } from "../../server/site/content/store";

// Claims true in production: the specification's testimonials, its "more than 2,847 users" and its
// struck-through 99 € show only once the owner has set real ones. Development keeps showing them.
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
const LAUNCH_OFFER = /Offre de lancement|Launch offer|Offerta lancio|Oferta de lanzamiento/i;

/** What each page shows of the claims. */
const claimsOf = (html: string) => ({
  testimonials: html.includes('data-testid="testimonial"') || html.includes('id="testimonials"'),
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

test("in production, the user count the owner set and a reduction against the price charged before are shown, in each language's format", async () => {
  // The shop charged 59 € for ten days, then the owner lowered the price to 29,99 €: 59 € is the
  // lowest price of the 30 days before the reduction, so it is the reference.
  let at = new Date("2026-11-01T10:00:00Z");
  const s = await createTestSite({ env: { ...READY, CLAIMED_USERS: "1200", PRICE: "59" }, now: () => at });
  sites.push(s);
  at = new Date("2026-11-11T10:00:00Z");
  const opened = readPublished(s.db);
  await publish(s.write, {
    document: { ...opened.document, offer: { ...opened.document.offer, priceMinor: 2999 } },
    openedVersion: opened.version,
    by: "test",
    now: at,
  });
  s.content.refresh();
  const pages = await everyPage(s);
  const landing = (path: string) => pages.find((p) => p.path === path)?.html ?? "";
  expect(landing("/")).toContain('data-testid="user-count"');
  expect(landing("/")).toMatch(/1[\u00a0\u202f ]200/);
  expect(landing("/it")).toContain("1.200");
  expect(landing("/")).toMatch(/<del[^>]*data-testid="old-price"/);
  expect(landing("/en")).toContain("€59");
  for (const locale of LOCALES)
    expect({ locale, launchOffer: LAUNCH_OFFER.test(landing(pathFor("landing", locale))) }).toEqual({ locale, launchOffer: true });
  expect(landing(pathFor("payment", "es"))).toMatch(/59[\u00a0 ]€/);
});

test("in production, real reviews set by the owner are shown", () => {
  const config = testConfig(READY);
  const real: Testimonial[] = [{ name: "Inès B.", city: "Nantes", rating: 5, initials: "IB" }];
  const site = testSite(config);
  const facts = buildSiteFacts({ ...site, testimonials: real, ownerSet: { ...site.ownerSet, testimonials: true } }, "fr");
  const data = makePageData();
  const html = serverHtml({ ...data, facts }, <LandingPage />);
  expect([...html.querySelectorAll("[data-testid=testimonial]")].map((card) => card.textContent)).toEqual([
    expect.stringContaining("Inès B."),
  ]);
});

test("in development the specification's content shows as before", async () => {
  const landing = await (await (await site({})).request("/")).text();
  expect(claimsOf(landing)).toEqual({ testimonials: true, userCount: true, struckPrice: true, launchOffer: true });
});
