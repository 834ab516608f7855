import { afterEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { deleteExpiredAnalytics } from "../../server/shop/analytics/retention";
import { openVisitorKeys, visitorKeysDir } from "../../server/shop/analytics/visitor-keys";
import { createTestSite, type TestSite } from "../support/app";

const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const sites: TestSite[] = [];
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close();
});

async function site(env: Record<string, string> = {}, now?: () => Date): Promise<TestSite> {
  const s = await createTestSite({ env: { TRUST_PROXY: "true", ...env }, now });
  sites.push(s);
  return s;
}

const beacon = (s: TestSite, body: unknown, headers: Record<string, string> = {}) =>
  s.request("/api/beacon", {
    method: "POST",
    headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": PHONE, "x-forwarded-for": "203.0.113.7", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const pageView = { kind: "pageview", path: "/en", device: "mobile", referrer: "news.example.org", utmCampaign: "Launch" };

type EventRow = { day: string; visitor: string; kind: string; page: string; locale: string; source: string; campaign: string | null };
const events = (s: TestSite) => s.db.$client.query<EventRow, []>("SELECT * FROM analytics_events ORDER BY id").all();

test("a page view is answered 204 with nothing in the body, and stored with its page, language, source and campaign", async () => {
  const s = await site();
  const response = await beacon(s, pageView);
  expect(response.status).toBe(204);
  expect(await response.text()).toBe("");
  expect(await s.analytics.flush()).toBe(1);
  const [row] = events(s);
  expect(row).toMatchObject({ kind: "pageview", page: "landing", locale: "en", source: "news.example.org", campaign: "launch" });
  expect(row?.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
});

test("the visitor's address and browser are stored nowhere: only a hash of them", async () => {
  const s = await site();
  await beacon(s, pageView);
  await beacon(s, { kind: "pay_clicked", path: "/en/paiement", device: "mobile" });
  await s.analytics.flush();
  const tables = s.db.$client.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  for (const { name } of tables) {
    const dump = JSON.stringify(s.db.$client.query(`SELECT * FROM "${name}"`).all());
    expect(dump).not.toContain("203.0.113.7");
    expect(dump).not.toContain("Pixel 8");
  }
});

test("one visitor is one hash all day, and another hash the next day: nobody can follow them from day to day", async () => {
  let clock = Date.parse("2026-03-02T10:00:00Z");
  const s = await site({}, () => new Date(clock));
  await beacon(s, pageView);
  clock += 60 * 60 * 1000;
  await beacon(s, pageView);
  clock = Date.parse("2026-03-03T09:00:00Z");
  await beacon(s, pageView);
  await s.analytics.flush();
  const [a, b, c] = events(s);
  expect(a?.visitor).toBe(b?.visitor ?? "");
  expect(c?.visitor).not.toBe(a?.visitor ?? "");
  expect([a?.day, c?.day]).toEqual(["2026-03-02", "2026-03-03"]);
});

test("the day's visitor key is deleted once the day is over", async () => {
  let clock = Date.parse("2026-03-02T10:00:00Z");
  const s = await site({}, () => new Date(clock));
  await beacon(s, pageView);
  clock = Date.parse("2026-03-03T00:30:00Z");
  await beacon(s, pageView);
  expect(readdirSync(visitorKeysDir(s.dataDir)).sort()).toEqual(["2026-03-02.key", "2026-03-03.key"]);
  await deleteExpiredAnalytics({ db: s.db, write: s.write, keys: openVisitorKeys(s.dataDir) }, 30, new Date(clock));
  expect(readdirSync(visitorKeysDir(s.dataDir))).toEqual(["2026-03-03.key"]);
});

test("a bot's visit is answered like any other and not counted", async () => {
  const s = await site();
  expect((await beacon(s, pageView, { "user-agent": GOOGLEBOT })).status).toBe(204);
  expect((await beacon(s, pageView, { "user-agent": "" })).status).toBe(204);
  await s.analytics.flush();
  expect(events(s)).toHaveLength(0);
});

test("forged, malformed, huge or foreign beacons are refused with their status and change nothing", async () => {
  const s = await site();
  expect((await beacon(s, "{not json")).status).toBe(400);
  expect((await beacon(s, { kind: "purchase", path: "/", device: "mobile" })).status).toBe(400);
  expect((await beacon(s, { ...pageView, extra: "field" })).status).toBe(400);
  expect((await beacon(s, { ...pageView, path: "/wp-admin.php" })).status).toBe(422);
  expect((await beacon(s, { ...pageView, referrer: "<script>" })).status).toBe(422);
  expect((await beacon(s, { kind: "vital", path: "/", device: "mobile", metric: "LCP", value: -4 })).status).toBe(422);
  expect((await beacon(s, { ...pageView, utmSource: "x".repeat(5000) })).status).toBe(413);
  expect((await beacon(s, pageView, { "content-type": "application/x-www-form-urlencoded" })).status).toBe(415);
  expect((await beacon(s, pageView, { "sec-fetch-site": "cross-site", origin: "https://evil.example" })).status).toBe(403);
  await s.analytics.flush();
  expect(events(s)).toHaveLength(0);
});

test("a flood of beacons from one client is cut off with 429 while another client is still counted", async () => {
  const s = await site();
  const statuses: number[] = [];
  for (let i = 0; i < 130; i++) statuses.push((await beacon(s, pageView)).status);
  expect(statuses.filter((x) => x === 204)).toHaveLength(120);
  expect(statuses.at(-1)).toBe(429);
  expect((await beacon(s, pageView, { "x-forwarded-for": "198.51.100.9" })).status).toBe(204);
  await s.analytics.flush();
  expect(events(s)).toHaveLength(121);
});
