import { afterAll, beforeAll, expect, test } from "bun:test";
import { publish, readPublished } from "../../server/site/content/store";
import type { ContentDocument } from "../../shared/content";
import { buildSiteFacts } from "../../shared/site-facts";
import { createTestSite, type TestSite } from "../support/app";
import { askThroughEndpoint } from "./questions/ask-through-endpoint";
import { createJudge } from "./questions/judge";

// The offline assistant through POST /api/chat as the chat window asks: a follow-up read with the
// visitor's earlier message, two questions answered in one reply, and a question the site cannot
// answer handed to the support address with nothing invented.

let site: TestSite;
beforeAll(async () => {
  // Each test's conversation comes from its own address, as the per-visitor rate limit is not what these check.
  site = await createTestSite({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => site.close());

test("'and one more?' in a conversation about devices gets the device limit, on the same key", async () => {
  const limit = site.config.licenseActivationLimit;
  const { reply, earlier } = await askThroughEndpoint(
    site.request,
    {
      before: ["Which devices can I put the app on?"],
      q: "and one more?",
      lang: "en",
      intent: "device-limit",
    },
    "198.51.100.1",
  );
  expect(earlier[0]?.reply).toContain("Android");
  expect(reply).toContain(`${limit} devices`);
  expect(createJudge(site.config)({ q: "and one more?", lang: "en", intent: "device-limit" }, reply).right).toBe(true);
});

test("the same short follow-up without the earlier message is not taken for the device limit", async () => {
  const { reply } = await askThroughEndpoint(site.request, { q: "and one more?", lang: "en", intent: "off-topic" }, "198.51.100.2");
  expect(reply).not.toContain(`${site.config.licenseActivationLimit} devices`);
});

test("a French follow-up after a refund question ('et si ça fait 12 jours ?') keeps to the refund", async () => {
  const { reply } = await askThroughEndpoint(
    site.request,
    {
      before: ["je peux être remboursé si l'appli me plaît pas ?"],
      q: "et si ça fait 12 jours ?",
      lang: "fr",
      intent: "refund",
    },
    "198.51.100.3",
  );
  expect(reply).toContain("7 jours");
  expect(reply).toContain(site.config.site.supportEmail);
});

test("a new question after an unrelated one gets its own topic, not the earlier one's", async () => {
  const price = buildSiteFacts(site.content.current().site, "en").price;
  const { reply } = await askThroughEndpoint(
    site.request,
    {
      before: ["what devices does it run on?"],
      q: "how much does the lifetime access cost?",
      lang: "en",
      intent: "price",
    },
    "198.51.100.4",
  );
  expect(reply).toContain(price);
});

test("a message asking the price and the refund gets both facts in one reply", async () => {
  const price = buildSiteFacts(site.content.current().site, "it").price;
  const question = {
    q: "quanto si paga? e se non mi piace posso avere i soldi indietro?",
    lang: "it",
    intent: "price",
    also: "refund",
  } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.5");
  expect(reply).toContain(price);
  expect(reply).toContain("7 giorni");
  expect(createJudge(site.config)(question, reply).problems).toEqual([]);
});

test("a question the site cannot answer gets the support address, no price and no access page", async () => {
  const question = { q: "¿hacéis descuento para jubilados?", lang: "es", intent: "unanswerable" } as const;
  const { reply } = await askThroughEndpoint(site.request, question, "198.51.100.6");
  expect(reply).toContain(site.config.site.supportEmail);
  const verdict = createJudge(site.config)(question, reply);
  expect(verdict.problems).toEqual([]);
  expect(verdict.handedOver).toBe(true);
});

test("an FAQ entry the owner published is answered from its own words in the question's language, and no longer once hidden", async () => {
  const student = {
    id: "student-discount",
    shown: true,
    builtIn: null,
    question: { en: "Do you have a student discount?", fr: "Avez-vous une réduction étudiante ?" },
    answer: {
      en: "No student discount: the price is the same for everyone.",
      fr: "Pas de réduction étudiante : le prix est le même pour tous.",
    },
  };
  const publishFaq = async (faq: ContentDocument["faq"]) => {
    const opened = readPublished(site.db);
    await publish(site.write, { document: { ...opened.document, faq }, openedVersion: opened.version, by: "test", now: new Date() });
    site.content.refresh();
  };
  const builtIn = readPublished(site.db).document.faq;
  await publishFaq([...builtIn, student]);
  const en = await askThroughEndpoint(
    site.request,
    { q: "do you have a student discount", lang: "en", intent: "off-topic" },
    "198.51.100.7",
  );
  expect(en.reply).toBe("No student discount: the price is the same for everyone.");
  const fr = await askThroughEndpoint(
    site.request,
    { q: "vous avez une réduction étudiante ?", lang: "fr", intent: "off-topic" },
    "198.51.100.8",
  );
  expect(fr.reply).toBe("Pas de réduction étudiante : le prix est le même pour tous.");

  await publishFaq([...builtIn, { ...student, shown: false }]);
  const hidden = await askThroughEndpoint(
    site.request,
    { q: "do you have a student discount", lang: "en", intent: "off-topic" },
    "198.51.100.9",
  );
  expect(hidden.reply).not.toContain("No student discount");
  expect(hidden.reply).toContain(site.config.site.supportEmail);
});
