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
  // An order keeps the source of its visit after the events are gone: the page says so.
  expect(en).toContain("When you start a payment, the order is linked to the site or campaign your first page of that day came from");
  const fr = plainSpaces(await (await s.request("/confidentialite")).text());
  expect(fr).toContain("Combien de temps : 12 jours");
  expect(fr).toContain("la commande est reliée au site ou à la campagne");
  const it = plainSpaces(await (await s.request("/it/confidentialite")).text());
  expect(it).toContain("Per quanto tempo: 12 giorni");
  expect(it).toContain("viene collegato al sito o alla campagna");
  const es = plainSpaces(await (await s.request("/es/confidentialite")).text());
  expect(es).toContain("Durante cuánto tiempo: 12 días");
  expect(es).toContain("el pedido se vincula al sitio o a la campaña");
});
