import { afterEach, expect, test } from "bun:test";
import { createTestSite, type TestSite } from "../support/app";
import { plainSpaces } from "../support/text";

const sites: TestSite[] = [];
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close();
});

test("the privacy page says what is counted and for as long as the setting the deletion uses", async () => {
  const s = await createTestSite({ env: { ANALYTICS_RETENTION_DAYS: "12" } });
  sites.push(s);
  const en = plainSpaces(await (await s.request("/en/confidentialite")).text());
  expect(en).toContain("For how long: 12 days, then deleted automatically; only totals per day are kept.");
  expect(en).toContain("HMAC-SHA256");
  const fr = plainSpaces(await (await s.request("/confidentialite")).text());
  expect(fr).toContain("Combien de temps : 12 jours");
});
