import { afterAll, beforeAll, expect, test } from "bun:test";
import { contentWarnings } from "../../server/platform/production-readiness";
import { createOfflineAssistant } from "../../server/shop/chat/offline-assistant";
import { publishChange } from "../../server/site/catalogue/store";
import { checkContent } from "../../server/site/content/check";
import { catalogueReadiness, publishedFacts } from "../../server/site/content/live";
import { createTestSite, type TestSite } from "../support/app";

// The rights statement: shown beside the catalogue, answered by the FAQ and the chat when asked
// whether the content is legal, and named by production's readiness while it is missing.

const RIGHTS_EN = "Every title is licensed from the studios through our partner Example Distribution, under its catalogue agreement.";
const RIGHTS_FR = "Chaque titre est diffusé sous licence des studios, par notre partenaire Example Distribution.";

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
});
afterAll(() => site.close());

test("while it is empty, the checklist and production's warnings name the catalogue, the rights and the claims", () => {
  const readiness = catalogueReadiness(site.content.current());
  expect(readiness).toEqual({ titles: 0, rightsMissing: ["fr", "en", "it", "es"], claimsConfirmed: false });
  const warnings = contentWarnings({ ...site.config, env: "production" }, publishedFacts(site.content.current()));
  expect(warnings.some((w) => w.startsWith("The catalogue is empty"))).toBe(true);
  expect(warnings.some((w) => w.startsWith("No rights statement") && w.includes("fr, en, it, es"))).toBe(true);
  expect(warnings.some((w) => w.includes("IPTV"))).toBe(true);
});

test("before a statement, the chat hands legality over; after, the FAQ and the chat answer with the owner's words", async () => {
  const chat = createOfflineAssistant({ licenseActivationLimit: 5, content: site.content });
  const before = chat.answer("Is this legal?", "en");
  expect(before.handedOver).toBe(true);
  expect(before.text).not.toContain("Example Distribution");

  await site.write((tx) =>
    publishChange(tx, {
      apply: (d) => ({ ...d, catalogue: { ...d.catalogue, rights: { en: RIGHTS_EN, fr: RIGHTS_FR }, claimsConfirmed: true } }),
      by: "test",
      now: new Date(),
    }),
  );
  site.content.refresh();

  const en = await (await site.request("/en")).text();
  expect(en).toContain("Where does the content come from, and is it legal?");
  expect(en).toContain("Example Distribution");
  // Italian has no statement: its FAQ has no such entry, and the chat still hands over.
  const it = await (await site.request("/it")).text();
  expect(it).not.toContain("Example Distribution");

  const after = chat.answer("Is this legal?", "en");
  expect(after.text).toContain("Example Distribution");
  expect(after.handedOver).toBe(false);
  const where = chat.answer("D'où viennent les contenus ?", "fr");
  expect(where.text).toContain("Example Distribution");
  expect(catalogueReadiness(site.content.current()).rightsMissing).toEqual(["it", "es"]);
});

test("a statement with HTML or a placeholder is refused with its field named", () => {
  const document = site.content.current().document;
  const bad = checkContent({
    ...document,
    catalogue: { ...document.catalogue, rights: { en: "Licensed <b>legally</b>", fr: "Sous {licence}" } },
  });
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.problems.map((p) => p.path)).toEqual(["catalogue.rights.fr", "catalogue.rights.en"]);
});
