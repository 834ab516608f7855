import { afterEach, expect, test } from "bun:test";
import { cleanCity, initialOf, SAMPLE_PURCHASES } from "../../server/shop/social-proof/service";
import { createTestSite, type TestSite } from "../support/app";
import { PRODUCTION_READY_ENV } from "../support/production-env";
import { seedOrder } from "./seed-orders";

const NOW = new Date("2025-06-01T12:00:00Z");
const minutesBefore = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

let site: TestSite | undefined;
afterEach(() => site?.close());

async function socialProof(s: TestSite) {
  const response = await s.request("/api/social-proof");
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return response.json();
}

test("with no paid order there is nothing to show", async () => {
  site = await createTestSite({ now: () => NOW });
  seedOrder(site.db, { firstName: "Paul", city: "Nantes", paidAt: null, status: "pending" });
  expect(await socialProof(site)).toEqual({ entries: [] });
});

test("lists real paid orders of the last 30 days, newest first, with an initial, the city and the age", async () => {
  site = await createTestSite({ now: () => NOW });
  seedOrder(site.db, { firstName: "sophie", city: "Lyon", paidAt: minutesBefore(12), email: "sophie@example.com" });
  seedOrder(site.db, { firstName: null, city: "Bruxelles", paidAt: minutesBefore(3) });
  seedOrder(site.db, { firstName: "Élodie", city: "  Genève ", paidAt: minutesBefore(60 * 24 * 29) });
  // Not shown: too old, refunded, failed, not paid yet.
  seedOrder(site.db, { firstName: "Old", city: "Paris", paidAt: minutesBefore(60 * 24 * 31) });
  seedOrder(site.db, { firstName: "Refund", city: "Lille", paidAt: minutesBefore(5), status: "refunded" });
  seedOrder(site.db, { firstName: "Failed", city: "Nice", paidAt: null, status: "failed" });
  seedOrder(site.db, { firstName: "Pending", city: "Metz", paidAt: null, status: "pending" });
  // Shown without a city: none given.
  seedOrder(site.db, { firstName: "Nocity", city: null, paidAt: minutesBefore(1) });

  const body = await socialProof(site);
  expect(body).toEqual({
    entries: [
      { initial: "N.", city: null, minutesAgo: 1 },
      { initial: null, city: "Bruxelles", minutesAgo: 3 },
      { initial: "S.", city: "Lyon", minutesAgo: 12 },
      { initial: "É.", city: "Genève", minutesAgo: 60 * 24 * 29 },
    ],
  });
  // Nothing that identifies the buyer leaves the server.
  const text = JSON.stringify(body);
  expect(text).not.toContain("sophie");
  expect(text).not.toContain("@");
  expect(text).not.toContain("cs_test");
});

test("only purchases through the site's active payment provider count: never test checkouts on a live site", async () => {
  const seedAll = (s: TestSite) => {
    seedOrder(s.db, { city: "Toulouse", paidAt: minutesBefore(2), provider: "test" });
    seedOrder(s.db, { city: "Nantes", paidAt: minutesBefore(3), provider: "stripe", checkoutId: "cs_test_a1b2c3" });
    seedOrder(s.db, { city: "Lyon", paidAt: minutesBefore(4), provider: "stripe", checkoutId: "cs_live_a1b2c3" });
  };
  const cities = async (s: TestSite) => (await socialProof(s)).entries.map((e: { city: string }) => e.city);

  // The built-in test checkout: its own orders are the site's purchases, so the funnel can be tried
  // end to end.
  site = await createTestSite({ now: () => NOW });
  seedAll(site);
  expect(await cities(site)).toEqual(["Toulouse"]);
  site.close();

  // Live Stripe keys: the owner's earlier test-checkout and Stripe test-mode orders never show.
  site = await createTestSite({ now: () => NOW, env: { STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" } });
  seedAll(site);
  expect(await cities(site)).toEqual(["Lyon"]);
  site.close();

  // Stripe test keys (a staging site): Stripe's orders, not the built-in test checkout's.
  site = await createTestSite({ now: () => NOW, env: { STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" } });
  seedAll(site);
  expect(await cities(site)).toEqual(["Nantes", "Lyon"]);
  site.close();

  // A production server that allows the test checkout as a demo: those orders took no money.
  site = await createTestSite({ now: () => NOW, env: { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" } });
  seedAll(site);
  expect(await cities(site)).toEqual([]);
});

test("development shows sample purchases, marked, until a real one; production and the test suite never show a sample", async () => {
  // Development (the default NODE_ENV) with no purchase: the samples, each marked.
  site = await createTestSite({ now: () => NOW, env: { NODE_ENV: "development" } });
  const samples = (await socialProof(site)).entries;
  expect(samples).toEqual([...SAMPLE_PURCHASES]);
  expect(samples.length).toBeGreaterThan(1);
  expect(samples.every((e: { sample?: boolean }) => e.sample === true)).toBe(true);
  // A real purchase replaces them all: never a sample beside a real buyer.
  seedOrder(site.db, { firstName: "Sophie", city: "Lyon", paidAt: minutesBefore(12) });
  expect(await socialProof(site)).toEqual({ entries: [{ initial: "S.", city: "Lyon", minutesAgo: 12 }] });
  site.close();

  // Production, with Stripe and no sale yet, and with the test checkout allowed as a demo: nothing.
  for (const env of [
    { ...PRODUCTION_READY_ENV, STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc", SMTP_URL: "smtp://127.0.0.1:2525" },
    { ...PRODUCTION_READY_ENV, ALLOW_TEST_CHECKOUT: "true" },
  ]) {
    site = await createTestSite({ now: () => NOW, env });
    expect(await socialProof(site)).toEqual({ entries: [] });
    site.close();
  }

  // The test suite's servers (NODE_ENV=test): only the purchases a test makes.
  site = await createTestSite({ now: () => NOW });
  expect(await socialProof(site)).toEqual({ entries: [] });
});

test("initials and cities are cleaned before they are shown to other visitors", () => {
  expect(initialOf("  marie-claire")).toBe("M.");
  expect(initialOf("123")).toBeNull();
  expect(initialOf(null)).toBeNull();
  expect(cleanCity("Saint-Étienne\u0000\n")).toBe("Saint-Étienne");
  expect(cleanCity("   ")).toBeNull();
  expect(cleanCity("12345")).toBeNull();
  expect(cleanCity("A".repeat(100))).toBeNull();
  for (const city of ["Saint-Étienne", "L'Haÿ-les-Roses", "St. Louis", "Santa Cruz de Tenerife", "Montréal", "Köln"])
    expect(cleanCity(city)).toBe(city);
  for (const spam of [
    "Visit cheap-iptv.example for 5€ lifetime",
    "cheap-iptv.example",
    "Lyon http://x",
    "Paris!!!",
    "buy now at our shop today",
    "75001",
  ]) {
    expect({ spam, shown: cleanCity(spam) }).toEqual({ spam, shown: null });
  }
});

test("the purchase notice shows only orders whose buyer ticked the payment page's box", async () => {
  site = await createTestSite({ now: () => new Date() });
  const { payWithTestCard } = await import("../support/purchase");
  await payWithTestCard(site, { locale: "fr", email: "oui@example.com", name: "Océane Martin", city: "Lyon", inNotice: true });
  await payWithTestCard(site, { locale: "fr", email: "non@example.com", name: "Bruno Petit", city: "Nantes" });
  const body = await socialProof(site);
  expect(body.entries.map((e: { initial: string; city: string | null }) => [e.initial, e.city])).toEqual([["O.", "Lyon"]]);
  // The payment page offers the box, unchecked.
  const page = await (await site.request("/paiement")).text();
  expect(page).toMatch(/<input[^>]*id="show-in-notice"[^>]*>/);
  expect(page.match(/<input[^>]*id="show-in-notice"[^>]*>/)?.[0]).not.toContain("checked");
});
