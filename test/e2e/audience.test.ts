import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { useSite } from "./harness";

// The browser reaches the server from 127.0.0.1, the trusted proxy: each visitor's address comes in
// X-Forwarded-For, as a reverse proxy would send it.
const site = useSite({ env: { TRUST_PROXY: "127.0.0.1" } });
const UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

test("three visitors from three sources are counted as three, with no cookie and no identifier kept in the browser", async () => {
  const visits = [
    { ip: "198.51.100.1", path: "/?utm_source=newsletter&utm_campaign=spring" },
    { ip: "198.51.100.2", path: "/en?utm_source=forum" },
    { ip: "198.51.100.3", path: "/it" },
  ];
  for (const visit of visits) {
    const context = await site.newContext({
      userAgent: UA,
      viewport: { width: 360, height: 740 },
      extraHTTPHeaders: { "x-forwarded-for": visit.ip },
    });
    const page = await context.newPage();
    const beacon = page.waitForRequest((r) => r.url().endsWith("/api/beacon"));
    await page.goto(visit.path, { waitUntil: "load" });
    await beacon;
    expect(await context.cookies()).toEqual([]);
    const stored = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
    // Only the popup's and the toast's "already shown" flags may be there, never an id.
    for (const key of stored) expect(key).not.toMatch(/id|visitor|uid/i);
    await context.close();
  }
  await Bun.sleep(1_500);
  const db = new Database(join(site.server.dataDir, "site.db"), { readonly: true });
  try {
    const rows = db
      .query<{ visitor: string; source: string; device: string }, []>(
        "SELECT visitor, source, device FROM analytics_events WHERE kind = 'pageview'",
      )
      .all();
    expect(new Set(rows.map((r) => r.visitor)).size).toBe(3);
    expect(rows.map((r) => r.source).sort()).toEqual(["direct", "forum", "newsletter"]);
    expect(rows.every((r) => r.device === "mobile")).toBe(true);
  } finally {
    db.close();
  }
});
