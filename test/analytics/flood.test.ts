import { afterEach, expect, test } from "bun:test";
import { audienceReport } from "../../server/owner/console/audience";
import { createLogger } from "../../server/platform/log";
import { deleteExpiredAnalytics } from "../../server/shop/analytics/retention";
import { KEPT_PER_DAY, OTHER, rollUpDay } from "../../server/shop/analytics/rollup";
import { createAnalytics } from "../../server/shop/analytics/service";
import { ownerCookie } from "../console/owner";
import { createTestSite, type TestSite } from "../support/app";
import { plainSpaces } from "../support/text";

// What a flood of beacons can cost the disk. One client is held by its rate limit; many clients,
// each within theirs, are held by the day's limit of stored rows, shared by every server process;
// a flood of made-up sources is held to a bounded number of kept daily totals; and the retention
// deletes the events while keeping those totals.

const sites: TestSite[] = [];
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close();
});

const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${n} Safari/537.36`;

const beacon = (s: TestSite, n: number, body: Record<string, string>) =>
  s.request("/api/beacon", {
    method: "POST",
    headers: { "content-type": "text/plain", "user-agent": browser(n), "x-forwarded-for": `10.1.${n >> 8}.${n & 255}` },
    body: JSON.stringify({ kind: "pageview", path: "/en", device: "desktop", ...body }),
  });

const count = (s: TestSite, sql: string) => s.db.$client.query<{ n: number }, []>(sql).get()?.n ?? -1;

test("many clients, each within its rate limit, store at most the day's limit of rows, across server processes; the next day counts again and the console says what was refused", async () => {
  let clock = Date.parse("2026-04-10T09:00:00Z");
  const s = await createTestSite({ env: { TRUST_PROXY: "true", ANALYTICS_MAX_EVENTS_PER_DAY: "50" }, now: () => new Date(clock) });
  sites.push(s);
  // A second server process on the same database: its own queue, the same limit.
  const other = createAnalytics(
    { config: s.config, db: s.db, write: s.write, log: createLogger("silent"), now: () => new Date(clock) },
    { timer: false },
  );
  const sender = (n: number) => ({ ip: `10.2.0.${n}`, userAgent: browser(n) });
  const statuses = new Set<number>();
  for (let n = 0; n < 40; n++) {
    statuses.add((await beacon(s, n, { utmSource: "flood" })).status);
    other.recordBeacon({ kind: "pageview", path: "/en", device: "desktop" }, sender(n));
    if (n % 10 === 9) await Promise.all([s.analytics.flush(), other.flush()]);
  }
  await Promise.all([s.analytics.flush(), other.flush()]);
  // Every beacon is answered as usual; the day holds its limit and no more.
  expect([...statuses]).toEqual([204]);
  expect(count(s, "SELECT count(*) AS n FROM analytics_events")).toBe(50);
  expect(s.db.$client.query("SELECT day, stored, refused FROM analytics_day_counts").all()).toEqual([
    { day: "2026-04-10", stored: 50, refused: 30 },
  ]);
  // Once the day is known to be full, a beacon is refused before it is queued.
  expect((await beacon(s, 99, {})).status).toBe(204);
  expect(s.analytics.queue.stats().queued).toBe(0);

  clock = Date.parse("2026-04-11T09:00:00Z");
  expect((await beacon(s, 1, {})).status).toBe(204);
  await s.analytics.flush();
  expect(count(s, "SELECT count(*) AS n FROM analytics_events WHERE day = '2026-04-11'")).toBe(1);

  const cookie = await ownerCookie(s);
  const page = plainSpaces(await (await s.request("/admin/audience", { headers: { cookie, "accept-language": "en" } })).text());
  expect(page).toContain("On 1 day of this period, counting stopped at the daily limit of 50 stored rows");
  expect(page).toContain("31 beacons were not counted");
  await other.stop();
});

test("a flood of made-up sources keeps the day's totals to the largest sources, the rest added up under others", async () => {
  const s = await createTestSite({ env: { TRUST_PROXY: "true" } });
  sites.push(s);
  const day = new Date().toISOString().slice(0, 10);
  // Two real sources with several visitors each, then one visitor per made-up source.
  for (let n = 0; n < 3; n++) await beacon(s, n, { utmSource: "newsletter" });
  for (let n = 3; n < 5; n++) await beacon(s, n, { referrer: "forum.example" });
  const made = KEPT_PER_DAY + 50;
  for (let n = 5; n < 5 + made; n++) await beacon(s, n, { utmSource: `fake-${n}`, utmCampaign: `fake-${n}` });
  await s.analytics.flush();
  await rollUpDay(s.db, s.write, day);
  const sources = s.db.$client
    .query<{ key: string; visitors: number }, [string]>("SELECT key, visitors FROM analytics_daily WHERE day = ? AND dimension = 'source'")
    .all(day);
  expect(sources.length).toBe(KEPT_PER_DAY + 1);
  const visitors = (key: string) => sources.find((r) => r.key === key)?.visitors;
  expect(visitors("newsletter")).toBe(3);
  expect(visitors("forum.example")).toBe(2);
  // Every visitor still counted once: the kept sources and the others add up to the day's visitors.
  expect(sources.reduce((n, r) => n + r.visitors, 0)).toBe(5 + made);
  expect(visitors(OTHER)).toBe(5 + made - sources.filter((r) => r.key !== OTHER).reduce((n, r) => n + r.visitors, 0));
  const campaigns = count(s, `SELECT count(*) AS n FROM analytics_daily WHERE day = '${day}' AND dimension = 'campaign'`);
  expect(campaigns).toBe(KEPT_PER_DAY + 1);
});

test("retention deletes the events and the checkouts' visitor hashes after the set days, and keeps the daily totals the console shows", async () => {
  let clock = Date.parse("2026-05-01T10:00:00Z");
  const s = await createTestSite({ env: { TRUST_PROXY: "true", ANALYTICS_RETENTION_DAYS: "3" }, now: () => new Date(clock) });
  sites.push(s);
  for (let n = 0; n < 4; n++) await beacon(s, n, { utmSource: "newsletter" });
  const start = await s.request("/api/payment", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": browser(0), "x-forwarded-for": "10.1.0.0" },
    body: "locale=en&acceptTerms=yes",
  });
  expect(start.status).toBe(303);
  await s.analytics.flush();
  const keys = { db: s.db, write: s.write, keys: s.analytics.keys };

  // Three days later the events are still within their time.
  clock = Date.parse("2026-05-04T10:00:00Z");
  expect((await deleteExpiredAnalytics(keys, 3, new Date(clock))).events).toBe(0);
  expect(count(s, "SELECT count(*) AS n FROM analytics_events")).toBe(4);

  clock = Date.parse("2026-05-05T10:00:00Z");
  expect((await deleteExpiredAnalytics(keys, 3, new Date(clock))).events).toBe(4);
  expect(count(s, "SELECT count(*) AS n FROM analytics_events")).toBe(0);
  expect(count(s, "SELECT count(*) AS n FROM checkout_visits WHERE visitor IS NOT NULL")).toBe(0);
  // The day's totals stay, made before the events went, with the checkout's source.
  expect(
    s.db.$client
      .query("SELECT key, visitors FROM analytics_daily WHERE day = '2026-05-01' AND dimension IN ('all', 'source') ORDER BY key")
      .all(),
  ).toEqual([
    { key: "", visitors: 4 },
    { key: "newsletter", visitors: 4 },
  ]);
  const report = audienceReport(s.db, new Date(clock), "EUR", s.config.analyticsMaxEventsPerDay, true);
  expect(report.totals.visitors).toBe(4);
  expect(report.funnelBySource.find((r) => r.key === "newsletter")).toMatchObject({ visitors: 4, checkoutStarted: 1 });
});
