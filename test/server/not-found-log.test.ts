import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";

let site: TestSite;
afterEach(() => site?.close());

test("a 404 for a very long path logs only the start of it", async () => {
  site = await createTestSite();
  const path = `/${"a".repeat(16 * 1024)}`;
  expect((await site.request(path)).status).toBe(404);
  const line = site.logs.find((l) => l.includes("404 page not found"));
  expect(line).toBeDefined();
  expect(line!.length).toBeLessThan(400);
  expect(line).toContain(`/${"a".repeat(150)}`);
});
